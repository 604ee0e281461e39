import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import {
  type CursorPageQuery,
  cursorEnvelopeOf,
  cursorWindow,
  envelopeOf,
  type PageQuery,
  pageWindow,
} from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as board from './board-repository.ts';
import * as repo from './repository.ts';
import type { OrderView } from './schemas.ts';
import { DISPATCHABLE, ORDER_STATUSES, type OrderStatus, TERMINAL_STATUSES } from './statuses.ts';
import {
  type ContractorPools,
  type OrderScope,
  toViews,
  viewsOf,
  visibleIn,
  wholeBusiness,
} from './views.ts';

/** Statuses of an order on no route that dispatch still has to plan (held orders apart). */
const UNPLANNED = DISPATCHABLE.filter((status) => status !== 'HOLD');

export interface OrderListQuery extends CursorPageQuery {
  status?: OrderStatus[];
  scheduled_date?: string;
  order_ref?: string;
  tracking_number?: string;
  search?: string;
  route_id?: number;
  driver_id?: number;
  business_id?: number;
}

/** The order facts an assignment needs, read under a row lock. */
export type AssignableOrder = Pick<
  repo.StoredOrder,
  'id' | 'order_ref' | 'status' | 'family' | 'carrier' | 'route_id' | 'scheduled_date'
>;

/** What a warehouse scan needs of an order, read under its row lock: its facts and its addresses. */
export type ScannedOrder = AssignableOrder & Pick<repo.StoredOrder, 'pickup' | 'dropoff'>;

/** Reading orders: lists, one order, the planning pool, overviews and the audit trail, in the caller's scope. */
export class OrderQueries {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly pools: ContractorPools,
  ) {}

  /** The package behind each of these tracking numbers, whatever its business (public tracking, provider pushes). */
  async packagesByTrackingNumber(db: Queryable, trackingNumbers: string[]) {
    return repo.packagesByTrackingNumber(db, trackingNumbers);
  }

  /** Whether the business has an order of this reference: create_order refuses it again (ORDER_REF_TAKEN). */
  async orderRefTaken(db: Queryable, businessId: number, orderRef: string): Promise<boolean> {
    return (await repo.countOrders(db, businessId, { orderRef })) > 0;
  }

  /** The packages of one business behind these tracking numbers (a label read by its staff). */
  async businessPackagesByTrackingNumber(db: Queryable, businessId: number, trackingNumbers: string[]) {
    return repo.packagesByTrackingNumber(db, trackingNumbers, businessId);
  }

  /**
   * The business's open orders (not delivered, returned or cancelled) that need a skill: how many,
   * and the first `limit` ids. What a skill still in use is refused removal for.
   */
  needingSkill(db: Queryable, businessId: number, code: string, limit: number) {
    const open = ORDER_STATUSES.filter((status) => !TERMINAL_STATUSES.includes(status));
    return repo.ordersNeedingSkill(db, businessId, code, open, limit);
  }

  /** The orders the caller may see in the business the call acts in (see Access.business). */
  async scopeOf(ctx: OperationContext): Promise<OrderScope> {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    if (caller.kind === 'customer') {
      return { businessId, customerUserId: caller.userId, assignedToCaller: [], assignedElsewhere: [] };
    }
    // Staff see the whole business: no assignment or rule bounds what they read.
    if (caller.kind !== 'contractor') return wholeBusiness(businessId);
    return { businessId, ...(await this.pools.boundsOf(ctx.db, businessId, caller)) };
  }

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
      search: query.search,
      routeIds: query.route_id === undefined ? undefined : [query.route_id],
    };
    const page = await repo.pageOfOrders(ctx.db, businessId, filter, cursorWindow(query));
    return {
      result: true as const,
      ...cursorEnvelopeOf(query, page),
      orders: await toViews(ctx.db, businessId, page.rows),
    };
  }

  async detail(ctx: OperationContext, orderId: number): Promise<OrderView> {
    const scope = await this.scopeOf(ctx);
    const [view] = await viewsOf(ctx.db, scope, [orderId]);
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
    return (await toViews(ctx.db, businessId, rows))[0]!;
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
      },
      { limit: OrderQueries.POOL_LIMIT, offset: 0 },
    );
    // An order handed to a contractor is that contractor's to plan, and nobody else's.
    const holders = await this.pools.holdersOf(
      ctx.db,
      scope.businessId,
      rows.map((row) => row.id),
    );
    const planner = callerOf(ctx).userId;
    const plannable = rows.filter((row) => (holders.get(row.id) ?? planner) === planner);
    return toViews(ctx.db, scope.businessId, plannable);
  }

  /** Locks the orders (in id order, so concurrent callers never deadlock) and returns what an assignment checks. */
  async lockForAssignment(db: Queryable, businessId: number, orderIds: number[]): Promise<AssignableOrder[]> {
    return repo.lockOrders(db, businessId, orderIds);
  }

  /**
   * The packages behind these tracking numbers (another business's are as unknown as made-up
   * ones), each with its order's facts, the orders locked: what a warehouse scan reads first.
   */
  async lockForScan(
    db: Queryable,
    businessId: number,
    trackingNumbers: string[],
  ): Promise<Array<{ package_id: number; tracking_number: string; order: ScannedOrder }>> {
    const rows = await repo.lockOrdersOfPackages(db, businessId, trackingNumbers);
    return rows.map(({ package_id, tracking_number, ...order }) => ({ package_id, tracking_number, order }));
  }

  /**
   * These orders of the business as the service answers them, in the order asked, whoever calls:
   * for a module that decided already what its caller may see (a driver, the stops of their route).
   */
  async views(db: Queryable, businessId: number, orderIds: number[]): Promise<OrderView[]> {
    return viewsOf(db, wholeBusiness(businessId), orderIds);
  }

  /**
   * What the dispatch board shows of orders (status, window, coordinates; no names or phones):
   * these orders, and, for a date, those waiting on no route in a status dispatch still acts on
   * (`waiting: true`) or held, at most `limit` of those. One statement.
   */
  boardOrders(
    db: Queryable,
    businessId: number,
    ids: readonly number[],
    waiting?: { date: string; limit: number },
  ) {
    return board.boardOrders(db, businessId, ids, waiting ? { ...waiting, statuses: UNPLANNED } : null);
  }

  /**
   * The date's held orders the business delivers itself (at most `limit`), as the service answers
   * them, each with when it was last put on hold and when an address of it was last placed anew.
   */
  async held(db: Queryable, businessId: number, date: string, limit: number) {
    const rows = await board.heldOrders(db, businessId, date, limit);
    const views = await viewsOf(
      db,
      wholeBusiness(businessId),
      rows.map((row) => row.id),
    );
    const byId = new Map(views.map((view) => [view.id, view]));
    return rows.flatMap((row) => {
      const order = byId.get(row.id);
      return order ? [{ order, heldAt: row.held_at, locatedAt: row.located_at }] : [];
    });
  }

  /** How many orders of the date the board counts as unplanned, and as held. */
  waitingCounts(db: Queryable, businessId: number, date: string) {
    return board.countWaiting(db, businessId, date, UNPLANNED);
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

  async exceptions(ctx: OperationContext, input: PageQuery, timeZone: string) {
    const businessId = businessOf(ctx);
    const local = formatLocalDateTime(this.clock.now(), timeZone);
    const [today = '', time = ''] = local.split(' ');
    const open: OrderStatus[] = ['NEW_ORDER', 'PLANNED', 'PICKED_UP', 'AT_WAREHOUSE', 'OUT_FOR_DELIVERY'];
    const { rows, total } = await repo.exceptionalOrders(
      ctx.db,
      businessId,
      today,
      time,
      open,
      pageWindow(input),
    );
    const views = await toViews(ctx.db, businessId, rows);
    return {
      result: true as const,
      ...envelopeOf(input, total),
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
}

function exceptionReason(status: OrderStatus): 'failed' | 'held' | 'late' {
  if (status === 'FAILED_ATTEMPT') return 'failed';
  return status === 'HOLD' ? 'held' : 'late';
}
