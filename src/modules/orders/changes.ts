import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import {
  diff,
  type JournalEvent,
  type OrderJournal,
  type OrderStatusChange,
  type StatusDetails,
} from './journal.ts';
import type { OrderQueries } from './queries.ts';
import * as repo from './repository.ts';
import type { OrderReturns } from './returns.ts';
import type { OrderView } from './schemas.ts';
import {
  BEFORE_PICKUP,
  canMove,
  OFF_ROUTE,
  OFF_ROUTE_CHANGES,
  type OrderStatus,
  TERMINAL_STATUSES,
} from './statuses.ts';
import type { Address } from './tables.ts';

/** Changing orders: status along the lifecycle, route planning, texts, windows, rerouting. */
export class OrderChanges {
  constructor(
    private readonly clock: Clock,
    private readonly journal: OrderJournal,
    private readonly queries: OrderQueries,
    private readonly returns: OrderReturns,
  ) {}

  /** Puts an order on a driver's route: it becomes PLANNED, with an event in its audit trail. */
  async planOnRoute(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    route: { id: number; driverId: number },
  ): Promise<void> {
    await this.move(ctx, businessId, [
      { orderId, steps: ['PLANNED'], extra: { route_id: route.id, driver_user_id: route.driverId } },
    ]);
  }

  /**
   * Puts many orders on routes at once, set-based (a saved plan): each becomes PLANNED with an
   * event in its audit trail, as `planOnRoute` would do one by one, in a handful of statements.
   */
  async planOnRoutes(
    ctx: OperationContext,
    businessId: number,
    plans: ReadonlyArray<{ orderId: number; routeId: number; driverId: number }>,
  ): Promise<void> {
    if (plans.length === 0) return;
    const before = new Map(
      (
        await repo.findOrders(
          ctx.db,
          businessId,
          plans.map((plan) => plan.orderId),
          { lock: true },
        )
      ).map((order) => [order.id, order]),
    );
    for (const plan of plans) {
      const order = before.get(plan.orderId);
      if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: plan.orderId } });
      if (!canMove(order.status, 'PLANNED')) throw illegalTransition(order.status, 'PLANNED');
    }
    // One time for the change, its audit events and its listeners (the rollup's day).
    const at = this.clock.now();
    await repo.planOrders(ctx.db, businessId, plans, at);
    await this.journal.recordEvents(
      ctx,
      businessId,
      at,
      plans.map((plan) => ({
        orderId: plan.orderId,
        action: 'status_changed',
        changes: diff(before.get(plan.orderId)!, {
          status: 'PLANNED',
          route_id: plan.routeId,
          driver_user_id: plan.driverId,
        }),
      })),
    );
    await this.journal.notifyMany(
      ctx,
      businessId,
      at,
      plans.map((plan) => ({ orderId: plan.orderId, from: before.get(plan.orderId)!.status, to: 'PLANNED' })),
    );
  }

  /**
   * Sends planned orders back to the planning pool at once, set-based (a route dissolved by a
   * rebuild): each becomes NEW_ORDER on no route, with an event in its audit trail.
   */
  async returnToPool(ctx: OperationContext, businessId: number, orderIds: readonly number[]): Promise<void> {
    if (orderIds.length === 0) return;
    const before = new Map(
      (await repo.findOrders(ctx.db, businessId, [...orderIds], { lock: true })).map((order) => [
        order.id,
        order,
      ]),
    );
    for (const orderId of orderIds) {
      const order = before.get(orderId);
      if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
      if (!canMove(order.status, 'NEW_ORDER')) throw illegalTransition(order.status, 'NEW_ORDER');
    }
    const at = this.clock.now();
    await repo.returnOrdersToPool(ctx.db, businessId, orderIds, at);
    await this.journal.recordEvents(
      ctx,
      businessId,
      at,
      orderIds.map((orderId) => ({
        orderId,
        action: 'status_changed',
        changes: diff(before.get(orderId)!, { status: 'NEW_ORDER', ...OFF_ROUTE_CHANGES }),
      })),
    );
    await this.journal.notifyMany(
      ctx,
      businessId,
      at,
      orderIds.map((orderId) => ({ orderId, from: before.get(orderId)!.status, to: 'NEW_ORDER' })),
    );
  }

  /**
   * Status changes that happened at given moments, many orders at once (a history loaded in one
   * go): the same checks, audit events and word to the listeners as `advanceMany`, each change
   * stamped with its own time, and every order's row written by one statement. An order's
   * changes apply in the order given.
   */
  async advanceAt(
    ctx: OperationContext,
    moves: ReadonlyArray<{ orderId: number; to: OrderStatus; at: Date; details?: StatusDetails }>,
  ): Promise<void> {
    if (moves.length === 0) return;
    const businessId = businessOf(ctx);
    const locked = await repo.lockOrdersWithPackages(
      ctx.db,
      businessId,
      moves.map((move) => move.orderId),
    );
    const current = new Map(locked.map(({ packages: _, ...order }) => [order.id, order as repo.StoredOrder]));
    const packagesOf = new Map(locked.map((row) => [row.id, row.packages]));
    const events: JournalEvent[] = [];
    const eventTimes: Date[] = [];
    const told: OrderStatusChange[] = [];
    for (const { orderId, to, at, details } of moves) {
      const before = current.get(orderId);
      if (!before) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
      const { changes, after } = step(before, to, at);
      if (to === 'RETURNED') await this.checkReturn(ctx, businessId, details);
      events.push({
        orderId,
        action: 'status_changed',
        changes: { ...diff(before, changes), ...auditedReasons(details) },
      });
      eventTimes.push(at);
      told.push({
        businessId,
        order: after,
        packages: packagesOf.get(orderId) ?? [],
        from: before.status,
        to,
        at,
        ...(details ? { details } : {}),
      });
      current.set(orderId, after);
    }
    await repo.saveOrderStates(ctx.db, businessId, [...current.values()]);
    await repo.insertEvents(
      ctx.db,
      events.flatMap((event, n) => this.journal.rows(ctx, businessId, eventTimes[n]!, [event])),
    );
    await this.journal.notifyChanges(ctx, told);
  }

  /** Moves an order to another status if the lifecycle allows it. */
  async changeStatus(
    ctx: OperationContext,
    orderId: number,
    to: OrderStatus,
    details?: StatusDetails,
  ): Promise<OrderView> {
    await this.advance(ctx, orderId, to, details);
    return this.queries.detail(ctx, orderId);
  }

  /**
   * changeStatus without reading the order back: for another module's use case that answers
   * with its own view (a warehouse scan, which must answer fast). Several statuses in a row (a
   * parcel received at a warehouse is picked up, then at the warehouse) are one change of the
   * order's row, with an audit event for each step, told to the listeners together.
   */
  async advance(
    ctx: OperationContext,
    orderId: number,
    to: OrderStatus | readonly OrderStatus[],
    details?: StatusDetails,
  ): Promise<void> {
    await this.advanceMany(ctx, [{ orderId, to: typeof to === 'string' ? [to] : to, details }]);
  }

  /**
   * `advance` of many orders at once (a warehouse receiving a batch of parcels): the orders read
   * under lock in one statement, changed with their audit events in one statement for each
   * distinct change, and the listeners told of every step together, so the statements a change
   * costs do not grow with the orders it moves.
   */
  async advanceMany(
    ctx: OperationContext,
    moves: ReadonlyArray<{ orderId: number; to: readonly OrderStatus[]; details?: StatusDetails }>,
  ): Promise<void> {
    const businessId = businessOf(ctx);
    await this.move(
      ctx,
      businessId,
      moves.map(({ orderId, to, details }) => ({ orderId, steps: to, details })),
    );
  }

  /** A return needs a reason the business accepts, and the photos it asks for. */
  private async checkReturn(ctx: OperationContext, businessId: number, details?: StatusDetails) {
    await this.returns.check(ctx.db, businessId, {
      reason: details?.return_reason,
      photoUrls: details?.pod?.photo_urls,
      photoProofIds: details?.pod?.photo_proof_ids,
    });
  }

  private async move(
    ctx: OperationContext,
    businessId: number,
    moves: ReadonlyArray<{
      orderId: number;
      steps: readonly OrderStatus[];
      extra?: Partial<{ route_id: number; driver_user_id: number }>;
      details?: StatusDetails;
    }>,
  ): Promise<void> {
    if (moves.length === 0) return;
    const locked = new Map(
      (
        await repo.lockOrdersWithPackages(
          ctx.db,
          businessId,
          moves.map((move) => move.orderId),
        )
      ).map(({ packages, ...order }) => [order.id, { order: order as repo.StoredOrder, packages }]),
    );
    const at = this.clock.now();
    // Orders whose rows change alike are written by one statement, with their audit events.
    type Write = { orderIds: number[]; changes: Partial<repo.StoredOrder>; events: JournalEvent[] };
    const writes = new Map<string, Write>();
    const told: OrderStatusChange[] = [];
    for (const { orderId, steps, extra = {}, details } of moves) {
      const held = locked.get(orderId);
      if (!held) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
      const changed: Array<{ before: repo.StoredOrder; changes: Record<string, unknown> }> = [];
      let current = held.order;
      for (const to of steps) {
        const { changes, after } = step(current, to, at, extra);
        changed.push({ before: current, changes });
        told.push({
          businessId,
          order: after,
          packages: held.packages,
          from: current.status,
          to,
          at,
          ...(details ? { details } : {}),
        });
        current = after;
      }
      if (changed.length === 0) continue;
      // A return's reason is asked for once the move itself is known to be allowed: a move that
      // can never happen is refused as such, not for a missing reason.
      if (steps.at(-1) === 'RETURNED') await this.checkReturn(ctx, businessId, details);
      // The same order twice in one call goes on from where its first move left it.
      locked.set(orderId, { ...held, order: current });
      // The reasons go with the last step, which they explain.
      const reasons = auditedReasons(details);
      const changes: Partial<repo.StoredOrder> = {
        ...Object.assign({}, ...changed.map((step) => step.changes)),
        updated_at: at,
      };
      const key = JSON.stringify(changes);
      const write: Write = writes.get(key) ?? { orderIds: [], changes, events: [] };
      write.orderIds.push(orderId);
      write.events.push(
        ...changed.map((step, index) => ({
          orderId,
          action: 'status_changed',
          changes: { ...diff(step.before, step.changes), ...(index === changed.length - 1 ? reasons : {}) },
        })),
      );
      writes.set(key, write);
    }
    for (const { orderIds, changes, events } of writes.values()) {
      await repo.updateOrders(
        ctx.db,
        businessId,
        orderIds,
        changes,
        this.journal.rows(ctx, businessId, at, events),
      );
    }
    await this.journal.notifyChanges(ctx, told);
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
    const changed = diff(order, changes);
    // The same text again changes nothing, and the audit trail records changes only.
    if (Object.keys(changed).length === 0) return this.queries.detail(ctx, orderId);
    await repo.updateOrder(ctx.db, businessId, orderId, { ...changes, updated_at: this.clock.now() });
    await this.journal.recordEvent(ctx, businessId, orderId, `${field}_updated`, changed);
    return this.queries.detail(ctx, orderId);
  }

  /**
   * Replaces the skills a driver needs for an order (the skills module checks them against its
   * catalogue). `allowed` sees the order under its row lock first (its status, its route and
   * driver) and refuses a change that would break its plan; a change leaves an audit event.
   */
  async updateRequiredSkills(
    ctx: OperationContext,
    orderId: number,
    skills: readonly string[],
    allowed: (
      order: Pick<repo.StoredOrder, 'id' | 'status' | 'route_id' | 'driver_user_id'>,
    ) => Promise<void>,
  ): Promise<string[]> {
    const businessId = businessOf(ctx);
    const order = await this.locked(ctx.db, businessId, orderId);
    await allowed(order);
    const changes = { required_skills: [...new Set(skills)].sort() };
    const changed = diff(order, changes);
    if (Object.keys(changed).length === 0) return changes.required_skills;
    await repo.updateOrder(ctx.db, businessId, orderId, { ...changes, updated_at: this.clock.now() });
    await this.journal.recordEvent(ctx, businessId, orderId, 'required_skills_updated', changed);
    return changes.required_skills;
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
      await this.journal.recordEvent(ctx, businessId, order.id, 'time_window_updated', diff(order, changes));
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
    const now = this.clock.now();
    await repo.updateOrder(ctx.db, businessId, orderId, { ...cancelled, updated_at: now });
    await this.journal.recordEvent(ctx, businessId, orderId, 'rerouted', diff(original, cancelled), now);

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
    await this.journal.recordEvent(ctx, businessId, replacementId, 'created', {
      status: { from: null, to: 'NEW_ORDER' },
      rerouted_from: { from: null, to: orderId },
    });
    // The packages keep their numbers: their timelines go on, rescheduled to the new address.
    await this.journal.notify(ctx, businessId, replacementId, original.status, 'NEW_ORDER', {
      rerouted: true,
      original: { created_at: original.created_at },
      at: now,
    });
    return {
      result: true as const,
      cancelled_order_id: orderId,
      order: await this.queries.detail(ctx, replacementId),
    };
  }

  private async rerouteRef(db: Queryable, businessId: number, ref: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = `${ref.slice(0, 58)}-R${n}`;
      if ((await repo.countOrders(db, businessId, { orderRef: candidate })) === 0) return candidate;
    }
  }

  private async locked(db: Queryable, businessId: number, orderId: number) {
    const order = await repo.findOrder(db, businessId, orderId, { lock: true });
    if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    return order;
  }
}

/**
 * One status step of an order, refused when the lifecycle forbids it. Leaving dispatch (held,
 * cancelled, back to the pool) also takes the order off its route.
 */
function step(
  before: repo.StoredOrder,
  to: OrderStatus,
  at: Date,
  extra: Partial<{ route_id: number; driver_user_id: number }> = {},
) {
  if (!canMove(before.status, to)) throw illegalTransition(before.status, to);
  const changes = { status: to, ...(OFF_ROUTE.includes(to) ? OFF_ROUTE_CHANGES : {}), ...extra };
  const after: repo.StoredOrder = { ...before, ...changes, updated_at: at };
  return { changes, after };
}

/** The reasons a change gives, for its audit event: the analytics rebuild counts them from it. */
function auditedReasons(details?: StatusDetails): Record<string, { from: unknown; to: unknown }> {
  return {
    ...(details?.return_reason ? { return_reason: { from: null, to: details.return_reason } } : {}),
    ...(details?.incident_reason ? { incident_reason: { from: null, to: details.incident_reason } } : {}),
  };
}

function illegalTransition(from: OrderStatus, to: OrderStatus): AppError {
  return new AppError('ILLEGAL_STATUS_TRANSITION', { params: { from, to }, details: { from, to } });
}
