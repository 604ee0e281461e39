import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrdersService } from '../orders/index.ts';
import { InstantDispatch } from './instant-dispatch.ts';
import * as repo from './repository.ts';
import { DEFAULT_RIDER_SETTINGS, FRESH_POSITION_MS, type RiderSettings } from './settings.ts';
import type { RidersTables } from './tables.ts';

/** Pings closer than this to the last kept one (phone time) are dropped: at most one a second is kept. */
const PING_INTERVAL_MS = 1_000;
/** How far ahead of the server a phone's clock may be. */
const PING_AHEAD_MS = 5 * 60_000;

type Rider = Selectable<RidersTables['riders']>;

interface Ping {
  lat: number;
  lng: number;
  accuracy_meters?: number;
  /** The phone's time of the position, ISO 8601. */
  at: string;
}

/**
 * Instant riders: drivers a business grants instant delivery, going online and offline, sending
 * their position; and, through `instant`, the instant orders offered to them.
 */
export class RidersService {
  readonly instant: InstantDispatch;

  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    orders: OrdersService,
    private readonly dispatch: DispatchService,
    events: DomainEvents,
  ) {
    this.instant = new InstantDispatch(clock, accounts, orders, dispatch, events, (db, businessId) =>
      this.settings(db, businessId),
    );
  }

  // ----- the business's side -----

  /** Grants a driver of the business instant delivery, or revokes it (its open offers declined). */
  async setGrant(ctx: OperationContext, driverId: number, granted: boolean) {
    const businessId = businessOf(ctx);
    const [driver] = await this.accounts.usersOfKind(ctx.db, businessId, 'driver', [driverId]);
    if (!driver) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: driverId } });
    if (granted) {
      await repo.insertRider(ctx.db, businessId, driverId, this.clock.now());
    } else {
      await this.instant.declineAllOf(ctx, businessId, driverId);
      await repo.deleteRider(ctx.db, businessId, driverId);
    }
    const [rider] = await this.views(ctx.db, businessId, { ids: [driverId], limit: 1, offset: 0 });
    return { result: true as const, driver_id: driverId, granted, rider: rider ?? null };
  }

  /** The business's riders, online first, with their last position, and how orders are offered. */
  async riders(ctx: OperationContext, query: PageQuery) {
    const businessId = businessOf(ctx);
    return {
      result: true as const,
      ...envelopeOf(query, await repo.countRiders(ctx.db, businessId)),
      settings: await this.settings(ctx.db, businessId),
      fresh_position_seconds: FRESH_POSITION_MS / 1000,
      riders: await this.views(ctx.db, businessId, pageWindow(query)),
    };
  }

  async updateSettings(ctx: OperationContext, changes: Partial<RiderSettings>) {
    const businessId = businessOf(ctx);
    const settings = { ...(await this.settings(ctx.db, businessId)), ...changes };
    await repo.saveSettings(ctx.db, { business_id: businessId, ...settings, updated_at: this.clock.now() });
    return { result: true as const, settings };
  }

  async settings(db: Queryable, businessId: number): Promise<RiderSettings> {
    return (await repo.settingsOf(db, businessId)) ?? DEFAULT_RIDER_SETTINGS;
  }

  // ----- the rider's side -----

  /** Online: offered instant orders while its position is fresh. Its wait for an order starts now. */
  async goOnline(ctx: OperationContext) {
    const rider = await this.caller(ctx);
    if (!rider.online) {
      const now = this.clock.now();
      await repo.updateRider(ctx.db, rider.business_id, rider.driver_user_id, {
        online: true,
        online_since: now,
        idle_since: now,
      });
    }
    return this.answer(ctx, rider);
  }

  /** Offline: offered nothing more; the offers it holds are declined (their waves move on). */
  async goOffline(ctx: OperationContext) {
    const rider = await this.caller(ctx);
    await repo.updateRider(ctx.db, rider.business_id, rider.driver_user_id, {
      online: false,
      online_since: null,
    });
    await this.instant.declineAllOf(ctx, rider.business_id, rider.driver_user_id);
    return this.answer(ctx, rider);
  }

  /**
   * A batch of positions: taken in the phone's time order, each kept only a second or more after
   * the last kept one (the others are dropped and counted); the last kept is the rider's position.
   */
  /**
   * Telemetry (no transaction): the position moves only from the one that was read, so of two
   * batches of the same rider at once, the second reads again and keeps what is still new.
   */
  async ping(ctx: OperationContext, pings: readonly Ping[]) {
    for (;;) {
      const rider = await repo.riderOf(ctx.db, businessOf(ctx), callerOf(ctx).userId);
      if (!rider) throw new AppError('RIDER_NOT_GRANTED');
      const answer = await this.keepPings(ctx, rider, pings);
      if (answer) return answer;
    }
  }

  private async keepPings(ctx: OperationContext, rider: Rider, pings: readonly Ping[]) {
    const now = this.clock.now();
    const timed = pings
      .map((ping) => ({ ...ping, time: new Date(ping.at) }))
      .sort((a, b) => a.time.getTime() - b.time.getTime());
    const ahead = timed.find((ping) => ping.time.getTime() > now.getTime() + PING_AHEAD_MS);
    if (ahead) {
      throw new AppError('DEVICE_TIME_OUT_OF_RANGE', {
        params: { device_time: ahead.at },
        details: { device_time: ahead.at, server_time: now.toISOString() },
      });
    }
    let last = rider.position_at?.getTime() ?? Number.NEGATIVE_INFINITY;
    const kept = timed.filter((ping) => {
      if (ping.time.getTime() - last < PING_INTERVAL_MS) return false;
      last = ping.time.getTime();
      return true;
    });
    const latest = kept.at(-1);
    const position = latest && {
      lat: latest.lat,
      lng: latest.lng,
      accuracy_meters: latest.accuracy_meters ?? null,
      position_at: latest.time,
      position_received_at: now,
    };
    if (position && !(await repo.moveRider(ctx.db, rider, position))) return undefined;
    return {
      result: true as const,
      kept: kept.length,
      dropped: pings.length - kept.length,
      position: positionAnswer({ ...rider, ...position }, now),
    };
  }

  async myOffers(ctx: OperationContext) {
    await this.caller(ctx);
    return this.instant.myOffers(ctx);
  }

  async accept(ctx: OperationContext, offerId: number) {
    return this.instant.accept(ctx, await this.caller(ctx), offerId);
  }

  async decline(ctx: OperationContext, offerId: number) {
    await this.caller(ctx);
    return this.instant.decline(ctx, offerId);
  }

  // ----- helpers -----

  /** The calling driver as a rider, held for the change; refused without the business's grant. */
  private async caller(ctx: OperationContext): Promise<Rider> {
    const rider = await repo.riderOf(ctx.db, businessOf(ctx), callerOf(ctx).userId, { lock: true });
    if (!rider) throw new AppError('RIDER_NOT_GRANTED');
    return rider;
  }

  private async answer(ctx: OperationContext, rider: Rider) {
    const [view] = await this.views(ctx.db, rider.business_id, {
      ids: [rider.driver_user_id],
      limit: 1,
      offset: 0,
    });
    return { result: true as const, rider: view! };
  }

  private async views(
    db: Queryable,
    businessId: number,
    options: { ids?: number[]; limit: number; offset: number },
  ) {
    const rows = await repo.ridersOf(db, businessId, options);
    const ids = rows.map((row) => row.driver_user_id);
    const names = await this.accounts.namesOf(db, ids);
    const driving = await this.dispatch.routesUnderWay(db, businessId, ids);
    const now = this.clock.now();
    return rows.map((row) => {
      const route = driving.get(row.driver_user_id);
      return {
        driver: { id: row.driver_user_id, name: names.get(row.driver_user_id) ?? '' },
        granted_at: row.granted_at.toISOString(),
        online: row.online,
        online_since: row.online_since?.toISOString() ?? null,
        waiting_since:
          row.online && row.busy_order_id === null ? (row.idle_since?.toISOString() ?? null) : null,
        busy_order_id: row.busy_order_id,
        route_under_way: route ? { id: route.id, stops_left: route.stopsLeft } : null,
        position: positionAnswer(row, now),
      };
    });
  }
}

/** A rider's last known position, and whether it is fresh enough for offers; null before the first ping. */
function positionAnswer(rider: Rider, now: Date) {
  if (rider.lat === null || rider.lng === null || !rider.position_at || !rider.position_received_at)
    return null;
  return {
    lat: rider.lat,
    lng: rider.lng,
    accuracy_meters: rider.accuracy_meters,
    at: rider.position_at.toISOString(),
    received_at: rider.position_received_at.toISOString(),
    fresh: now.getTime() - rider.position_received_at.getTime() <= FRESH_POSITION_MS,
  };
}
