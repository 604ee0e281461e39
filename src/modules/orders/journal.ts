import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DomainEvent, DomainEvents } from '../../platform/events.ts';
import * as repo from './repository.ts';
import type { OrderStatus } from './statuses.ts';

/** A change of an order's status, as other modules (tracking) hear of it, inside the same transaction. */
export interface OrderStatusChange {
  businessId: number;
  /** The order after the change: off any route (route_id null) once held, cancelled or sent back. */
  order: Pick<
    repo.StoredOrder,
    | 'id'
    | 'family'
    | 'type'
    | 'carrier'
    | 'pickup'
    | 'dropoff'
    | 'customer_user_id'
    | 'route_id'
    | 'rerouted_from'
    // Who handed the order over (a delivery provider), so its listener needs no lookup.
    | 'origin'
    // A new instant order is offered to riders at once (order.created tells it).
    | 'instant'
    // What the analytics rollup counts: the day the order came in, its window, its price.
    | 'order_ref'
    | 'created_at'
    | 'scheduled_date'
    | 'window_start'
    | 'window_end'
    | 'currency'
    | 'shipping_price_minor'
    | 'surcharges'
  >;
  /** When the change happened (the clock's now, as in the audit trail). */
  at: Date;
  packages: Array<{ id: number; tracking_number: string }>;
  /** null when the order was just created. */
  from: OrderStatus | null;
  to: OrderStatus;
  /**
   * The order was rerouted to a new address: this is the replacement order, and the original it
   * replaces (rerouted_from) was cancelled, and so taken off its route, without a change of its own.
   */
  rerouted?: boolean;
  /** With rerouted: when the original was created, so a rollup by creation day moves it to CANCELLED. */
  original?: { created_at: Date };
  details?: StatusDetails;
}

/**
 * Who took the parcel, and the signature and photos: as https links given by the caller, or as
 * proof files uploaded for the order (the proofs module checks they are the order's own).
 */
export interface ProofOfDelivery {
  recipient?: string;
  signature_url?: string;
  photo_urls?: string[];
  signature_proof_id?: number;
  photo_proof_ids?: number[];
  note?: string;
}

/** What the driver reports with a status: proof of delivery or pickup, the reason of a failure. */
export interface StatusDetails {
  pod?: ProofOfDelivery;
  incident_reason?: { code: string; message?: string };
  /** With RETURNED: one of the business's return reasons. */
  return_reason?: { code: string; note?: string };
  /** Where it happened, when not at the order's address (a warehouse scan names the warehouse). */
  location?: {
    name?: string;
    address?: string;
    city?: string;
    postal_code?: string;
    country?: string;
    lat?: number;
    lng?: number;
  };
  /** The packages the change is about when it is not all of the order's (a scan names the one scanned). */
  package_ids?: number[];
  /** When it happened on the device that reported it, when not now (a driver's write sent late). */
  occurred_at?: Date;
}

/** A change to record in an order's audit trail. */
export interface JournalEvent {
  orderId: number;
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

export interface OrderStatusListener {
  orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void>;
  /** Many orders' changes at once (a saved plan); a listener without it hears them one by one. */
  ordersStatusChanged?(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void>;
}

/**
 * An order's history: the audit trail of its changes, and the word of each status change to the
 * modules listening (tracking) and to the domain events (webhooks), inside the same transaction.
 */
export class OrderJournal {
  private readonly statusListeners: OrderStatusListener[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  /** Lets another module hear every status change (tracking appends the matching OTEP event). */
  onStatusChange(listener: OrderStatusListener): void {
    this.statusListeners.push(listener);
  }

  /** Records a change in the order's audit trail: this module's own, or another's (an assignment, ...). */
  async recordEvent(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    action: string,
    changes: Record<string, { from: unknown; to: unknown }>,
    at: Date = this.clock.now(),
  ): Promise<void> {
    await repo.insertEvent(ctx.db, {
      business_id: businessId,
      order_id: orderId,
      at,
      actor_user_id: ctx.caller?.userId ?? null,
      source: ctx.door,
      action,
      changes,
    });
  }

  /** Records one event for each of many orders, in one statement. */
  async recordEvents(ctx: OperationContext, businessId: number, at: Date, events: readonly JournalEvent[]) {
    await repo.insertEvents(ctx.db, this.rows(ctx, businessId, at, events));
  }

  /** The audit trail's rows of these events (who, when, through which door), for a statement that writes them. */
  rows(ctx: OperationContext, businessId: number, at: Date, events: readonly JournalEvent[]) {
    return events.map((event) => ({
      business_id: businessId,
      order_id: event.orderId,
      at,
      actor_user_id: ctx.caller?.userId ?? null,
      source: ctx.door,
      action: event.action,
      changes: event.changes,
    }));
  }

  /**
   * `notify` for many orders that changed status together (a plan saved): the orders and their
   * packages are read in two statements, the domain events published as one batch.
   */
  async notifyMany(
    ctx: OperationContext,
    businessId: number,
    at: Date,
    changes: ReadonlyArray<{ orderId: number; from: OrderStatus; to: OrderStatus }>,
  ): Promise<void> {
    if (changes.length === 0) return;
    const ids = changes.map((change) => change.orderId);
    const orders = new Map(
      (await repo.findOrders(ctx.db, businessId, ids)).map((order) => [order.id, order]),
    );
    const packagesByOrder = new Map<number, Array<{ id: number; tracking_number: string }>>();
    for (const p of await repo.packagesOf(ctx.db, businessId, ids)) {
      const list = packagesByOrder.get(p.order_id) ?? [];
      list.push({ id: p.id, tracking_number: p.tracking_number });
      packagesByOrder.set(p.order_id, list);
    }
    await this.notifyChanges(
      ctx,
      changes.map(({ orderId, from, to }) => ({
        businessId,
        order: orders.get(orderId)!,
        packages: packagesByOrder.get(orderId) ?? [],
        from,
        to,
        at,
      })),
    );
  }

  /**
   * Tells the listeners and the domain events of status changes made together (an order's steps
   * in one scan, a batch received, a plan saved): a listener that can hears them all at once, and
   * the domain events go out as one batch.
   */
  async notifyChanges(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void> {
    if (changes.length === 0) return;
    for (const listener of this.statusListeners) {
      if (listener.ordersStatusChanged) await listener.ordersStatusChanged(ctx, changes);
      else for (const change of changes) await listener.orderStatusChanged(ctx, change);
    }
    await this.events.publish(ctx, ...changes.map((change) => statusEvent(change)));
  }

  /**
   * Tells the listeners and the domain events that an order changed status (or was created: from
   * null). The order as it is after the change, when the caller holds it (else its id), and its
   * packages, when read already.
   */
  async notify(
    ctx: OperationContext,
    businessId: number,
    order: repo.StoredOrder | number,
    from: OrderStatus | null,
    to: OrderStatus,
    options: {
      rerouted?: boolean;
      original?: { created_at: Date };
      details?: StatusDetails;
      at?: Date;
      packages?: ReadonlyArray<{ id: number; tracking_number: string }>;
    } = {},
  ): Promise<void> {
    const after = typeof order === 'number' ? (await repo.findOrder(ctx.db, businessId, order))! : order;
    // The audit trail's time of the change when the caller gives it, so both tell the same day.
    const { at = this.clock.now(), packages: given, ...rest } = options;
    const packages = (given ?? (await repo.packagesOf(ctx.db, businessId, [after.id]))).map((p) => ({
      id: p.id,
      tracking_number: p.tracking_number,
    }));
    const change: OrderStatusChange = { businessId, order: after, packages, from, to, at, ...rest };
    for (const listener of this.statusListeners) await listener.orderStatusChanged(ctx, change);
    await this.events.publish(ctx, statusEvent(change));
  }
}

/** The domain event of a status change: order.created for a new (or rerouted) order, else order.status_changed. */
function statusEvent({ businessId, order, packages, from, to, rerouted }: OrderStatusChange): DomainEvent {
  const created = from === null || rerouted === true;
  return {
    kind: created ? 'order.created' : 'order.status_changed',
    businessId,
    customerId: order.customer_user_id,
    data: {
      order_id: order.id,
      order_ref: order.order_ref,
      family: order.family,
      ...(created ? { status: to } : { from, to }),
      ...(rerouted ? { rerouted_from: order.rerouted_from } : {}),
      // A new instant order, or a rerouted one's replacement: the riders module offers it at once,
      // in this transaction.
      ...(created && order.instant ? { instant: true } : {}),
      tracking_numbers: packages.map((p) => p.tracking_number),
    },
  };
}

/** The fields that change, with their values before and after, for the audit trail. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    const from = before[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}
