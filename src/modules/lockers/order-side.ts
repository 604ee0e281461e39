import { type OperationContext, PERFORM_EVERYTHING } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { Address, OrderStatus, OrdersService, OrderView } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import type * as repo from './repository.ts';

/** How an order moves on to DELIVERED from where it stands (none: it is over, or cannot). */
const TO_DELIVERED: Partial<Record<OrderStatus, OrderStatus[]>> = {
  NEW_ORDER: ['PICKED_UP', 'DELIVERED'],
  PLANNED: ['OUT_FOR_DELIVERY', 'DELIVERED'],
  PICKED_UP: ['DELIVERED'],
  AT_WAREHOUSE: ['OUT_FOR_DELIVERY', 'DELIVERED'],
  OUT_FOR_DELIVERY: ['DELIVERED'],
  FAILED_ATTEMPT: ['OUT_FOR_DELIVERY', 'DELIVERED'],
};

/** The locker site a delivery booking sends its order to, as the routes are told it. */
export interface LockerSiteDrop {
  site_id: number;
  booking_id: number;
  name: string;
  address: Omit<Address, 'name' | 'phone'>;
}

/**
 * What a delivery booking does to its order's stops on routes (docs/lockers.md, "Routed orders"):
 * dispatch's, handed over by the composition root, so this module names no route. Each runs in
 * the booking's transaction, and may refuse the reservation.
 */
export interface LockerRoutes {
  /** A compartment is reserved: the order's pending delivery stop goes to the site, or off its route. */
  reserved(ctx: OperationContext, orderId: number, site: LockerSiteDrop): Promise<void>;
  /** The reservation is cancelled before the deposit: the stop goes back to the door. */
  cancelled(ctx: OperationContext, orderId: number, bookingId: number): Promise<void>;
  /** The parcel is in the locker: the drop is done. */
  deposited(ctx: OperationContext, orderId: number, bookingId: number): Promise<void>;
  /** The recipient collected it: every stop of the order still open is closed. */
  collected(ctx: OperationContext, orderId: number): Promise<void>;
}

/**
 * What a locker does to the order of a booking: a parcel deposited for its recipient is in the
 * locker (an OTEP arrival at the site), collected it is delivered there; a parcel sent from the
 * locker waits for its courier, and collected it is picked up; one not collected in time failed.
 * A delivery booking also moves the order's stops on routes (`LockerRoutes`).
 */
export class LockerOrderSide {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly tracking: TrackingService,
    private readonly routes: LockerRoutes,
  ) {}

  /** A compartment is held for the order's delivery: its route takes it to the site (or lets it go). */
  async reserved(ctx: OperationContext, booking: repo.BookingRow, site: repo.SiteRow) {
    if (booking.purpose !== 'delivery' || booking.order_id === null) return;
    const { name: _name, ...place } = this.locationOf(site);
    const { address: line1, ...rest } = place;
    await this.routes.reserved(ctx, booking.order_id, {
      site_id: site.id,
      booking_id: booking.id,
      name: site.name,
      address: { line1, ...rest },
    });
  }

  /** The reservation is cancelled: a locker drop it made on a route goes back to the door. */
  async cancelled(ctx: OperationContext, booking: repo.BookingRow) {
    if (booking.purpose !== 'delivery' || booking.order_id === null) return;
    await this.routes.cancelled(ctx, booking.order_id, booking.id);
  }

  /** The order a booking is for, as the caller may see it. */
  order(ctx: OperationContext, orderId: number): Promise<OrderView> {
    return this.orders.queries.detail(ctx, orderId);
  }

  async deposited(db: Queryable, booking: repo.BookingRow, site: repo.SiteRow) {
    if (booking.purpose === 'delivery') {
      await this.track(db, booking, site, {
        status_code: 'arrival_scan',
        description: 'In the parcel locker, ready for collection',
      });
      if (booking.order_id !== null) {
        await this.routes.deposited(
          this.systemContext(db, booking.business_id),
          booking.order_id,
          booking.id,
        );
      }
    } else if (booking.purpose === 'send') {
      await this.track(db, booking, site, {
        status_code: 'awaiting_pickup',
        description: 'Dropped in the parcel locker for collection',
      });
    }
  }

  async collected(db: Queryable, booking: repo.BookingRow, site: repo.SiteRow) {
    const order = await this.orderOf(db, booking);
    if (!order) return;
    const ctx = this.systemContext(db, booking.business_id);
    const details = { location: this.locationOf(site) };
    if (booking.purpose === 'send') {
      if (order.status === 'NEW_ORDER' || order.status === 'PLANNED') {
        await this.orders.changes.advance(ctx, order.id, 'PICKED_UP', details);
      }
      return;
    }
    const steps = TO_DELIVERED[order.status];
    if (steps) {
      await this.orders.changes.advance(ctx, order.id, steps, {
        ...details,
        pod: { note: `Collected from the parcel locker at ${site.name}` },
      });
      // Delivered: no driver is to go to the door (or the locker) for it any more.
      await this.routes.collected(ctx, order.id);
    }
  }

  async track(
    db: Queryable,
    booking: repo.BookingRow,
    site: repo.SiteRow,
    event: { status_code: string; description?: string; incident_reason?: { code: string; message: string } },
  ) {
    const order = await this.orderOf(db, booking);
    if (!order) return;
    await this.tracking.appendEvents(
      this.systemContext(db, booking.business_id),
      booking.business_id,
      order.packages.map((pkg) => ({
        pkg: { id: pkg.id, trackingNumber: pkg.tracking_number },
        event: { ...event, source: { type: 'self_delivery' as const }, location: this.locationOf(site) },
      })),
    );
  }

  private async orderOf(db: Queryable, booking: repo.BookingRow): Promise<OrderView | undefined> {
    if (booking.order_id === null) return undefined;
    const [order] = await this.orders.queries.views(db, booking.business_id, [booking.order_id]);
    return order;
  }

  private locationOf(site: repo.SiteRow) {
    const address = site.address as {
      line1: string;
      city?: string;
      postal_code?: string;
      country?: string;
      lat?: number;
      lng?: number;
    };
    return {
      name: site.name,
      address: address.line1,
      ...(address.city ? { city: address.city } : {}),
      ...(address.postal_code ? { postal_code: address.postal_code } : {}),
      ...(address.country ? { country: address.country } : {}),
      ...(address.lat !== undefined && address.lng !== undefined
        ? { lat: address.lat, lng: address.lng }
        : {}),
    };
  }

  /** The context of a device's answer or a deadline: no caller, acting in the booking's business. */
  private systemContext(db: Queryable, businessId: number): OperationContext {
    return {
      db,
      caller: null,
      lang: 'en',
      clock: this.clock,
      requestId: 'lockers',
      door: 'system',
      ip: undefined,
      outside: PERFORM_EVERYTHING,
      answer: {},
      provider: null,
      business: businessId,
      representation: undefined,
    };
  }
}
