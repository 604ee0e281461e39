import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { diff, type OrderJournal } from './journal.ts';
import * as repo from './repository.ts';
import type { OrdersTables } from './tables.ts';

/**
 * Orders that stay planned while a dispatcher edits the plan: moved to another route, or their
 * route given another driver. Each change has its event in the order's audit trail.
 */
export class OrderReplanning {
  constructor(
    private readonly clock: Clock,
    private readonly journal: OrderJournal,
  ) {}

  /** Puts a planned order on another route of the business, with that route's driver. */
  async moveToRoute(
    ctx: OperationContext,
    businessId: number,
    orderId: number,
    route: { id: number; driverId: number },
  ): Promise<void> {
    await this.reassign(
      ctx,
      businessId,
      'route_changed',
      { orderId },
      {
        route_id: route.id,
        driver_user_id: route.driverId,
      },
    );
  }

  /**
   * Puts planned orders on other routes at once (a rebuild that plans them again), set-based:
   * they stay PLANNED, each with a `route_changed` event in its audit trail and nothing for its
   * tracking, as a plan edit's move does.
   */
  async moveToRoutes(
    ctx: OperationContext,
    businessId: number,
    plans: ReadonlyArray<{ orderId: number; routeId: number; driverId: number }>,
  ): Promise<void> {
    if (plans.length === 0) return;
    const ids = plans.map((plan) => plan.orderId);
    const before = new Map(
      (await repo.findOrders(ctx.db, businessId, ids, { lock: true })).map((order) => [order.id, order]),
    );
    const at = this.clock.now();
    await repo.planOrders(ctx.db, businessId, plans, at);
    await this.journal.recordEvents(
      ctx,
      businessId,
      at,
      plans.map((plan) => ({
        orderId: plan.orderId,
        action: 'route_changed',
        changes: diff(before.get(plan.orderId)!, { route_id: plan.routeId, driver_user_id: plan.driverId }),
      })),
    );
  }

  /** Gives every order on a route the route's new driver (null: the route waits, open, on a route board). */
  async reassignDriver(ctx: OperationContext, businessId: number, routeId: number, driverId: number | null) {
    await this.reassign(
      ctx,
      businessId,
      'driver_changed',
      { routeId },
      {
        driver_user_id: driverId,
      },
    );
  }

  private async reassign(
    ctx: OperationContext,
    businessId: number,
    action: string,
    which: { orderId: number } | { routeId: number },
    changes: { route_id?: number; driver_user_id: number | null },
  ): Promise<void> {
    const db = ctx.db as Queryable<OrdersTables>;
    const before = await db
      .selectFrom('orders')
      .selectAll()
      .where('business_id', '=', businessId)
      .$if('orderId' in which, (q) => q.where('id', '=', (which as { orderId: number }).orderId))
      .$if('routeId' in which, (q) => q.where('route_id', '=', (which as { routeId: number }).routeId))
      .orderBy('id')
      .forUpdate()
      .execute();
    if (before.length === 0) return;
    const at = this.clock.now();
    await db
      .updateTable('orders')
      .set({ ...changes, updated_at: at })
      .where('business_id', '=', businessId)
      .where(
        'id',
        'in',
        before.map((order) => order.id),
      )
      .execute();
    await this.journal.recordEvents(
      ctx,
      businessId,
      at,
      before.map((order) => ({ orderId: order.id, action, changes: diff(order, changes) })),
    );
  }
}
