import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueDriverPushes } from '../../platform/mqtt/driver-push.ts';
import type { Address, OrdersService } from '../orders/index.ts';
import { signalBoard } from './board-repository.ts';
import * as lockerRepo from './locker-stops-repository.ts';
import type { PlanEdits } from './plan-edits.ts';
import { DEFAULT_DISPATCH_SETTINGS } from './planning.ts';
import * as repo from './repository.ts';
import type { LockerPlace } from './tables.ts';

/** The push a driver's phone hears on its own topic when a locker changed one of its routes. */
export const ROUTE_CHANGED_PUSH = 'route_changed';

/** What happened to the order's stop, as the push says it. */
type StopChange = 'locker_drop' | 'door' | 'taken_off' | 'stop_closed';

/** The locker site a reservation names: its coordinates may be unknown (a site saved without them). */
export interface LockerSite {
  site_id: number;
  booking_id: number;
  name: string;
  address: Omit<Address, 'name' | 'phone'>;
}

/**
 * What a parcel locker does to the routes (the lockers module calls it, in its own transaction,
 * through the port the composition root hands it; docs/lockers.md, "Routed orders"). A compartment
 * reserved for an order turns its pending delivery stop into a drop at the locker site, re-timed
 * there, or takes the order off its route, as the business set (`locker_reservation`); the
 * reservation cancelled sends the stop back to the door; the deposit closes the drop; the
 * recipient's collection closes every stop of the order still open. Each route's driver hears it.
 */
export class LockerStops {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly edits: PlanEdits,
  ) {}

  async reserved(ctx: OperationContext, orderId: number, site: LockerSite): Promise<void> {
    const businessId = businessOf(ctx);
    const stops = (await lockerRepo.openStopsOfOrder(ctx.db, businessId, orderId)).filter(
      (stop) => stop.leg === 'delivery' && stop.status === 'pending',
    );
    if (stops.length === 0) return;
    const rule = ((await repo.settingsOf(ctx.db, businessId)) ?? DEFAULT_DISPATCH_SETTINGS)
      .locker_reservation;
    if (rule === 'take_off_route') {
      const [order] = await this.orders.queries.views(ctx.db, businessId, [orderId]);
      // Loaded on a van under way (or picked up on it), the parcel cannot go back to the pool.
      if (order!.status !== 'PLANNED') {
        throw new AppError('LOCKER_ORDER_ON_BOARD', { params: { order: orderId, status: order!.status } });
      }
      // Back in the pool: the orders module takes its stops off every route (stopsFollowOrders).
      await this.orders.changes.advance(ctx, orderId, 'NEW_ORDER');
      await this.tell(ctx, stops, orderId, 'taken_off');
      return;
    }
    const { lat, lng } = site.address;
    if (lat === undefined || lng === undefined) {
      throw new AppError('LOCKER_SITE_NOT_PLACED', { params: { site: site.name, order: orderId } });
    }
    await this.place(ctx, stops, orderId, { ...site, address: { ...site.address, lat, lng } });
    await this.tell(ctx, stops, orderId, 'locker_drop');
  }

  /** The reservation was cancelled before the deposit: the order's locker drop goes back to its door. */
  async cancelled(ctx: OperationContext, orderId: number, bookingId: number): Promise<void> {
    const stops = (await lockerRepo.openStopsOfOrder(ctx.db, businessOf(ctx), orderId)).filter(
      (stop) => stop.status === 'pending' && stop.locker?.booking_id === bookingId,
    );
    if (stops.length === 0) return;
    await this.place(ctx, stops, orderId, null);
    await this.tell(ctx, stops, orderId, 'door');
  }

  /** The parcel is in the locker: the drop made for this booking is done. */
  async deposited(ctx: OperationContext, orderId: number, bookingId: number): Promise<void> {
    await this.close(ctx, orderId, { bookingId });
  }

  /** The recipient collected the parcel from the locker: no stop of the order is left to make. */
  async collected(ctx: OperationContext, orderId: number): Promise<void> {
    await this.close(ctx, orderId, {});
  }

  /** Each route's stop at its new place: re-timed for its driver, or kept as timed while none drives it. */
  private async place(
    ctx: OperationContext,
    stops: ReadonlyArray<{ route_id: number; driver_user_id: number | null }>,
    orderId: number,
    locker: LockerPlace | null,
  ) {
    for (const routeId of new Set(stops.map((stop) => stop.route_id))) {
      const driven = stops.some((stop) => stop.route_id === routeId && stop.driver_user_id !== null);
      if (driven) await this.edits.relocateDelivery(ctx, routeId, orderId, locker);
      else await lockerRepo.placeDelivery(ctx.db, businessOf(ctx), routeId, orderId, locker);
    }
  }

  private async close(ctx: OperationContext, orderId: number, only: { bookingId?: number }) {
    const businessId = businessOf(ctx);
    // Read first: a finished route's open stops close too, and its driver is told.
    const open = await lockerRepo.openStopsOfOrder(ctx.db, businessId, orderId, { finished: true });
    const routeIds = await lockerRepo.closeStops(ctx.db, businessId, orderId, this.clock.now(), only);
    await this.tell(
      ctx,
      open.filter((stop) => routeIds.includes(stop.route_id)),
      orderId,
      'stop_closed',
    );
  }

  /** The routes' live boards read them again, and each route's driver hears of it, once this commits. */
  private async tell(
    ctx: OperationContext,
    stops: ReadonlyArray<{ route_id: number; driver_user_id: number | null }>,
    orderId: number,
    change: StopChange,
  ) {
    const businessId = businessOf(ctx);
    const routes = new Map(stops.map((stop) => [stop.route_id, stop.driver_user_id]));
    if (routes.size === 0) return;
    await signalBoard(ctx.db, businessId, { routeIds: [...routes.keys()] });
    await enqueueDriverPushes(
      ctx.db,
      this.clock,
      [...routes].flatMap(([routeId, driverId]) =>
        driverId === null
          ? []
          : [
              {
                businessId,
                driverUserId: driverId,
                body: { type: ROUTE_CHANGED_PUSH, route_id: routeId, order_id: orderId, change },
              },
            ],
      ),
    );
  }
}
