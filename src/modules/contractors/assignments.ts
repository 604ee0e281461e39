import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, type ErrorCode, type MessageParams } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { errorMessage, fillTemplate, type Language } from '../../platform/i18n/index.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { AssignableOrder, OrdersService } from '../orders/index.ts';
import { ORDER_STATUS_IDS, type OrderStatus } from '../orders/index.ts';
import * as repo from './repository.ts';
import type { AssignmentStatus } from './tables.ts';

/** Orders that may be handed to a contractor: not yet dispatched (held ones included). */
const ASSIGNABLE: readonly OrderStatus[] = ['NEW_ORDER', 'HOLD'];

const RELEASED: Record<Language, string> = {
  en: 'Order {order} is released: it returns to the ordinary contractor rules.',
  fr: 'La commande {order} est rendue : elle revient aux règles ordinaires des sous-traitants.',
  de: 'Auftrag {order} ist freigegeben: Er unterliegt wieder den üblichen Subunternehmerregeln.',
  es: 'El pedido {order} se ha liberado: vuelve a las reglas ordinarias de contratistas.',
  'zh-Hans': '订单 {order} 已释放，恢复适用普通承包商规则。',
  'zh-Hant': '訂單 {order} 已釋放，恢復適用一般承包商規則。',
};

export interface AssignmentQuery extends CursorPageQuery {
  business_id?: number;
  broker_id?: number;
  status?: AssignmentStatus;
  order_id?: number;
}

type Refusal = { order_id: number; message: string };

/**
 * Broker order assignments: one order handed exclusively to one contractor (a broker employee),
 * taken back by the client (revoke) or given back by the contractor (release). While active,
 * the order is in that contractor's pool only (see ContractorsService.boundsOf).
 */
export class AssignmentsService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly events: DomainEvents,
  ) {}

  /** Tells the other modules (webhooks) that an order changed hands. */
  private changed(
    ctx: OperationContext,
    businessId: number,
    change: {
      order_id: number;
      action: 'assigned' | 'revoked' | 'released';
      broker_id: number;
      previous_broker_id?: number | null;
    },
  ) {
    return this.events.publish(ctx, {
      kind: 'contractor_assignment.changed',
      businessId,
      customerId: null,
      data: change,
    });
  }

  async list(ctx: OperationContext, query: AssignmentQuery) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    // A contractor sees its own assignments only, whatever broker_id says.
    const filter: repo.AssignmentFilter = {
      brokerId: caller.kind === 'contractor' ? caller.userId : query.broker_id,
      status: query.status,
      orderId: query.order_id,
    };
    const page = await repo.assignmentsPage(ctx.db, businessId, filter, cursorWindow(query));
    return {
      result: true as const,
      ...cursorEnvelopeOf(query, page),
      assignments: await this.records(ctx.db, businessId, page.rows),
    };
  }

  /**
   * Assigns orders to a contractor, each on its own: refusals are listed, the rest assigned. An
   * order another contractor holds moves in one step; that assignment ends as `revoked`.
   */
  async assign(ctx: OperationContext, input: { order_ids: number[]; broker_id: number; note?: string }) {
    const businessId = businessOf(ctx);
    const broker = await this.accounts.contractorAccount(ctx.db, input.broker_id);
    if (!broker || !(await this.accounts.isEngaged(ctx.db, broker.contractorCompanyId, businessId))) {
      throw new AppError('CONTRACTOR_NOT_FOUND', { params: { broker: input.broker_id } });
    }
    const { orders, active } = await this.lockOrders(ctx.db, businessId, input.order_ids);
    const errors: Refusal[] = [];
    let assigned = 0;
    const now = this.clock.now();
    for (const orderId of unique(input.order_ids)) {
      const order = orders.get(orderId);
      const current = active.get(orderId);
      const refusal = assignRefusal(order, current, input.broker_id);
      if (refusal) {
        errors.push(refused(ctx.lang, orderId, refusal.code, refusal.params));
        continue;
      }
      if (current) {
        await repo.endAssignment(ctx.db, current.id, {
          status: 'revoked',
          ended_by: callerOf(ctx).userId,
          ended_at: now,
          end_reason: `reassigned to contractor ${input.broker_id}`,
        });
      }
      await repo.insertAssignment(ctx.db, {
        business_id: businessId,
        order_id: orderId,
        broker_user_id: input.broker_id,
        status: 'active',
        note: input.note ?? null,
        assigned_by: callerOf(ctx).userId,
        assigned_at: now,
        ended_by: null,
        ended_at: null,
        end_reason: null,
      });
      await this.orders.journal.recordEvent(ctx, businessId, orderId, 'broker_assigned', {
        broker_id: { from: current?.broker_user_id ?? null, to: input.broker_id },
      });
      await this.changed(ctx, businessId, {
        order_id: orderId,
        action: 'assigned',
        broker_id: input.broker_id,
        previous_broker_id: current?.broker_user_id ?? null,
      });
      assigned++;
    }
    return { result: assigned > 0, assigned, skipped: errors.length, errors };
  }

  /** Client admins take orders back from their contractors; orders on a route are refused. */
  async revoke(ctx: OperationContext, input: { order_ids: number[]; reason?: string }) {
    const businessId = businessOf(ctx);
    const { orders, active } = await this.lockOrders(ctx.db, businessId, input.order_ids);
    const errors: Refusal[] = [];
    let revoked = 0;
    for (const orderId of unique(input.order_ids)) {
      const order = orders.get(orderId);
      const current = active.get(orderId);
      const refusal = revokeRefusal(order, current);
      if (refusal) {
        errors.push(refused(ctx.lang, orderId, refusal.code, refusal.params));
        continue;
      }
      await this.end(ctx, businessId, current!, 'revoked', input.reason);
      revoked++;
    }
    return { result: revoked > 0, revoked, skipped: errors.length, errors };
  }

  /** The holding contractor gives an order back. */
  async release(ctx: OperationContext, input: { order_id: number; reason?: string; business_id?: number }) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const { orders, active } = await this.lockOrders(ctx.db, businessId, [input.order_id]);
    const order = orders.get(input.order_id);
    const current = active.get(input.order_id);
    if (!order || current?.broker_user_id !== caller.userId) {
      throw new AppError('ORDER_NOT_ASSIGNED_TO_YOU', { params: { order: input.order_id } });
    }
    if (order.route_id !== null) throw new AppError('ORDER_ON_ROUTE', { params: { order: input.order_id } });
    await this.end(ctx, businessId, current, 'released', input.reason);
    return { result: true as const, message: fillTemplate(RELEASED[ctx.lang], { order: input.order_id }) };
  }

  // ----- helpers -----

  /** Locks the orders first, so concurrent assignment changes of one order run one after the other. */
  private async lockOrders(db: Queryable, businessId: number, orderIds: number[]) {
    const ids = unique(orderIds);
    const orders = new Map(
      (await this.orders.queries.lockForAssignment(db, businessId, ids)).map((o) => [o.id, o]),
    );
    const active = new Map(
      (await repo.activeAssignmentsOf(db, businessId, [...orders.keys()])).map((a) => [a.order_id, a]),
    );
    return { orders, active };
  }

  private async end(
    ctx: OperationContext,
    businessId: number,
    assignment: { id: number; order_id: number; broker_user_id: number },
    status: 'revoked' | 'released',
    reason: string | undefined,
  ): Promise<void> {
    await repo.endAssignment(ctx.db, assignment.id, {
      status,
      ended_by: callerOf(ctx).userId,
      ended_at: this.clock.now(),
      end_reason: reason ?? null,
    });
    await this.orders.journal.recordEvent(ctx, businessId, assignment.order_id, `broker_${status}`, {
      broker_id: { from: assignment.broker_user_id, to: null },
      ...(reason ? { end_reason: { from: null, to: reason } } : {}),
    });
    await this.changed(ctx, businessId, {
      order_id: assignment.order_id,
      action: status,
      broker_id: assignment.broker_user_id,
    });
  }

  private async records(
    db: Queryable,
    businessId: number,
    rows: Awaited<ReturnType<typeof repo.assignmentsPage>>['rows'],
  ) {
    const orders = await this.orders.queries.summaries(
      db,
      businessId,
      unique(rows.map((row) => row.order_id)),
    );
    const brokerNames = await this.accounts.namesOf(
      db,
      rows.map((row) => row.broker_user_id),
    );
    return rows.map((row) => {
      const order = orders.get(row.order_id);
      return {
        id: row.id,
        order_id: row.order_id,
        order_ref: order?.order_ref ?? null,
        order_status_id: order ? ORDER_STATUS_IDS[order.status] : null,
        scheduled_date: order?.scheduled_date ?? null,
        route_id: order?.route_id ?? null,
        broker_id: row.broker_user_id,
        broker_name: brokerNames.get(row.broker_user_id) ?? null,
        status: row.status,
        note: row.note,
        assigned_by: row.assigned_by,
        assigned_at: row.assigned_at.toISOString(),
        ended_by: row.ended_by,
        ended_at: row.ended_at?.toISOString() ?? null,
        end_reason: row.end_reason,
      };
    });
  }
}

type RefusalReason = { code: ErrorCode; params?: MessageParams };

/** Why an order cannot be handed to this contractor, checked in the interface's order. */
function assignRefusal(
  order: AssignableOrder | undefined,
  current: { broker_user_id: number } | undefined,
  brokerId: number,
): RefusalReason | undefined {
  if (!order) return { code: 'ORDER_NOT_FOUND' };
  if (order.family !== 'local_delivery') return { code: 'ORDER_NOT_SELF_DELIVERY' };
  if (order.carrier !== null) return { code: 'ORDER_HELD_BY_CARRIER', params: { carrier: order.carrier } };
  if (order.route_id !== null) return { code: 'ORDER_ON_ROUTE' };
  if (!ASSIGNABLE.includes(order.status)) {
    return { code: 'ORDER_NOT_ASSIGNABLE', params: { status: order.status } };
  }
  if (current?.broker_user_id === brokerId) return { code: 'ORDER_ALREADY_ASSIGNED' };
  return undefined;
}

/** Why an order cannot be taken back from its contractor. */
function revokeRefusal(
  order: AssignableOrder | undefined,
  current: { broker_user_id: number } | undefined,
): RefusalReason | undefined {
  if (!order) return { code: 'ORDER_NOT_FOUND' };
  if (!current) return { code: 'ORDER_NOT_ASSIGNED' };
  if (order.route_id !== null) return { code: 'ORDER_ON_ROUTE' };
  return undefined;
}

function refused(lang: Language, orderId: number, code: ErrorCode, params: MessageParams = {}): Refusal {
  return { order_id: orderId, message: errorMessage(code, lang, { order: orderId, ...params }) };
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
