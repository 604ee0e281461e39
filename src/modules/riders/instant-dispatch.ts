import type { Selectable } from 'kysely';
import {
  businessOf,
  callerOf,
  type OperationContext,
  PERFORM_EVERYTHING,
} from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db, Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEvent, DomainEvents } from '../../platform/events.ts';
import { type DriverPush, enqueueDriverPushes } from '../../platform/mqtt/driver-push.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrderStatus, OrdersService, OrderView } from '../orders/index.ts';
import * as repo from './repository.ts';
import { FRESH_POSITION_MS, type RiderSettings } from './settings.ts';
import type { OfferReason, RidersTables } from './tables.ts';

/** The outbox topic of a wave's deadline: its open offers expire and the next wave goes out. */
export const OFFER_EXPIRY_TOPIC = 'riders.offer_expiry';
/** The webhook event of an instant order nobody took: it stays in the ordinary pool. */
export const UNASSIGNED_EVENT = 'order.instant_unassigned';
/** A rider's order left them (done, failed, cancelled, held, back in the pool): they are free again. */
const RELEASING: readonly OrderStatus[] = [
  'DELIVERED',
  'FAILED_ATTEMPT',
  'RETURNED',
  'CANCELLED',
  'NEW_ORDER',
  'HOLD',
];

type Offer = Selectable<RidersTables['instant_offers']>;
type Dispatch = Selectable<RidersTables['instant_dispatches']>;
interface ExpiryPayload {
  business_id: number;
  order_id: number;
  wave: number;
}

/**
 * Instant orders offered to riders: on creation an order is offered to the nearest free online
 * riders, a wave at a time, each offer open for the business's seconds; a decline of the wave's
 * last open offer, or the wave's deadline, sends the next wave; the first rider to accept gets the
 * order on a one-order route (every decision on an order takes its dispatch row's lock, so exactly
 * one accept wins); when nobody is left, the order stays in the ordinary pool and the business is
 * told (`order.instant_unassigned`).
 */
export class InstantDispatch {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
    private readonly events: DomainEvents,
    private readonly settingsOf: (db: Queryable, businessId: number) => Promise<RiderSettings>,
  ) {}

  /**
   * Hears the orders module's events in the writing transaction: a new instant order is offered
   * at once (its offers and pushes commit with it); an order that leaves the pool otherwise
   * (planned, held, cancelled) withdraws its offers; a rider's order that ends frees the rider.
   * A rerouted order's original is cancelled without an event of its own: its replacement's
   * `order.created` (naming `rerouted_from`) withdraws the original's offers and frees its rider,
   * and the replacement of an instant order is offered again like a new one.
   */
  readonly onEvents = async (ctx: OperationContext, events: readonly DomainEvent[]): Promise<void> => {
    const byBusiness = new Map<number, { created: number[]; left: number[]; released: number[] }>();
    const of = (businessId: number) => {
      if (!byBusiness.has(businessId)) byBusiness.set(businessId, { created: [], left: [], released: [] });
      return byBusiness.get(businessId)!;
    };
    for (const event of events) {
      const orderId = event.data.order_id as number;
      if (event.kind === 'order.created') {
        if (event.data.instant === true) of(event.businessId).created.push(orderId);
        const original = event.data.rerouted_from;
        if (typeof original === 'number') {
          of(event.businessId).left.push(original);
          of(event.businessId).released.push(original);
        }
      }
      if (event.kind !== 'order.status_changed') continue;
      const to = event.data.to as OrderStatus;
      if (to !== 'NEW_ORDER') of(event.businessId).left.push(orderId);
      if (RELEASING.includes(to)) of(event.businessId).released.push(orderId);
    }
    for (const [businessId, { created, left, released }] of byBusiness) {
      await this.withdraw(ctx, businessId, left);
      // Riders freed first: a rider whose order was rerouted may be offered its replacement.
      await repo.releaseRiders(ctx.db, businessId, released, this.clock.now());
      if (created.length > 0) await this.open(ctx, businessId, created);
    }
  };

  /** The outbox handler of a wave's deadline: its open offers expire and the next wave goes out. */
  expiryHandler(db: Db): OutboxHandler {
    return async (message) => {
      const { business_id: businessId, order_id: orderId, wave } = message.payload as ExpiryPayload;
      try {
        await db.transaction().execute(async (trx) => {
          const ctx = backgroundContext(trx, this.clock, businessId);
          const dispatch = await repo.dispatchOf(trx, businessId, orderId, { lock: true });
          // Accepted, exhausted, withdrawn, or already moved on (every offer of the wave declined).
          if (dispatch?.state !== 'offering' || dispatch.wave !== wave) return;
          await repo.closeOpenOffers(trx, businessId, [orderId], 'expired', this.clock.now());
          await this.offerNextWave(ctx, dispatch);
        });
        return { done: true };
      } catch (error) {
        // Another decision on the order at the same moment (a deadlock, a lost connection): soon again.
        return { retryAt: new Date(this.clock.now().getTime() + 1_000), error: String(error) };
      }
    };
  }

  // ----- the rider's answers -----

  /** The caller's offers open now, with what each order asks of them. */
  async myOffers(ctx: OperationContext) {
    const businessId = businessOf(ctx);
    const offers = await repo.openOffersOf(ctx.db, businessId, callerOf(ctx).userId, this.clock.now());
    const orders = await this.orderViews(
      ctx.db,
      businessId,
      offers.map((offer) => offer.order_id),
    );
    return {
      result: true as const,
      offers: offers.map((offer) => offerAnswer(offer, orders.get(offer.order_id)!, this.clock.now())),
    };
  }

  /**
   * Takes the order of an open offer: exactly one rider wins (the dispatch row's lock orders the
   * accepts); the order goes to the winner as a one-order route leaving from their last position.
   */
  async accept(ctx: OperationContext, rider: Selectable<RidersTables['riders']>, offerId: number) {
    const businessId = businessOf(ctx);
    const { offer, dispatch } = await this.openOffer(ctx, offerId);
    if (rider.busy_order_id !== null) {
      throw new AppError('RIDER_BUSY', { params: { order: rider.busy_order_id } });
    }
    // Offered while free, it may have started a route since: it would then hold two at once.
    if (!(await this.settingsOf(ctx.db, businessId)).offer_riders_on_route) {
      const route = (await this.dispatch.routesUnderWay(ctx.db, businessId, [rider.driver_user_id])).get(
        rider.driver_user_id,
      );
      if (route) {
        throw new AppError('RIDER_ON_ROUTE', {
          params: { route: route.id },
          details: { route_id: route.id, stops_left: route.stopsLeft },
        });
      }
    }
    const now = this.clock.now();
    await repo.closeOpenOffers(ctx.db, businessId, [offer.order_id], 'accepted', now, { ids: [offer.id] });
    const taken = await repo.closeOpenOffers(ctx.db, businessId, [offer.order_id], 'taken', now);
    await repo.updateDispatch(ctx.db, offer.order_id, {
      state: 'accepted',
      rider_user_id: rider.driver_user_id,
      updated_at: now,
    });
    await repo.updateRider(ctx.db, businessId, rider.driver_user_id, { busy_order_id: offer.order_id });
    const from =
      rider.lat !== null && rider.lng !== null
        ? { lat: rider.lat, lng: rider.lng }
        : { lat: dispatch.origin_lat!, lng: dispatch.origin_lng! };
    const routeId = await this.dispatch.createOneOrderRoute(ctx, {
      driverId: rider.driver_user_id,
      orderId: offer.order_id,
      from,
    });
    await repo.updateDispatch(ctx.db, offer.order_id, { route_id: routeId });
    await this.tellClosed(ctx.db, businessId, taken, 'taken');
    const [order] = await this.orders.queries.views(ctx.db, businessId, [offer.order_id]);
    return {
      result: true as const,
      offer: offerAnswer({ ...offer, state: 'accepted', answered_at: now }, order!, now),
      order_id: offer.order_id,
      route_id: routeId,
    };
  }

  /** Declines an open offer; the last open offer of its wave declined sends the next wave at once. */
  async decline(ctx: OperationContext, offerId: number) {
    const businessId = businessOf(ctx);
    const { offer, dispatch } = await this.openOffer(ctx, offerId);
    const now = this.clock.now();
    await repo.closeOpenOffers(ctx.db, businessId, [offer.order_id], 'declined', now, { ids: [offer.id] });
    if ((await repo.openOfferCount(ctx.db, offer.order_id)) === 0) await this.offerNextWave(ctx, dispatch);
    const [order] = await this.orders.queries.views(ctx.db, businessId, [offer.order_id]);
    return {
      result: true as const,
      offer: offerAnswer({ ...offer, state: 'declined', answered_at: now }, order!, now),
    };
  }

  /** A rider going offline or losing the grant declines every offer it holds; waves move on. */
  async declineAllOf(ctx: OperationContext, businessId: number, driverId: number): Promise<void> {
    for (const orderId of await repo.ordersOfferedTo(ctx.db, businessId, driverId)) {
      const dispatch = await repo.dispatchOf(ctx.db, businessId, orderId, { lock: true });
      const closed = await repo.closeOpenOffers(ctx.db, businessId, [orderId], 'declined', this.clock.now(), {
        driverId,
      });
      if (
        closed.length > 0 &&
        dispatch?.state === 'offering' &&
        (await repo.openOfferCount(ctx.db, orderId)) === 0
      ) {
        await this.offerNextWave(ctx, dispatch);
      }
    }
  }

  // ----- the staff's view -----

  /** An order's instant dispatch: its state, wave, rider and route, and every offer made. */
  async orderDispatch(ctx: OperationContext, orderId: number) {
    const businessId = businessOf(ctx);
    const order = await this.orders.queries.detail(ctx, orderId);
    const dispatch = await repo.dispatchOf(ctx.db, businessId, orderId);
    if (!dispatch)
      return { result: true as const, order_id: order.id, instant: order.instant, dispatch: null };
    const offers = await repo.offersOfOrder(ctx.db, businessId, orderId);
    const names = await this.accounts.namesOf(ctx.db, [
      ...offers.map((offer) => offer.driver_user_id),
      ...(dispatch.rider_user_id ? [dispatch.rider_user_id] : []),
    ]);
    const person = (id: number) => ({ id, name: names.get(id) ?? '' });
    return {
      result: true as const,
      order_id: order.id,
      instant: order.instant,
      dispatch: {
        state: dispatch.state,
        wave: dispatch.wave,
        origin:
          dispatch.origin_lat === null || dispatch.origin_lng === null
            ? null
            : { lat: dispatch.origin_lat, lng: dispatch.origin_lng },
        rider: dispatch.rider_user_id === null ? null : person(dispatch.rider_user_id),
        route_id: dispatch.route_id,
        created_at: dispatch.created_at.toISOString(),
        updated_at: dispatch.updated_at.toISOString(),
        offers: offers.map((offer) => ({
          id: offer.id,
          rider: person(offer.driver_user_id),
          wave: offer.wave,
          state: offer.state,
          distance_meters: offer.distance_meters,
          offered_at: offer.offered_at.toISOString(),
          expires_at: offer.expires_at.toISOString(),
          answered_at: offer.answered_at?.toISOString() ?? null,
          reason: offer.reason,
        })),
      },
    };
  }

  // ----- offering -----

  /** Starts the dispatch of new instant orders: each ranked from where a rider goes first, then offered. */
  private async open(ctx: OperationContext, businessId: number, orderIds: number[]): Promise<void> {
    const orders = await this.orderViews(ctx.db, businessId, orderIds);
    const now = this.clock.now();
    const rows = orderIds.map((orderId) => {
      const origin = originOf(orders.get(orderId)!);
      return {
        order_id: orderId,
        business_id: businessId,
        state: 'offering' as const,
        origin_lat: origin?.lat ?? null,
        origin_lng: origin?.lng ?? null,
        rider_user_id: null,
        route_id: null,
        created_at: now,
        updated_at: now,
      };
    });
    await repo.insertDispatches(ctx.db, rows);
    for (const row of rows) await this.offerNextWave(ctx, { ...row, wave: 0 }, orders.get(row.order_id));
  }

  /**
   * Offers the order to the next wave of riders (pushed on their MQTT topics, with a deadline in
   * the outbox), or, with nobody left, marks it exhausted and tells the business.
   */
  private async offerNextWave(ctx: OperationContext, dispatch: Dispatch, known?: OrderView): Promise<void> {
    const businessId = dispatch.business_id;
    const now = this.clock.now();
    const settings = await this.settingsOf(ctx.db, businessId);
    const origin =
      dispatch.origin_lat === null || dispatch.origin_lng === null
        ? null
        : { lat: dispatch.origin_lat, lng: dispatch.origin_lng };
    const riders = origin ? await this.ranked(ctx.db, businessId, dispatch.order_id, origin, settings) : [];
    const order =
      known ?? (await this.orderViews(ctx.db, businessId, [dispatch.order_id])).get(dispatch.order_id)!;
    if (riders.length === 0) {
      await repo.updateDispatch(ctx.db, dispatch.order_id, { state: 'exhausted', updated_at: now });
      await this.events.publish(ctx, {
        kind: UNASSIGNED_EVENT,
        businessId,
        customerId: order.customer_id,
        data: { order_id: order.id, order_ref: order.order_ref, waves: dispatch.wave },
      });
      return;
    }
    const wave = dispatch.wave + 1;
    const expiresAt = new Date(now.getTime() + settings.offer_seconds * 1000);
    const offers = await repo.insertOffers(
      ctx.db,
      riders.map((rider) => ({
        business_id: businessId,
        order_id: dispatch.order_id,
        driver_user_id: rider.driver_user_id,
        wave,
        distance_meters: Math.round(rider.distance_meters),
        offered_at: now,
        expires_at: expiresAt,
        answered_at: null,
        reason: rider.reason,
      })),
    );
    await repo.updateDispatch(ctx.db, dispatch.order_id, { wave, updated_at: now });
    await enqueueDriverPushes(
      ctx.db,
      this.clock,
      offers.map((offer) => ({
        businessId,
        driverUserId: offer.driver_user_id,
        body: { type: 'instant_offer', offer: offerAnswer(offer, order, now) },
      })),
    );
    const payload: ExpiryPayload = { business_id: businessId, order_id: dispatch.order_id, wave };
    await enqueue(ctx.db, this.clock, {
      topic: OFFER_EXPIRY_TOPIC,
      businessId,
      messageId: `offer_expiry_${dispatch.order_id}_${wave}`,
      payload,
      availableAt: expiresAt,
    });
  }

  /**
   * The next wave's riders, nearest first, each with why it is offered the order. A rider driving
   * a route under way is busy, and passed over for the next nearest, unless the business lets such
   * riders be offered (`offer_riders_on_route`); then it is ranked by distance like the others.
   */
  private async ranked(
    db: Queryable,
    businessId: number,
    orderId: number,
    origin: { lat: number; lng: number },
    settings: RiderSettings,
  ) {
    const now = this.clock.now();
    const chosen: Array<{ driver_user_id: number; distance_meters: number; reason: OfferReason }> = [];
    const passedOver: number[] = [];
    for (;;) {
      const wanted = settings.wave_size - chosen.length;
      const nearest = await repo.nearestFreeRiders(db, businessId, {
        orderId,
        origin,
        freshSince: new Date(now.getTime() - FRESH_POSITION_MS),
        now,
        limit: wanted,
        excluding: [...chosen.map((rider) => rider.driver_user_id), ...passedOver],
      });
      const driving = await this.dispatch.routesUnderWay(
        db,
        businessId,
        nearest.map((rider) => rider.driver_user_id),
      );
      for (const rider of nearest) {
        const route = driving.get(rider.driver_user_id);
        if (route && !settings.offer_riders_on_route) {
          passedOver.push(rider.driver_user_id);
          continue;
        }
        chosen.push({
          driver_user_id: rider.driver_user_id,
          distance_meters: rider.distance_meters,
          reason: {
            code: route ? 'nearest_on_route' : 'nearest_free',
            rank: chosen.length + 1,
            distance_meters: Math.round(rider.distance_meters),
            waiting_since: rider.waiting_since ? new Date(rider.waiting_since).toISOString() : null,
            route: route ? { id: route.id, stops_left: route.stopsLeft } : null,
          },
        });
      }
      // Full, or nobody further away is left to weigh.
      if (chosen.length === settings.wave_size || nearest.length < wanted) return chosen;
    }
  }

  /** The dispatches of orders that left the pool otherwise are withdrawn, and their riders told. */
  private async withdraw(ctx: OperationContext, businessId: number, orderIds: number[]): Promise<void> {
    const withdrawn = await repo.withdrawDispatches(ctx.db, businessId, orderIds, this.clock.now());
    const closed = await repo.closeOpenOffers(ctx.db, businessId, withdrawn, 'withdrawn', this.clock.now());
    await this.tellClosed(ctx.db, businessId, closed, 'withdrawn');
  }

  /** The caller's offer, open, with its dispatch locked; refused when gone, taken or over. */
  private async openOffer(ctx: OperationContext, offerId: number) {
    const businessId = businessOf(ctx);
    const found = await repo.offerOf(ctx.db, businessId, callerOf(ctx).userId, offerId);
    if (!found) throw new AppError('OFFER_NOT_FOUND', { params: { offer: offerId } });
    const dispatch = (await repo.dispatchOf(ctx.db, businessId, found.order_id, { lock: true }))!;
    // Read again under the lock: another rider's accept may have just closed it.
    const offer = (await repo.offerOf(ctx.db, businessId, callerOf(ctx).userId, offerId))!;
    if (offer.state === 'taken' || (dispatch.state === 'accepted' && offer.state !== 'accepted')) {
      throw new AppError('OFFER_ALREADY_TAKEN', { params: { offer: offerId, order: offer.order_id } });
    }
    if (offer.state !== 'open' || offer.expires_at <= this.clock.now() || dispatch.state !== 'offering') {
      throw new AppError('OFFER_EXPIRED', {
        params: { offer: offerId },
        details: { state: offer.state, expires_at: offer.expires_at.toISOString() },
      });
    }
    return { offer, dispatch };
  }

  /** Tells the riders whose offers closed without their answer, on their own topics. */
  private async tellClosed(
    db: Queryable,
    businessId: number,
    closed: ReadonlyArray<{ id: number; order_id: number; driver_user_id: number }>,
    reason: 'taken' | 'withdrawn',
  ) {
    const pushes: DriverPush[] = closed.map((offer) => ({
      businessId,
      driverUserId: offer.driver_user_id,
      body: { type: 'instant_offer_closed', offer_id: offer.id, order_id: offer.order_id, reason },
    }));
    await enqueueDriverPushes(db, this.clock, pushes);
  }

  private async orderViews(db: Queryable, businessId: number, orderIds: number[]) {
    const views = await this.orders.queries.views(db, businessId, orderIds);
    return new Map(views.map((view) => [view.id, view]));
  }
}

/**
 * Where a rider must go first, the point riders are ranked from: the pickup of a pickup (P) or
 * pickup-and-delivery (P2P) order; the drop-off of a delivery (D), which has no pickup to go to.
 * Null when that address has no coordinates: the order cannot be offered.
 */
function originOf(order: OrderView): { lat: number; lng: number } | null {
  const address = order.type === 'D' ? order.dropoff : order.pickup;
  return address?.lat === undefined || address.lng === undefined
    ? null
    : { lat: address.lat, lng: address.lng };
}

/** An offer as the rider reads it (polled or pushed): the order's legs, the distance, the deadline. */
function offerAnswer(offer: Offer, order: OrderView, now: Date) {
  const leg = (address: OrderView['pickup']) =>
    address && {
      line1: address.line1,
      city: address.city,
      postal_code: address.postal_code,
      lat: address.lat,
      lng: address.lng,
    };
  return {
    id: offer.id,
    state: offer.state,
    wave: offer.wave,
    distance_meters: offer.distance_meters,
    offered_at: offer.offered_at.toISOString(),
    expires_at: offer.expires_at.toISOString(),
    seconds_left: Math.max(0, Math.ceil((offer.expires_at.getTime() - now.getTime()) / 1000)),
    reason: offer.reason,
    order: {
      id: order.id,
      order_ref: order.order_ref,
      rerouted_from: order.rerouted_from,
      type: order.type,
      pickup: leg(order.pickup),
      dropoff: leg(order.dropoff),
      packages: order.packages.length,
      time_window: order.time_window,
    },
  };
}

/** The context of background work (an offer's deadline): no caller, acting in one business. */
function backgroundContext(db: Queryable, clock: Clock, businessId: number): OperationContext {
  return {
    db,
    caller: null,
    lang: 'en',
    clock,
    requestId: 'riders-offer-expiry',
    door: 'system',
    ip: undefined,
    outside: PERFORM_EVERYTHING,
    answer: {},
    provider: null,
    business: businessId,
    representation: undefined,
  };
}
