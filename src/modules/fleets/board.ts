import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext, STAFF } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { toMajor } from '../../platform/money.ts';
import { enqueueDriverPushes } from '../../platform/mqtt/driver-push.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OpenRoutes, RouteWindow } from '../dispatch/index.ts';
import * as repo from './board-repository.ts';
import { areaOf, offShiftRefusal, shiftRefusal, windowPassedRefusal, windowRefusal } from './board-rules.ts';
import { keepsCalendar, workingShiftsOn } from './calendar-repository.ts';
import type { FleetsService } from './service.ts';
import type { BoardAction, RouteBoardTables } from './tables.ts';

type Entry = Selectable<RouteBoardTables['route_board_entries']>;

/** How long before a route's departure its claimant may still withdraw alone, until the business sets its own. */
export const DEFAULT_WITHDRAWAL_CUTOFF_MINUTES = 120;
/** A route's history answers its latest lines, at most this many. */
export const HISTORY_LIMIT = 200;

const STAFF_KINDS: ReadonlySet<string> = new Set(STAFF);

/**
 * Who asks for the driver to hold a route: the driver itself (a claim, joining a queue, a
 * promotion from the queue it joined), bound by its shift days too; or staff and captains
 * assigning it (a reassignment), who may call a driver in on a day it has no shift.
 */
type Asking = 'driver' | 'assignment';

/** The push a driver gets when a withdrawal promotes them from a route's standby queue. */
export const PROMOTED_PUSH = 'route_board_promoted';
/** The webhook event of a promotion. */
export const PROMOTED_EVENT = 'route_board.promoted';

/**
 * The driver route board: routes a business publishes to a fleet for a day, claimed by its drivers
 * first come first served, with a standby queue per claimed route. The route's own driver is who
 * holds it (null while open); every change of holder locks the route's entry first, so concurrent
 * claims take turns and exactly one finds the route open. Staff and the fleet's captains publish,
 * pull back, reassign and clear queues; every step is in the route's board history.
 */
export class RouteBoard {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly fleets: FleetsService,
    private readonly routes: OpenRoutes,
    private readonly events: DomainEvents,
  ) {}

  // ----- reading -----

  /** A fleet's board of a date: drivers of the fleet, its captains and staff. */
  async board(ctx: OperationContext, fleetId: number, date: string) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, fleetId, 'see');
    const entries = await repo.entriesOfBoard(ctx.db, businessId, fleet.id, date);
    return {
      result: true as const,
      fleet_id: fleet.id,
      date,
      routes: await this.views(ctx, entries),
    };
  }

  /** One route of a fleet's board with its queue in order and its history: staff and the fleet's captains. */
  async entry(ctx: OperationContext, fleetId: number, routeId: number) {
    await this.fleets.access(ctx, fleetId, 'lead');
    const entry = await this.onFleet(ctx, fleetId, routeId, repo.entryOf);
    return this.ledAnswer(ctx, entry);
  }

  /** A route of one of the calling driver's boards: who holds it, the queue's length and the driver's place in it. */
  async driverEntry(ctx: OperationContext, routeId: number) {
    const entry = await this.ofCallersFleet(ctx, routeId, repo.entryOf);
    return this.driverAnswer(ctx, entry);
  }

  /** The board routes of a date (today when absent) the calling driver holds or waits for. */
  async mine(ctx: OperationContext, date?: string) {
    const businessId = businessOf(ctx);
    const driverId = callerOf(ctx).userId;
    const day =
      date ?? (await this.accounts.localDateTimeOf(ctx.db, businessId, this.clock.now())).slice(0, 10);
    const fleets = new Set(
      (await this.fleets.membershipsOf(ctx.db, businessId, driverId)).map(
        (membership) => membership.fleet_id,
      ),
    );
    const held = new Set(
      (await this.routes.windows(ctx.db, businessId, { driverId, date: day })).map((route) => route.id),
    );
    const waiting = (await repo.standbyOfDriver(ctx.db, businessId, driverId)).map((row) => row.route_id);
    // A route it holds stays its own after it left the fleet; a queue of a fleet it left is no longer its.
    const entries = (await repo.entriesOf(ctx.db, businessId, [...new Set([...held, ...waiting])])).filter(
      (entry) => entry.board_date === day && (held.has(entry.route_id) || fleets.has(entry.fleet_id)),
    );
    return { result: true as const, date: day, routes: await this.views(ctx, entries) };
  }

  // ----- publishing and the business's setting -----

  /** Publishes a built route to a fleet's board for its date: it leaves its driver until one claims it. */
  async publish(
    ctx: OperationContext,
    input: { fleet_id: number; route_id: number; pay?: { amount_minor: number; currency: string } },
  ) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    await this.refuseOutsideCaptainsFleet(ctx, fleet.id, input.route_id);
    const opened = await this.routes.open(ctx, input.route_id);
    const area = areaOf(opened.points);
    const entry = await repo.insertEntry(ctx.db, {
      route_id: opened.routeId,
      business_id: businessId,
      fleet_id: fleet.id,
      board_date: opened.date,
      window_start: opened.departure,
      window_end: opened.returnTime,
      distance_meters: opened.distanceMeters,
      stops: opened.stops,
      area_south: area?.south ?? null,
      area_west: area?.west ?? null,
      area_north: area?.north ?? null,
      area_east: area?.east ?? null,
      pay_minor: input.pay?.amount_minor ?? null,
      pay_currency: input.pay?.currency ?? null,
      built_for_user_id: opened.builtFor,
      was_locked: opened.wasLocked,
      published_by: callerOf(ctx).userId,
      published_at: this.clock.now(),
    });
    await this.record(ctx, entry, 'published', opened.builtFor, input.pay ? { pay: input.pay } : {});
    return this.ledAnswer(ctx, entry);
  }

  async settings(ctx: OperationContext) {
    return { result: true as const, settings: await this.settingsOf(ctx.db, businessOf(ctx)) };
  }

  async updateSettings(ctx: OperationContext, withdrawalCutoffMinutes: number) {
    const businessId = businessOf(ctx);
    await repo.saveSettings(ctx.db, businessId, withdrawalCutoffMinutes, this.clock.now());
    return { result: true as const, settings: await this.settingsOf(ctx.db, businessId) };
  }

  // ----- a driver's claim, standby and withdrawal -----

  /** Claims an open route for the calling driver: exactly one of concurrent claims finds it open. */
  async claim(ctx: OperationContext, routeId: number) {
    const driverId = callerOf(ctx).userId;
    const entry = await this.ofCallersFleet(ctx, routeId, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    if (route.driverId === driverId) throw new AppError('BOARD_ROUTE_HELD', { params: { route: routeId } });
    // Before "claimed": a route that has left may not be queued for either, so standby is no way out.
    await this.refuseWindowPassed(ctx, entry);
    if (route.driverId !== null) {
      throw new AppError('ROUTE_ALREADY_CLAIMED', {
        params: { route: routeId },
        details: { route_id: routeId, standby: true },
      });
    }
    const refusal = await this.refusal(ctx.db, businessOf(ctx), driverId, entry, 'driver');
    if (refusal) throw refusal;
    await this.routes.drive(ctx, routeId, driverId, { operation: 'claim_board_route', locked: true });
    await this.record(ctx, entry, 'claimed', driverId);
    return this.driverAnswer(ctx, entry);
  }

  /**
   * Puts the calling driver at the end of a claimed route's standby queue (a second call keeps its
   * place): only a driver who could claim the route were it open may wait for it.
   */
  async joinStandby(ctx: OperationContext, routeId: number) {
    const driverId = callerOf(ctx).userId;
    const entry = await this.ofCallersFleet(ctx, routeId, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    if (route.driverId === null) throw new AppError('BOARD_ROUTE_OPEN', { params: { route: routeId } });
    if (route.driverId === driverId) throw new AppError('BOARD_ROUTE_HELD', { params: { route: routeId } });
    await this.refuseWindowPassed(ctx, entry);
    const refusal = await this.refusal(ctx.db, businessOf(ctx), driverId, entry, 'driver');
    if (refusal) throw refusal;
    if (await repo.joinQueue(ctx.db, businessOf(ctx), routeId, driverId, this.clock.now())) {
      await this.record(ctx, entry, 'standby_joined', driverId);
    }
    return this.driverAnswer(ctx, entry);
  }

  /** Takes the calling driver out of a route's standby queue. */
  async leaveStandby(ctx: OperationContext, routeId: number) {
    const driverId = callerOf(ctx).userId;
    const entry = await this.ofCallersFleet(ctx, routeId, repo.lockEntry);
    if ((await repo.leaveQueue(ctx.db, businessOf(ctx), routeId, [driverId])).length > 0) {
      await this.record(ctx, entry, 'standby_left', driverId);
    }
    return this.driverAnswer(ctx, entry);
  }

  /**
   * The claimant gives its route up, until the business's cutoff before the route's departure:
   * the first standby driver who may still take it is promoted, else the route is open again.
   */
  async withdraw(ctx: OperationContext, routeId: number) {
    const driverId = callerOf(ctx).userId;
    const entry = await this.ofCallersFleet(ctx, routeId, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    if (route.driverId === null) throw new AppError('BOARD_ROUTE_OPEN', { params: { route: routeId } });
    if (route.driverId !== driverId) throw new AppError('FORBIDDEN');
    const cutoff = await this.cutoffOf(ctx.db, businessOf(ctx), route);
    if (route.status !== 'planned' || cutoff.passed) {
      throw new AppError('WITHDRAWAL_CUTOFF_PASSED', {
        params: { route: routeId, cutoff: cutoff.at },
        details: { cutoff: cutoff.at },
      });
    }
    await this.handOn(ctx, entry, route, { by: 'claimant' });
    return this.driverAnswer(ctx, entry);
  }

  // ----- staff and captains -----

  /** Takes the claimant off a route at any time (staff, the fleet's captains); the queue moves on as on a withdrawal. */
  async release(ctx: OperationContext, fleetId: number, routeId: number) {
    await this.fleets.access(ctx, fleetId, 'lead');
    const entry = await this.onFleet(ctx, fleetId, routeId, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    if (route.driverId === null) throw new AppError('BOARD_ROUTE_OPEN', { params: { route: routeId } });
    const cutoff = await this.cutoffOf(ctx.db, businessOf(ctx), route);
    await this.handOn(ctx, entry, route, {
      by: STAFF_KINDS.has(callerOf(ctx).kind) ? 'staff' : 'captain',
      after_cutoff: cutoff.passed,
    });
    return this.ledAnswer(ctx, entry);
  }

  /**
   * Takes a route off the board: it goes to the driver it was built for, or to a named driver of
   * the business, with the lock it had before publication; its queue is gone, its history stays.
   */
  async pullBack(ctx: OperationContext, input: { fleet_id: number; route_id: number; driver_id?: number }) {
    await this.fleets.access(ctx, input.fleet_id, 'lead');
    const entry = await this.onFleet(ctx, input.fleet_id, input.route_id, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    const driverId = input.driver_id ?? entry.built_for_user_id;
    // Staff name any driver of the business; a captain, who leads its fleet only, a driver of the fleet.
    const named =
      input.driver_id === undefined ||
      (STAFF_KINDS.has(callerOf(ctx).kind)
        ? (await this.accounts.usersOfKind(ctx.db, businessOf(ctx), 'driver', [input.driver_id])).length > 0
        : await this.fleets.isMember(ctx.db, businessOf(ctx), entry.fleet_id, input.driver_id));
    if (!named) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: driverId } });
    const answer = await this.routes.drive(ctx, entry.route_id, driverId, {
      operation: 'pull_back_board_route',
      locked: entry.was_locked,
    });
    await this.record(ctx, entry, 'pulled_back', driverId, { from_driver_id: route.driverId });
    await repo.deleteEntry(ctx.db, businessOf(ctx), entry.route_id);
    return { result: true as const, route: answer };
  }

  /** Gives a board route to a driver of the fleet, ahead of its queue, within the board's rules. */
  async reassign(ctx: OperationContext, input: { fleet_id: number; route_id: number; driver_id: number }) {
    const businessId = businessOf(ctx);
    await this.fleets.access(ctx, input.fleet_id, 'lead');
    const entry = await this.onFleet(ctx, input.fleet_id, input.route_id, repo.lockEntry);
    const route = await this.routeOf(ctx, entry);
    if (!(await this.fleets.isMember(ctx.db, businessId, entry.fleet_id, input.driver_id))) {
      throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    }
    if (route.driverId === input.driver_id) {
      throw new AppError('BOARD_ROUTE_HELD', { params: { route: entry.route_id } });
    }
    const refusal = await this.refusal(ctx.db, businessId, input.driver_id, entry, 'assignment');
    if (refusal) throw refusal;
    await repo.leaveQueue(ctx.db, businessId, entry.route_id, [input.driver_id]);
    await this.routes.drive(ctx, entry.route_id, input.driver_id, {
      operation: 'reassign_board_route',
      locked: true,
    });
    await this.record(ctx, entry, 'reassigned', input.driver_id, { from_driver_id: route.driverId });
    return this.ledAnswer(ctx, entry);
  }

  /** Empties a route's standby queue. */
  async clearQueue(ctx: OperationContext, fleetId: number, routeId: number) {
    await this.fleets.access(ctx, fleetId, 'lead');
    const entry = await this.onFleet(ctx, fleetId, routeId, repo.lockEntry);
    const cleared = await repo.leaveQueue(ctx.db, businessOf(ctx), routeId);
    await this.record(ctx, entry, 'queue_cleared', null, { driver_ids: cleared });
    return this.ledAnswer(ctx, entry);
  }

  /**
   * A fleet being deleted hands the routes open on its boards back to the drivers they were built
   * for, with their lock, so that no route is left driverless on a board nobody sees; its board
   * entries, queues and history go with the fleet (claimed routes stay with their drivers).
   */
  readonly handBackOpenRoutes = async (ctx: OperationContext, fleetId: number): Promise<void> => {
    const businessId = businessOf(ctx);
    const entries = await repo.entriesOfFleet(ctx.db, businessId, fleetId);
    const routes = await this.routes.windows(ctx.db, businessId, {
      ids: entries.map((entry) => entry.route_id),
    });
    for (const entry of entries) {
      if (routes.find((route) => route.id === entry.route_id)?.driverId !== null) continue;
      await this.routes.drive(ctx, entry.route_id, entry.built_for_user_id, {
        operation: 'pull_back_board_route',
        locked: entry.was_locked,
      });
    }
  };

  // ----- handing a route on -----

  /**
   * The holder leaves the route: the first driver of its queue who may still take it (a member of
   * the fleet whose day and shift leave room) gets it and is told, on its MQTT topic and by a
   * webhook event; those who may not are dropped from the queue with the reason. With nobody left,
   * the route is open on the board again.
   */
  private async handOn(
    ctx: OperationContext,
    entry: Entry,
    route: RouteWindow,
    how: Record<string, unknown>,
  ) {
    const businessId = businessOf(ctx);
    await this.record(ctx, entry, 'withdrawn', route.driverId, how);
    for (const waiting of await repo.queueOf(ctx.db, businessId, entry.route_id)) {
      const driverId = waiting.driver_user_id;
      await repo.leaveQueue(ctx.db, businessId, entry.route_id, [driverId]);
      const refusal = (await this.fleets.isMember(ctx.db, businessId, entry.fleet_id, driverId))
        ? await this.refusal(ctx.db, businessId, driverId, entry, 'driver')
        : new AppError('ROUTE_NOT_ON_BOARD', { params: { route: entry.route_id } });
      if (refusal) {
        await this.record(ctx, entry, 'standby_dropped', driverId, { reason: refusal.code });
        continue;
      }
      await this.routes.drive(ctx, entry.route_id, driverId, {
        operation: 'promote_board_standby',
        locked: true,
      });
      await this.record(ctx, entry, 'promoted', driverId, { from_driver_id: route.driverId });
      await this.tellPromoted(ctx, entry, driverId, route.driverId);
      return;
    }
    await this.routes.reopen(ctx, entry.route_id);
    await this.record(ctx, entry, 'reopened', null);
  }

  private async tellPromoted(ctx: OperationContext, entry: Entry, driverId: number, from: number | null) {
    const businessId = businessOf(ctx);
    const about = {
      route_id: entry.route_id,
      fleet_id: entry.fleet_id,
      date: entry.board_date,
      window: windowOf(entry),
    };
    await enqueueDriverPushes(ctx.db, this.clock, [
      { businessId, driverUserId: driverId, body: { type: PROMOTED_PUSH, ...about } },
    ]);
    await this.events.publish(ctx, {
      kind: PROMOTED_EVENT,
      businessId,
      customerId: null,
      data: { ...about, driver_id: driverId, previous_driver_id: from },
    });
  }

  /**
   * Why the driver may not hold the route, or null: no depot to time it from, its window against
   * the driver's other routes that day, the driver's shifts (and, when the driver asks itself, a
   * shift that day at all in a fleet keeping a calendar). The driver's day stays held until the
   * transaction ends, so a concurrent claim of another route that day weighs this one's outcome.
   */
  private async refusal(db: Queryable, businessId: number, driverId: number, entry: Entry, asking: Asking) {
    if (!(await this.routes.drivable(db, businessId, driverId))) {
      return new AppError('DRIVER_WITHOUT_DEPOT', { params: { driver: driverId } });
    }
    await repo.holdDriverDay(db, businessId, driverId, entry.board_date);
    const window = windowOf(entry);
    const others = (await this.routes.windows(db, businessId, { driverId, date: entry.board_date })).filter(
      (other) => other.id !== entry.route_id,
    );
    const shifts = await workingShiftsOn(db, businessId, entry.board_date, [driverId]);
    // Asked of the calendar only when it can matter: the driver asks itself and has no shift.
    const boundToShiftDays =
      asking === 'driver' && shifts.length === 0 && (await keepsCalendar(db, businessId, entry.fleet_id));
    return (
      windowRefusal(entry.route_id, window, others) ??
      offShiftRefusal(entry.route_id, entry.board_date, boundToShiftDays, shifts.length) ??
      shiftRefusal(entry.route_id, window, shifts)
    );
  }

  /**
   * A driver claims or queues for a route only before it leaves: once its departure (business
   * time, the service's clock) has come, BOARD_WINDOW_PASSED; staff and captains may still assign it.
   */
  private async refuseWindowPassed(ctx: OperationContext, entry: Entry) {
    const now = await this.accounts.localDateTimeOf(ctx.db, businessOf(ctx), this.clock.now());
    const refusal = windowPassedRefusal(entry.route_id, entry.board_date, windowOf(entry), now);
    if (refusal) throw refusal;
  }

  /**
   * A captain publishes the routes of its fleet's drivers only; another route of the business is
   * ROUTE_NOT_FOUND to it, as if it did not exist. Staff publish any route of the business.
   */
  private async refuseOutsideCaptainsFleet(ctx: OperationContext, fleetId: number, routeId: number) {
    if (STAFF_KINDS.has(callerOf(ctx).kind)) return;
    const [route] = await this.routes.windows(ctx.db, businessOf(ctx), { ids: [routeId] });
    const driverId = route?.driverId;
    if (driverId === undefined) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    // A route already on a board says so (ROUTE_NOT_PUBLISHABLE) when it is opened.
    if (driverId !== null && !(await this.fleets.isMember(ctx.db, businessOf(ctx), fleetId, driverId))) {
      throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    }
  }

  // ----- finding entries -----

  /** The entry of a route on a board of the calling driver's fleets; any other is ROUTE_NOT_ON_BOARD. */
  private async ofCallersFleet(
    ctx: OperationContext,
    routeId: number,
    find: (db: Queryable, businessId: number, routeId: number) => Promise<Entry | undefined>,
  ): Promise<Entry> {
    const businessId = businessOf(ctx);
    const entry = await find(ctx.db, businessId, routeId);
    if (!entry || !(await this.fleets.isMember(ctx.db, businessId, entry.fleet_id, callerOf(ctx).userId))) {
      throw new AppError('ROUTE_NOT_ON_BOARD', { params: { route: routeId } });
    }
    return entry;
  }

  /** The entry of a route on this fleet's board (the caller's access to the fleet checked before). */
  private async onFleet(
    ctx: OperationContext,
    fleetId: number,
    routeId: number,
    find: (db: Queryable, businessId: number, routeId: number) => Promise<Entry | undefined>,
  ): Promise<Entry> {
    const entry = await find(ctx.db, businessOf(ctx), routeId);
    if (entry?.fleet_id !== fleetId) throw new AppError('ROUTE_NOT_ON_BOARD', { params: { route: routeId } });
    return entry;
  }

  /** The board route as dispatch has it now: its driver and its window. */
  private async routeOf(ctx: OperationContext, entry: Entry): Promise<RouteWindow> {
    const [route] = await this.routes.windows(ctx.db, businessOf(ctx), { ids: [entry.route_id] });
    return route!;
  }

  // ----- answers -----

  private async settingsOf(db: Queryable, businessId: number) {
    const saved = await repo.settingsOf(db, businessId);
    return {
      withdrawal_cutoff_minutes: saved?.withdrawal_cutoff_minutes ?? DEFAULT_WITHDRAWAL_CUTOFF_MINUTES,
    };
  }

  /** When the claimant's own withdrawal closes (business time, `YYYY-MM-DD HH:MM`), and whether it has. */
  private async cutoffOf(db: Queryable, businessId: number, route: RouteWindow) {
    const { withdrawal_cutoff_minutes: minutes } = await this.settingsOf(db, businessId);
    // Wall-clock arithmetic of the business's day, as if its time zone were UTC.
    const departure = Date.parse(`${route.date}T${route.departure}:00Z`);
    const at = new Date(departure - minutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    const now = await this.accounts.localDateTimeOf(db, businessId, this.clock.now());
    return { at, passed: now.slice(0, 16) >= at };
  }

  private async record(
    ctx: OperationContext,
    entry: Entry,
    action: BoardAction,
    driverId: number | null,
    details: Record<string, unknown> = {},
  ) {
    await repo.record(
      ctx.db,
      [
        {
          businessId: entry.business_id,
          routeId: entry.route_id,
          fleetId: entry.fleet_id,
          action,
          driverId,
          actorId: callerOf(ctx).userId,
          details,
        },
      ],
      this.clock.now(),
    );
  }

  /** Board routes as the board shows them, with who holds each, its queue and the caller's place in it. */
  private async views(ctx: OperationContext, entries: readonly Entry[]) {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    const ids = entries.map((entry) => entry.route_id);
    const routes = new Map(
      (await this.routes.windows(ctx.db, businessId, { ids })).map((route) => [route.id, route]),
    );
    const holders = [...routes.values()].flatMap((route) =>
      route.driverId === null ? [] : [route.driverId],
    );
    const names = await this.accounts.namesOf(ctx.db, holders);
    const queues = await repo.queueFigures(
      ctx.db,
      businessId,
      ids,
      caller.kind === 'driver' ? caller.userId : undefined,
    );
    return entries.map((entry) => {
      // A board entry goes with its route: every entry has one.
      const route = routes.get(entry.route_id)!;
      const holder = route.driverId;
      const queue = queues.get(entry.route_id);
      return {
        route_id: entry.route_id,
        fleet_id: entry.fleet_id,
        date: entry.board_date,
        state: holder === null ? ('open' as const) : ('claimed' as const),
        window: windowOf(entry),
        stops: entry.stops,
        distance_meters: entry.distance_meters,
        area:
          entry.area_south === null
            ? null
            : {
                south: entry.area_south,
                west: entry.area_west!,
                north: entry.area_north!,
                east: entry.area_east!,
              },
        pay:
          entry.pay_minor === null
            ? null
            : {
                amount: toMajor(entry.pay_minor, entry.pay_currency!),
                amount_minor: entry.pay_minor,
                currency: entry.pay_currency!,
              },
        claimant: holder === null ? null : { id: holder, name: names.get(holder) ?? '' },
        route_status: route.status,
        standby: { length: queue?.length ?? 0, my_position: queue?.position ?? null },
        published_at: entry.published_at.toISOString(),
      };
    });
  }

  /** One board route as its drivers see it. */
  private async driverAnswer(ctx: OperationContext, entry: Entry) {
    const [view] = await this.views(ctx, [entry]);
    return { result: true as const, route: view! };
  }

  /** One board route as staff and its fleet's captains see it: with its queue in order and its history. */
  private async ledAnswer(ctx: OperationContext, entry: Entry) {
    const businessId = businessOf(ctx);
    const [view] = await this.views(ctx, [entry]);
    const history = await repo.historyOf(ctx.db, businessId, entry.route_id, HISTORY_LIMIT);
    const queue = await repo.queueOf(ctx.db, businessId, entry.route_id);
    const names = await this.accounts.namesOf(ctx.db, [
      ...new Set(
        [
          ...history.flatMap((line) => [line.driver_user_id, line.actor_user_id]),
          ...queue.map((q) => q.driver_user_id),
        ].filter((id): id is number => id !== null),
      ),
    ]);
    const person = (id: number | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
    return {
      result: true as const,
      route: {
        ...view!,
        queue: queue.map((waiting, at) => ({
          position: at + 1,
          driver: person(waiting.driver_user_id)!,
          joined_at: waiting.joined_at.toISOString(),
        })),
        history: history.map((line) => ({
          action: line.action,
          driver: person(line.driver_user_id),
          actor: person(line.actor_user_id),
          details: line.details,
          at: line.at.toISOString(),
        })),
      },
    };
  }
}

/** The route's window as published (`HH:MM`, business time). */
function windowOf(entry: Entry) {
  return { start: entry.window_start.slice(0, 5), end: entry.window_end.slice(0, 5) };
}
