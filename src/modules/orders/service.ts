import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { validationFailed } from '../../platform/catalog/executor.ts';
import {
  businessOf,
  type Caller,
  callerOf,
  type OperationContext,
} from '../../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { errorMessage, validationErrorMap } from '../../platform/i18n/index.ts';
import { toMajor, toMinor } from '../../platform/money.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';
import { type OrderInput, type OrderView, orderInputSchema } from './schemas.ts';
import { BEFORE_PICKUP, canMove, ORDER_STATUSES, type OrderStatus, TERMINAL_STATUSES } from './statuses.ts';
import type { Address } from './tables.ts';

const TRACKING_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const UNIQUE_VIOLATION = '23505';

export interface OrderListQuery {
  status?: OrderStatus[];
  scheduled_date?: string;
  order_ref?: string;
  tracking_number?: string;
  route_id?: number;
  driver_id?: number;
  business_id?: number;
  page: number;
  per_page: number;
}

/**
 * What bounds a caller's view and planning pool in a business: for a contractor, its company's
 * rules; for everyone, the orders handed exclusively to one contractor. Implemented by the
 * contractors module, which owns rules and assignments.
 */
export interface ContractorPools {
  boundsOf(db: Queryable, businessId: number, caller: Caller): Promise<PoolBounds>;
}

export interface PoolBounds {
  /** The areas of a contractor's rules; absent for the business's staff (the whole business). */
  areas?: repo.ServiceArea[];
  /** Orders assigned to the caller: in its reach whatever the areas. */
  assignedToCaller: number[];
  /** Orders assigned to another contractor: out of the caller's pool (and, for a contractor, view). */
  assignedElsewhere: number[];
}

/** The orders a caller may see and plan in one business. */
export interface OrderScope extends PoolBounds {
  businessId: number;
  /** A customer sees its own orders only. */
  customerUserId?: number;
}

/** The order facts an assignment needs, read under a row lock. */
export type AssignableOrder = Pick<
  repo.StoredOrder,
  'id' | 'order_ref' | 'status' | 'family' | 'carrier' | 'route_id' | 'scheduled_date'
>;

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
  >;
  packages: Array<{ id: number; tracking_number: string }>;
  /** null when the order was just created. */
  from: OrderStatus | null;
  to: OrderStatus;
  /**
   * The order was rerouted to a new address: this is the replacement order, and the original it
   * replaces (rerouted_from) was cancelled, and so taken off its route, without a change of its own.
   */
  rerouted?: boolean;
  details?: StatusDetails;
}

/** What the driver reports with a status: proof of delivery or pickup, the reason of a failure. */
export interface StatusDetails {
  pod?: { recipient?: string; signature_url?: string; photo_urls?: string[]; note?: string };
  incident_reason?: { code: string; message?: string };
}

export interface OrderStatusListener {
  orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void>;
}

/** Orders of every family, their packages and statuses, and the audit trail of every change. */
export class OrdersService {
  private readonly statusListeners: OrderStatusListener[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly pools: ContractorPools,
    private readonly events: DomainEvents,
  ) {}

  /** Lets another module hear every status change (tracking appends the matching OTEP event). */
  onStatusChange(listener: OrderStatusListener): void {
    this.statusListeners.push(listener);
  }

  /** The package behind each of these tracking numbers, whatever its business (public tracking, provider pushes). */
  async packagesByTrackingNumber(db: Queryable, trackingNumbers: string[]) {
    return repo.packagesByTrackingNumber(db, trackingNumbers);
  }

  /** The orders the caller may see in the business the call acts in (see Access.business). */
  async scopeOf(ctx: OperationContext): Promise<OrderScope> {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    if (caller.kind === 'customer') {
      return { businessId, customerUserId: caller.userId, assignedToCaller: [], assignedElsewhere: [] };
    }
    return { businessId, ...(await this.pools.boundsOf(ctx.db, businessId, caller)) };
  }

  // ----- creation -----

  /** Creates orders all together: one refusal and none is created. */
  async create(ctx: OperationContext, inputs: OrderInput[]): Promise<OrderView[]> {
    const businessId = businessOf(ctx);
    const ids: number[] = [];
    for (const input of inputs) ids.push(await this.insert(ctx, businessId, input));
    return this.views(ctx.db, wholeBusiness(businessId), ids);
  }

  /** Creates each order on its own: a bad order is reported and never sinks the others. */
  async bulkCreate(ctx: OperationContext, rawOrders: unknown[]) {
    const businessId = businessOf(ctx);
    const results: Array<
      | { index: number; success: true; order_id: number; order_ref: string; tracking_numbers: string[] }
      | {
          index: number;
          success: false;
          error_code: string;
          message: string;
          details?: Record<string, unknown>;
        }
    > = [];
    for (const [index, raw] of rawOrders.entries()) {
      await sql`SAVEPOINT bulk_order`.execute(ctx.db);
      try {
        const parsed = orderInputSchema.safeParse(raw, { error: validationErrorMap(ctx.lang) });
        if (!parsed.success) throw validationFailed(parsed.error);
        const id = await this.insert(ctx, businessId, parsed.data);
        const [view] = await this.views(ctx.db, wholeBusiness(businessId), [id]);
        results.push({
          index,
          success: true,
          order_id: id,
          order_ref: view!.order_ref,
          tracking_numbers: view!.packages.map((p) => p.tracking_number),
        });
        await sql`RELEASE SAVEPOINT bulk_order`.execute(ctx.db);
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT bulk_order`.execute(ctx.db);
        if (!isAppError(error)) throw error;
        const message = errorMessage(error.code, ctx.lang, error.options.params);
        results.push({
          index,
          success: false,
          error_code: error.code,
          message,
          details: error.options.details,
        });
      }
    }
    const created = results.filter((r) => r.success).length;
    return { result: created > 0, created, failed: results.length - created, results };
  }

  private async insert(ctx: OperationContext, businessId: number, given: OrderInput): Promise<number> {
    const input = ctx.caller?.kind === 'customer' ? { ...given, customer_id: ctx.caller.userId } : given;
    if (input.customer_id !== undefined) {
      await this.accounts.requireCustomerOf(ctx.db, input.customer_id, businessId);
    }
    const now = this.clock.now();
    const prices = pricesInMinor(input);
    const orderRef = input.order_ref ?? this.generatedRef();
    let id: number;
    try {
      // A savepoint keeps a duplicate reference from aborting the caller's whole transaction.
      await sql`SAVEPOINT insert_order`.execute(ctx.db);
      id = await repo.insertOrder(ctx.db, {
        business_id: businessId,
        order_ref: orderRef,
        family: input.family,
        type: input.family === 'local_delivery' ? (input.type ?? 'D') : null,
        status: 'NEW_ORDER',
        scheduled_date: input.scheduled_date ?? null,
        window_start: input.time_window?.start ?? null,
        window_end: input.time_window?.end ?? null,
        pickup: input.pickup ?? null,
        dropoff: input.dropoff ?? null,
        customer_user_id: input.customer_id ?? null,
        note: input.note ?? null,
        delivery_instruction: input.delivery_instruction ?? null,
        required_skills: [...new Set(input.required_skills ?? [])].sort(),
        carrier: input.carrier ?? null,
        rerouted_from: null,
        ...OFF_ROUTE_CHANGES,
        created_at: now,
        updated_at: now,
        ...prices,
      });
      await sql`RELEASE SAVEPOINT insert_order`.execute(ctx.db);
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT insert_order`.execute(ctx.db);
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new AppError('ORDER_REF_TAKEN', { params: { order_ref: orderRef } });
      }
      throw error;
    }
    const prefix = await this.trackingPrefix(ctx.db, businessId);
    for (const pkg of input.packages ?? [{}]) {
      await repo.insertPackage(ctx.db, {
        business_id: businessId,
        order_id: id,
        tracking_number: trackingNumber(prefix),
        weight_grams: pkg.weight_grams ?? null,
        length_mm: pkg.length_mm ?? null,
        width_mm: pkg.width_mm ?? null,
        height_mm: pkg.height_mm ?? null,
        description: pkg.description ?? null,
      });
    }
    await this.recordEvent(ctx, businessId, id, 'created', { status: { from: null, to: 'NEW_ORDER' } });
    await this.notify(ctx, businessId, id, null, 'NEW_ORDER');
    return id;
  }

  /** ORD-<UTC date>-<6 random characters>; a clash is as unlikely as it is reported (ORDER_REF_TAKEN). */
  private generatedRef(): string {
    const day = this.clock.now().toISOString().slice(0, 10).replaceAll('-', '');
    return `ORD-${day}-${randomCode(6)}`;
  }

  private async trackingPrefix(db: Queryable, businessId: number): Promise<string> {
    return (await repo.trackingPrefix(db, businessId)) ?? 'TMS';
  }

  // ----- reading -----

  async list(ctx: OperationContext, query: OrderListQuery) {
    const scope = await this.scopeOf(ctx);
    const businessId = scope.businessId;
    const filter: repo.OrderFilter = {
      ...visibleIn(scope),
      driverId: query.driver_id,
      statuses: query.status,
      scheduledDate: query.scheduled_date,
      orderRef: query.order_ref,
      trackingNumber: query.tracking_number,
      routeIds: query.route_id === undefined ? undefined : [query.route_id],
    };
    const total = await repo.countOrders(ctx.db, businessId, filter);
    const rows = await repo.listOrders(ctx.db, businessId, filter, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
    return {
      result: true as const,
      total,
      page: query.page,
      per_page: query.per_page,
      orders: await this.toViews(ctx.db, businessId, rows),
    };
  }

  async detail(ctx: OperationContext, orderId: number): Promise<OrderView> {
    const scope = await this.scopeOf(ctx);
    const [view] = await this.views(ctx.db, scope, [orderId]);
    if (!view) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    return view;
  }

  async find(
    ctx: OperationContext,
    by: { order_ref?: string; tracking_number?: string },
  ): Promise<OrderView> {
    const scope = await this.scopeOf(ctx);
    const businessId = scope.businessId;
    const rows = await repo.listOrders(
      ctx.db,
      businessId,
      { orderRef: by.order_ref, trackingNumber: by.tracking_number, ...visibleIn(scope) },
      { limit: 1, offset: 0 },
    );
    if (rows.length === 0) {
      throw new AppError('ORDER_NOT_FOUND', { params: { order: by.order_ref ?? by.tracking_number ?? '' } });
    }
    return (await this.toViews(ctx.db, businessId, rows))[0]!;
  }

  /** Largest planning pool one build-route call takes. */
  static readonly POOL_LIMIT = 2000;

  /**
   * The planning pool of a scope for a date: the local-delivery orders waiting to be planned
   * (NEW_ORDER) that no third-party carrier holds, less those assigned to another contractor;
   * for a contractor, those inside its areas and those assigned to it.
   */
  async planningPool(ctx: OperationContext, scope: OrderScope, date: string): Promise<OrderView[]> {
    const rows = await repo.listOrders(
      ctx.db,
      scope.businessId,
      {
        statuses: ['NEW_ORDER'],
        scheduledDate: date,
        family: 'local_delivery',
        selfDelivery: true,
        ...visibleIn(scope),
        excludeIds: scope.assignedElsewhere,
      },
      { limit: OrdersService.POOL_LIMIT, offset: 0 },
    );
    return this.toViews(ctx.db, scope.businessId, rows);
  }

  /** Locks the orders (in id order, so concurrent callers never deadlock) and returns what an assignment checks. */
  async lockForAssignment(db: Queryable, businessId: number, orderIds: number[]): Promise<AssignableOrder[]> {
    return repo.lockOrders(db, businessId, orderIds);
  }

  /** Order facts for listing beside other records (reference, status, date, route). */
  async summaries(db: Queryable, businessId: number, orderIds: number[]) {
    const rows = await repo.listOrders(
      db,
      businessId,
      { ids: orderIds },
      { limit: orderIds.length, offset: 0 },
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * What an order costs its payer, in minor units: shipping price, surcharges and tax. Null when
   * the order carries no price. Read in the caller's scope (a customer: its own orders only).
   */
  async amountDue(ctx: OperationContext, orderId: number) {
    const scope = await this.scopeOf(ctx);
    const [row] = await repo.listOrders(
      ctx.db,
      scope.businessId,
      { ids: [orderId], ...visibleIn(scope) },
      { limit: 1, offset: 0 },
    );
    if (!row) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    const parts = [
      row.shipping_price_minor,
      row.tax_minor,
      ...(row.surcharges ?? []).map((s) => s.amount_minor),
    ];
    const priced = row.currency !== null && parts.some((part) => part !== null);
    return {
      businessId: scope.businessId,
      orderId: row.id,
      family: row.family,
      customerUserId: row.customer_user_id,
      due: priced
        ? { currency: row.currency!, minor: parts.reduce<number>((sum, part) => sum + (part ?? 0), 0) }
        : null,
    };
  }

  /** Puts an order on a driver's route: it becomes PLANNED, with an event in its audit trail. */
  async planOnRoute(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    route: { id: number; driverId: number },
  ): Promise<void> {
    await this.move(ctx, businessId, orderId, 'PLANNED', {
      route_id: route.id,
      driver_user_id: route.driverId,
    });
  }

  // ----- changes -----

  /** Moves an order to another status if the lifecycle allows it. */
  async changeStatus(
    ctx: OperationContext,
    orderId: number,
    to: OrderStatus,
    details?: StatusDetails,
  ): Promise<OrderView> {
    await this.move(ctx, businessOf(ctx), orderId, to, {}, details);
    return this.detail(ctx, orderId);
  }

  private async move(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    to: OrderStatus,
    extra: Partial<{ route_id: number; driver_user_id: number }> = {},
    details?: StatusDetails,
  ): Promise<void> {
    const order = await this.locked(ctx.db, businessId, orderId);
    if (!canMove(order.status, to)) {
      throw illegalTransition(order.status, to);
    }
    // Leaving dispatch (held, cancelled, back to the pool) also takes the order off its route.
    const changes = { status: to, ...(OFF_ROUTE.includes(to) ? OFF_ROUTE_CHANGES : {}), ...extra };
    await repo.updateOrder(ctx.db, businessId, orderId, { ...changes, updated_at: this.clock.now() });
    await this.recordEvent(ctx, businessId, orderId, 'status_changed', diff(order, changes));
    await this.notify(ctx, businessId, orderId, order.status, to, { details });
  }

  private async notify(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    from: OrderStatus | null,
    to: OrderStatus,
    options: { rerouted?: boolean; details?: StatusDetails } = {},
  ): Promise<void> {
    const order = (await repo.findOrder(ctx.db, businessId, orderId))!;
    const packages = (await repo.packagesOf(ctx.db, businessId, [orderId])).map((p) => ({
      id: p.id,
      tracking_number: p.tracking_number,
    }));
    const change: OrderStatusChange = { businessId, order, packages, from, to, ...options };
    for (const listener of this.statusListeners) await listener.orderStatusChanged(ctx, change);
    await this.events.publish(ctx, {
      kind: from === null || options.rerouted ? 'order.created' : 'order.status_changed',
      businessId,
      customerId: order.customer_user_id,
      data: {
        order_id: order.id,
        order_ref: order.order_ref,
        family: order.family,
        ...(from === null || options.rerouted ? { status: to } : { from, to }),
        ...(options.rerouted ? { rerouted_from: order.rerouted_from } : {}),
        tracking_numbers: packages.map((p) => p.tracking_number),
      },
    });
  }

  async updateText(
    ctx: OperationContext,
    orderId: number,
    field: 'note' | 'delivery_instruction',
    value: string,
  ): Promise<OrderView> {
    const businessId = businessOf(ctx);
    const order = await this.locked(ctx.db, businessId, orderId);
    const changes = { [field]: value || null };
    await repo.updateOrder(ctx.db, businessId, orderId, { ...changes, updated_at: this.clock.now() });
    await this.recordEvent(ctx, businessId, orderId, `${field}_updated`, diff(order, changes));
    return this.detail(ctx, orderId);
  }

  /** Sets the delivery window of the orders named by reference; refs that cannot change are reported. */
  async updateTimeWindows(
    ctx: OperationContext,
    input: { order_refs: string[]; time_window: { start: string; end: string }; scheduled_date?: string },
  ) {
    const businessId = businessOf(ctx);
    const rows = await repo.listOrders(
      ctx.db,
      businessId,
      { orderRefs: input.order_refs },
      { limit: 1000, offset: 0 },
    );
    const byRef = new Map(rows.map((row) => [row.order_ref, row]));
    const errors: Array<{ order_ref: string; message: string }> = [];
    let updated = 0;
    for (const ref of new Set(input.order_refs)) {
      const order = byRef.get(ref);
      if (!order) {
        errors.push({ order_ref: ref, message: errorMessage('ORDER_NOT_FOUND', ctx.lang, { order: ref }) });
        continue;
      }
      if (TERMINAL_STATUSES.includes(order.status)) {
        const params = { from: order.status, to: order.status };
        errors.push({ order_ref: ref, message: errorMessage('ILLEGAL_STATUS_TRANSITION', ctx.lang, params) });
        continue;
      }
      const changes = {
        window_start: input.time_window.start,
        window_end: input.time_window.end,
        ...(input.scheduled_date ? { scheduled_date: input.scheduled_date } : {}),
      };
      await repo.updateOrder(ctx.db, businessId, order.id, { ...changes, updated_at: this.clock.now() });
      await this.recordEvent(ctx, businessId, order.id, 'time_window_updated', diff(order, changes));
      updated++;
    }
    return { result: updated > 0, updated, errors };
  }

  /**
   * Reroutes an order not yet picked up: the original is cancelled and a copy with the new
   * drop-off address takes its place. The packages, and so their tracking numbers, move to the
   * new order, so the recipient keeps following the same number.
   */
  async reroute(ctx: OperationContext, orderId: number, dropoff: Address) {
    const businessId = businessOf(ctx);
    const original = await this.locked(ctx.db, businessId, orderId);
    if (!BEFORE_PICKUP.includes(original.status)) {
      throw illegalTransition(original.status, 'CANCELLED');
    }
    const cancelled = { status: 'CANCELLED' as const, ...OFF_ROUTE_CHANGES };
    await repo.updateOrder(ctx.db, businessId, orderId, { ...cancelled, updated_at: this.clock.now() });
    await this.recordEvent(ctx, businessId, orderId, 'rerouted', diff(original, cancelled));

    const now = this.clock.now();
    const { id: _id, ...copy } = original;
    const replacementId = await repo.insertOrder(ctx.db, {
      ...copy,
      order_ref: await this.rerouteRef(ctx.db, businessId, original.order_ref),
      status: 'NEW_ORDER',
      dropoff,
      ...OFF_ROUTE_CHANGES,
      rerouted_from: orderId,
      created_at: now,
      updated_at: now,
    });
    await repo.movePackages(ctx.db, businessId, orderId, replacementId);
    await this.recordEvent(ctx, businessId, replacementId, 'created', {
      status: { from: null, to: 'NEW_ORDER' },
      rerouted_from: { from: null, to: orderId },
    });
    // The packages keep their numbers: their timelines go on, rescheduled to the new address.
    await this.notify(ctx, businessId, replacementId, original.status, 'NEW_ORDER', { rerouted: true });
    return {
      result: true as const,
      cancelled_order_id: orderId,
      order: await this.detail(ctx, replacementId),
    };
  }

  private async rerouteRef(db: Queryable, businessId: number, ref: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = `${ref.slice(0, 58)}-R${n}`;
      if ((await repo.countOrders(db, businessId, { orderRef: candidate })) === 0) return candidate;
    }
  }

  // ----- overviews -----

  async snapshot(ctx: OperationContext, date: string) {
    const businessId = businessOf(ctx);
    const counts = await repo.countByStatus(ctx.db, businessId, date);
    const byStatus = Object.fromEntries(
      ORDER_STATUSES.map((status) => [status, counts.find((row) => row.status === status)?.count ?? 0]),
    ) as Record<OrderStatus, number>;
    return {
      result: true as const,
      date,
      total: counts.reduce((sum, row) => sum + row.count, 0),
      by_status: byStatus,
    };
  }

  async exceptions(ctx: OperationContext, input: { limit: number }, timeZone: string) {
    const businessId = businessOf(ctx);
    const local = formatLocalDateTime(this.clock.now(), timeZone);
    const [today = '', time = ''] = local.split(' ');
    const open: OrderStatus[] = ['NEW_ORDER', 'PLANNED', 'PICKED_UP', 'AT_WAREHOUSE', 'OUT_FOR_DELIVERY'];
    const rows = await repo.exceptionalOrders(ctx.db, businessId, today, time, open, input.limit);
    const views = await this.toViews(ctx.db, businessId, rows);
    return {
      result: true as const,
      exceptions: views.map((order) => ({
        reason: exceptionReason(order.status),
        order,
      })),
    };
  }

  async operationEvents(ctx: OperationContext, input: { order_ids?: number[]; order_refs?: string[] }) {
    const businessId = businessOf(ctx);
    const rows = await repo.listOrders(
      ctx.db,
      businessId,
      { ids: input.order_ids, orderRefs: input.order_refs },
      { limit: 200, offset: 0 },
    );
    const events = await repo.eventsOf(
      ctx.db,
      businessId,
      rows.map((row) => row.id),
    );
    const actorNames = await this.accounts.namesOf(
      ctx.db,
      events.flatMap((event) => (event.actor_user_id === null ? [] : [event.actor_user_id])),
    );
    return {
      result: true as const,
      events: events.map((event) => ({
        order_id: event.order_id,
        order_ref: event.order_ref,
        at: event.at.toISOString(),
        actor:
          event.actor_user_id === null
            ? null
            : { id: event.actor_user_id, name: actorNames.get(event.actor_user_id) ?? '' },
        source: event.source,
        action: event.action,
        changes: event.changes,
      })),
    };
  }

  // ----- helpers -----

  private async locked(db: Queryable, businessId: number, orderId: number) {
    const order = await repo.findOrder(db, businessId, orderId, { lock: true });
    if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    return order;
  }

  /** Records a change in the order's audit trail: this module's own, or another's (an assignment, ...). */
  async recordEvent(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    action: string,
    changes: Record<string, { from: unknown; to: unknown }>,
  ): Promise<void> {
    await repo.insertEvent(ctx.db, {
      business_id: businessId,
      order_id: orderId,
      at: this.clock.now(),
      actor_user_id: ctx.caller?.userId ?? null,
      source: ctx.door,
      action,
      changes,
    });
  }

  private async views(db: Queryable, scope: OrderScope, ids: number[]): Promise<OrderView[]> {
    const rows = await repo.listOrders(
      db,
      scope.businessId,
      { ids, ...visibleIn(scope) },
      { limit: ids.length, offset: 0 },
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    return this.toViews(db, scope.businessId, ordered);
  }

  private async toViews(db: Queryable, businessId: number, rows: repo.StoredOrder[]): Promise<OrderView[]> {
    const packages = await repo.packagesOf(
      db,
      businessId,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      toView(
        row,
        packages.filter((p) => p.order_id === row.id),
      ),
    );
  }
}

/** The staff's view: every order of the business. */
function wholeBusiness(businessId: number): OrderScope {
  return { businessId, assignedToCaller: [], assignedElsewhere: [] };
}

/** The filter that bounds what a scope sees: a contractor reaches its areas and its assignments, never others' assignments. */
function visibleIn(scope: OrderScope): Pick<repo.OrderFilter, 'reach' | 'excludeIds' | 'customerUserId'> {
  if (scope.customerUserId !== undefined) return { customerUserId: scope.customerUserId };
  if (!scope.areas) return {};
  return {
    reach: { areas: scope.areas, orderIds: scope.assignedToCaller },
    excludeIds: scope.assignedElsewhere,
  };
}

/** Statuses that take an order out of dispatch, and so off its route. */
const OFF_ROUTE: readonly OrderStatus[] = ['HOLD', 'CANCELLED', 'NEW_ORDER', 'RETURNED'];
const OFF_ROUTE_CHANGES = { route_id: null, driver_user_id: null };

function illegalTransition(from: OrderStatus, to: OrderStatus): AppError {
  return new AppError('ILLEGAL_STATUS_TRANSITION', { params: { from, to }, details: { from, to } });
}

function exceptionReason(status: OrderStatus): 'failed' | 'held' | 'late' {
  if (status === 'FAILED_ATTEMPT') return 'failed';
  return status === 'HOLD' ? 'held' : 'late';
}

function pricesInMinor(input: OrderInput) {
  const currency = input.currency;
  if (!currency) {
    return {
      currency: null,
      shipping_price_minor: null,
      tax_minor: null,
      surcharges: null,
      price_details: null,
    };
  }
  const minor = (amount: number | string) => {
    const value = toMinor(amount, currency);
    if (value === null) throw new AppError('AMOUNT_TOO_PRECISE', { params: { amount, currency } });
    return value;
  };
  return {
    currency,
    shipping_price_minor: input.shipping_price === undefined ? null : minor(input.shipping_price),
    tax_minor: input.tax === undefined ? null : minor(input.tax),
    surcharges: input.surcharges?.map((s) => ({ code: s.code, amount_minor: minor(s.amount) })) ?? null,
    price_details:
      input.price_details?.map((d) => ({ label: d.label, amount_minor: minor(d.amount) })) ?? null,
  };
}

function toView(row: repo.StoredOrder, packages: repo.StoredPackage[]): OrderView {
  const currency = row.currency ?? undefined;
  const major = (minor: number | null) =>
    minor === null || !currency ? undefined : toMajor(minor, currency);
  return {
    id: row.id,
    order_ref: row.order_ref,
    family: row.family,
    type: row.type,
    status: row.status,
    scheduled_date: row.scheduled_date,
    time_window:
      row.window_start && row.window_end
        ? { start: row.window_start.slice(0, 5), end: row.window_end.slice(0, 5) }
        : null,
    pickup: row.pickup,
    dropoff: row.dropoff,
    customer_id: row.customer_user_id,
    note: row.note,
    delivery_instruction: row.delivery_instruction,
    required_skills: row.required_skills,
    self_delivery: row.carrier === null,
    carrier: row.carrier,
    route_id: row.route_id,
    driver_id: row.driver_user_id,
    currency,
    shipping_price: major(row.shipping_price_minor),
    tax: major(row.tax_minor),
    surcharges:
      currency && row.surcharges
        ? row.surcharges.map((s) => ({ code: s.code, amount: toMajor(s.amount_minor, currency) }))
        : undefined,
    price_details:
      currency && row.price_details
        ? row.price_details.map((d) => ({ label: d.label, amount: toMajor(d.amount_minor, currency) }))
        : undefined,
    packages: packages.map(({ order_id: _o, business_id: _b, ...pkg }) => pkg),
    rerouted_from: row.rerouted_from,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The fields that change, with their values before and after, for the audit trail. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    const from = before[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

function randomCode(length: number): string {
  return Array.from({ length }, () => TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)]).join('');
}

/** Prefix plus 10 characters of Crockford base32: 50 bits, so collisions are negligible. */
function trackingNumber(prefix: string): string {
  return prefix + randomCode(10);
}
