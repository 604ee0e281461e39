import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { AccountsService } from '../accounts/index.ts';
import { NO_REASON, type OrderStatusChange, type OrderStatusListener } from '../orders/index.ts';
import { localDay, localMinute } from './periods.ts';
import * as repo from './repository.ts';

type Order = OrderStatusChange['order'];

/** The price an order books: its shipping price and surcharges, tax left out. */
export function bookedMinor(order: Pick<Order, 'shipping_price_minor' | 'surcharges'>): number {
  const surcharges = (order.surcharges ?? []).reduce((sum, surcharge) => sum + surcharge.amount_minor, 0);
  return (order.shipping_price_minor ?? 0) + surcharges;
}

/**
 * How a delivery at `at` stands against the order's window: on its date (the scheduled date,
 * else the day of delivery), between its start and end minute (both included) is on time.
 */
export function timing(
  order: Pick<Order, 'scheduled_date' | 'window_start' | 'window_end'>,
  at: Date,
  timeZone: string,
): 'on_time' | 'early' | 'late' | 'without_window' {
  if (order.window_start === null || order.window_end === null) return 'without_window';
  const day = localDay(at, timeZone);
  const minute = localMinute(at, timeZone);
  const windowDay = order.scheduled_date ?? day;
  const [start, end] = [order.window_start.slice(0, 5), order.window_end.slice(0, 5)];
  if (windowDay > day || (windowDay === day && minute < start)) return 'early';
  if (windowDay < day || (windowDay === day && minute > end)) return 'late';
  return 'on_time';
}

/** What one order change adds to the rollup (the same definitions as the orders module's facts). */
export function deltasOf(
  change: OrderStatusChange,
  timeZone: string,
  deltas = new repo.Deltas(change.businessId),
): repo.Deltas {
  const { order, from, to, at } = change;
  const customer = order.customer_user_id;
  const eventDay = localDay(at, timeZone);
  const createdDay = localDay(order.created_at, timeZone);
  const booked = (day: string, sign: 1 | -1) => {
    if (order.currency !== null) {
      deltas.addRevenue(customer, day, order.family, order.currency, sign * bookedMinor(order), sign);
    }
  };
  if (from === null || change.rerouted) {
    deltas.addDaily(customer, createdDay, order.family, { created: 1 });
    deltas.addStatus(customer, createdDay, order.family, to, 1);
    booked(createdDay, 1);
    if (change.rerouted && change.original && from !== null) {
      // The original, a copy of this order but for its address, was cancelled in the same step.
      const originalDay = localDay(change.original.created_at, timeZone);
      deltas.addStatus(customer, originalDay, order.family, from, -1);
      deltas.addStatus(customer, originalDay, order.family, 'CANCELLED', 1);
      deltas.addDaily(customer, eventDay, order.family, { cancelled: 1 });
      booked(originalDay, -1);
    }
    return deltas;
  }
  deltas.addStatus(customer, createdDay, order.family, from, -1);
  deltas.addStatus(customer, createdDay, order.family, to, 1);
  if (to === 'DELIVERED') {
    deltas.addDaily(customer, eventDay, order.family, {
      delivered: 1,
      [timing(order, at, timeZone)]: 1,
      delivery_ms: at.getTime() - order.created_at.getTime(),
    });
  } else if (to === 'FAILED_ATTEMPT' || to === 'RETURNED') {
    const kind = to === 'FAILED_ATTEMPT' ? 'failed_attempt' : 'returned';
    const reason = to === 'FAILED_ATTEMPT' ? change.details?.incident_reason : change.details?.return_reason;
    const code = reason?.code ?? NO_REASON;
    const note =
      (to === 'FAILED_ATTEMPT'
        ? change.details?.incident_reason?.message
        : change.details?.return_reason?.note) ?? null;
    deltas.addDaily(
      customer,
      eventDay,
      order.family,
      to === 'FAILED_ATTEMPT' ? { failed_attempts: 1 } : { returned: 1 },
    );
    deltas.addReason(customer, eventDay, kind, code, 1);
    deltas.exceptions.push({
      day: eventDay,
      at,
      order_id: order.id,
      order_ref: order.order_ref,
      customer_user_id: customer,
      family: order.family,
      kind,
      reason_code: code,
      note,
    });
  } else if (to === 'CANCELLED') {
    deltas.addDaily(customer, eventDay, order.family, { cancelled: 1 });
    booked(createdDay, -1);
  }
  return deltas;
}

/**
 * Keeps the rollup in step with the orders (registered with `orders.journal.onStatusChange`):
 * every creation and status change adds its counts in the change's own transaction.
 */
export class AnalyticsRollup implements OrderStatusListener {
  constructor(private readonly accounts: AccountsService) {}

  async orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    const timeZone = await this.accounts.timeZoneOf(ctx.db, change.businessId);
    const deltas = deltasOf(change, timeZone);
    if (deltas.size === 0) return;
    await repo.apply(ctx.db, deltas, { lock: true });
  }

  /** Changes made together (an order's steps in one scan, a batch received): one write per business. */
  async ordersStatusChanged(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void> {
    const byBusiness = new Map<number, repo.Deltas>();
    for (const change of changes) {
      const timeZone = await this.accounts.timeZoneOf(ctx.db, change.businessId);
      const deltas = byBusiness.get(change.businessId) ?? new repo.Deltas(change.businessId);
      byBusiness.set(change.businessId, deltasOf(change, timeZone, deltas));
    }
    for (const deltas of byBusiness.values()) {
      deltas.dropPassedThrough();
      if (deltas.size > 0) await repo.apply(ctx.db, deltas, { lock: true });
    }
  }
}
