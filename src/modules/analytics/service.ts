import { sql } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { addDays, type Clock, formatLocalDateTime } from '../../platform/clock.ts';
import { inTransaction, type Queryable } from '../../platform/db/database.ts';
import { toMajor } from '../../platform/money.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import { ORDER_STATUSES, type OrdersService } from '../orders/index.ts';
import { localDay, namedPeriod, type PeriodName } from './periods.ts';
import * as repo from './repository.ts';
import { WHOLE_BUSINESS } from './tables.ts';
import { digestSentence } from './words.ts';

/** How many exception reasons a summary lists, and how many exceptions and drivers a digest lists. */
export const TOP_REASONS = 5;
export const DIGEST_EXCEPTIONS = 50;
export const DIGEST_DRIVERS = 50;
/** Rows of failed attempts and returns a rebuild copies per round trip. */
const REBUILD_PAGE = 5_000;

type Counters = repo.DailyCounters;

const ratio = (part: number, whole: number, digits = 3) =>
  whole === 0 ? null : Math.round((part / whole) * 10 ** digits) / 10 ** digits;

/** On-time rate: deliveries within their window among the deliveries that had one. */
function onTime(counters: Counters) {
  const timed = counters.on_time + counters.early + counters.late;
  return {
    rate: ratio(counters.on_time, timed),
    on_time: counters.on_time,
    early: counters.early,
    late: counters.late,
    without_window: counters.without_window,
  };
}

const averageMinutes = (counters: Counters) =>
  counters.delivered === 0 ? null : Math.round(counters.delivery_ms / counters.delivered / 6_000) / 10;

function numbers<T extends Record<string, unknown>>(row: T): Counters {
  const out: Record<string, number> = {};
  for (const name of repo.DAILY_COUNTERS) {
    out[name] = Number(row[name] ?? 0);
  }
  return out as unknown as Counters;
}

function added(rows: Counters[]): Counters {
  const total = numbers({});
  for (const row of rows)
    for (const [name, value] of Object.entries(row)) total[name as keyof Counters] += value;
  return total;
}

/** A figure of the digest next to the same weekday a week before. */
function compared(value: number | null, previous: number | null) {
  return {
    value,
    previous,
    change: value === null || previous === null ? null : Math.round((value - previous) * 1000) / 1000,
  };
}

/**
 * Order figures for dispatchers and customers, read from the rollup this module keeps (see
 * rollup.ts): a period's summary, and a day's digest next to the same weekday a week before.
 */
export class AnalyticsService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
  ) {}

  async summary(
    ctx: OperationContext,
    input: { period?: PeriodName; from?: string; to?: string; customer_id?: number },
  ) {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    const timeZone = await this.accounts.timeZoneOf(ctx.db, businessId);
    const today = localDay(this.clock.now(), timeZone);
    const range =
      input.from !== undefined && input.to !== undefined
        ? { from: input.from, to: input.to }
        : namedPeriod(input.period ?? 'today', today);
    // A customer sees its own orders only, whatever it names; staff the business's or one customer's.
    const customerId = caller.kind === 'customer' ? caller.userId : (input.customer_id ?? null);
    const query = { businessId, customerKey: customerId ?? WHOLE_BUSINESS, ...range };
    const [families, statuses, revenue, reasons] = await Promise.all([
      repo.familyTotals(ctx.db, query),
      repo.statusTotals(ctx.db, query),
      repo.revenueTotals(ctx.db, query),
      repo.topReasons(ctx.db, query, TOP_REASONS),
    ]);
    const byFamily = families.map((row) => ({ family: row.family, counters: numbers(row) }));
    const total = added(byFamily.map((row) => row.counters));
    const statusOrder = (status: string) => ORDER_STATUSES.indexOf(status as never);
    const statusesOf = (family?: string) => {
      const counts = new Map<string, number>();
      for (const row of statuses) {
        if (family !== undefined && row.family !== family) continue;
        counts.set(row.status, (counts.get(row.status) ?? 0) + Number(row.orders));
      }
      return [...counts.entries()]
        .filter(([, orders]) => orders !== 0)
        .sort(([a], [b]) => statusOrder(a) - statusOrder(b))
        .map(([status, orders]) => ({ status, orders }));
    };
    const familiesSeen = [
      ...new Set([...byFamily.map((row) => row.family), ...statuses.map((row) => row.family)]),
    ].sort();
    return {
      result: true as const,
      period: {
        name: input.from !== undefined ? ('range' as const) : (input.period ?? 'today'),
        ...range,
        time_zone: timeZone,
      },
      customer_id: customerId,
      created: total.created,
      delivered: total.delivered,
      failed_attempts: total.failed_attempts,
      returned: total.returned,
      cancelled: total.cancelled,
      on_time: onTime(total),
      average_delivery_minutes: averageMinutes(total),
      by_status: statusesOf(),
      by_family: familiesSeen.map((family) => {
        const counters = byFamily.find((row) => row.family === family)?.counters ?? numbers({});
        return {
          family,
          created: counters.created,
          delivered: counters.delivered,
          failed_attempts: counters.failed_attempts,
          returned: counters.returned,
          cancelled: counters.cancelled,
          on_time_rate: onTime(counters).rate,
          average_delivery_minutes: averageMinutes(counters),
          by_status: statusesOf(family),
        };
      }),
      // One entry per family and currency: the price-hiding policy takes `currency` and `amount`
      // out of the entries of a family hidden from the calling customer.
      revenue: revenue.map((row) => ({
        family: row.family,
        currency: row.currency,
        amount: toMajor(Number(row.amount_minor), row.currency),
        orders: Number(row.orders),
      })),
      top_exception_reasons: reasons.map((row) => ({ kind: row.kind, code: row.code, count: Number(row.n) })),
    };
  }

  async digest(ctx: OperationContext, input: { date?: string }) {
    const businessId = businessOf(ctx);
    const timeZone = await this.accounts.timeZoneOf(ctx.db, businessId);
    const date = input.date ?? addDays(localDay(this.clock.now(), timeZone), -1);
    const before = addDays(date, -7);
    const [days, fleet, exceptions, reasons] = await Promise.all([
      repo.dayTotals(ctx.db, businessId, [date, before]),
      this.dispatch.dayFigures(ctx.db, businessId, [date, before]),
      repo.exceptionsOf(ctx.db, businessId, date, DIGEST_EXCEPTIONS),
      repo.topReasons(ctx.db, { businessId, customerKey: WHOLE_BUSINESS, from: date, to: date }, TOP_REASONS),
    ]);
    const [day, previous] = [date, before].map((d) => numbers(days.find((row) => row.day === d) ?? {})) as [
      Counters,
      Counters,
    ];
    const [routes, previousRoutes] = fleet as [(typeof fleet)[number], (typeof fleet)[number]];
    const out = (c: Counters) => c.delivered + c.returned + c.cancelled;
    const percent = (c: Counters) => {
      const rate = onTime(c).rate;
      return rate === null ? null : Math.round(rate * 1000) / 10;
    };
    const figures = {
      orders_in: compared(day.created, previous.created),
      orders_out: compared(out(day), out(previous)),
      delivered: compared(day.delivered, previous.delivered),
      failed_attempts: compared(day.failed_attempts, previous.failed_attempts),
      returned: compared(day.returned, previous.returned),
      cancelled: compared(day.cancelled, previous.cancelled),
      on_time_rate: compared(onTime(day).rate, onTime(previous).rate),
      late: compared(day.late, previous.late),
      average_delivery_minutes: compared(averageMinutes(day), averageMinutes(previous)),
      routes: compared(routes.routes, previousRoutes.routes),
      drivers: compared(routes.drivers, previousRoutes.drivers),
      stops: compared(routes.stops, previousRoutes.stops),
      distance_km: compared(
        Math.round(routes.distance_meters / 100) / 10,
        Math.round(previousRoutes.distance_meters / 100) / 10,
      ),
    };
    const onTimeNow = percent(day);
    const onTimeBefore = percent(previous);
    return {
      result: true as const,
      date,
      compared_with: before,
      time_zone: timeZone,
      summary: digestSentence(
        {
          date,
          ordersIn: day.created,
          ordersInChange: day.created - previous.created,
          delivered: day.delivered,
          failed: day.failed_attempts,
          returned: day.returned,
          cancelled: day.cancelled,
          onTimePercent: onTimeNow,
          onTimeChangePoints:
            onTimeNow === null || onTimeBefore === null
              ? null
              : Math.round((onTimeNow - onTimeBefore) * 10) / 10,
          routes: routes.routes,
          drivers: routes.drivers,
          exceptions: exceptions.total,
        },
        ctx.lang,
      ),
      figures,
      drivers: routes.by_driver.slice(0, DIGEST_DRIVERS).map((driver) => ({
        id: driver.id,
        name: driver.name,
        routes: driver.routes,
        stops: driver.stops,
        distance_km: Math.round(driver.distance_meters / 100) / 10,
      })),
      exceptions: {
        count: exceptions.total,
        orders: exceptions.rows.map((row) => ({
          order_id: row.order_id,
          order_ref: row.order_ref,
          family: row.family,
          customer_id: row.customer_user_id,
          kind: row.kind,
          reason_code: row.reason_code,
          note: row.note,
          at: formatLocalDateTime(row.at, timeZone),
        })),
      },
      top_exception_reasons: reasons.map((row) => ({ kind: row.kind, code: row.code, count: Number(row.n) })),
    };
  }

  /**
   * Builds a business's rollup again from the orders module's facts, set-based, in one
   * transaction: for a database that held orders before this module existed, or after a change
   * of definition. Live changes wait (advisory lock) until it commits, so none is lost or counted twice.
   */
  async rebuild(db: Queryable, businessId: number, progress: (step: string) => void = () => {}) {
    // Within the caller's transaction when it has one (a job's, which records its outcome with it).
    return inTransaction(db, async (tx) => {
      // A year of a large business's orders takes longer than a request's statement limit.
      await sql`SET LOCAL statement_timeout = 0`.execute(tx);
      await repo.lockExclusive(tx, businessId);
      const timeZone = await this.accounts.timeZoneOf(tx, businessId);
      await repo.clear(tx, businessId);
      const facts = this.orders.facts;
      const written = { daily: 0, statuses: 0, revenue: 0, reasons: 0, exceptions: 0 };
      const write = async (deltas: repo.Deltas) => {
        written.daily += deltas.daily.size;
        written.statuses += deltas.statuses.size;
        written.revenue += deltas.revenue.size;
        written.reasons += deltas.reasons.size;
        written.exceptions += deltas.exceptions.length;
        await repo.apply(tx, deltas, { lock: false });
      };

      progress('orders created, by day');
      let deltas = new repo.Deltas(businessId);
      for (const row of await facts.created(tx, businessId, timeZone)) {
        deltas.addDaily(row.customer_id, row.day, row.family, { created: row.created });
      }
      progress('deliveries, failed attempts, returns and cancellations, by day');
      for (const row of await facts.outcomes(tx, businessId, timeZone)) {
        const { day, customer_id, family, ...counters } = row;
        deltas.addDaily(customer_id, day, family, numbers(counters));
      }
      await write(deltas);

      progress('orders by creation day and status');
      deltas = new repo.Deltas(businessId);
      for (const row of await facts.statuses(tx, businessId, timeZone)) {
        deltas.addStatus(row.customer_id, row.day, row.family, row.status, row.orders);
      }
      progress('booked revenue');
      for (const row of await facts.revenue(tx, businessId, timeZone)) {
        deltas.addRevenue(
          row.customer_id,
          row.day,
          row.family,
          row.currency,
          Number(row.amount_minor),
          row.orders,
        );
      }
      progress('exception reasons');
      for (const row of await facts.reasons(tx, businessId, timeZone)) {
        deltas.addReason(row.customer_id, row.day, row.kind, row.code, row.n);
      }
      await write(deltas);

      let after = 0;
      for (;;) {
        const page = await facts.exceptions(tx, businessId, timeZone, {
          afterEventId: after,
          limit: REBUILD_PAGE,
        });
        if (page.length === 0) break;
        deltas = new repo.Deltas(businessId);
        for (const { event_id: _id, customer_id, ...row } of page) {
          deltas.exceptions.push({ ...row, customer_user_id: customer_id });
        }
        await write(deltas);
        after = page[page.length - 1]!.event_id;
        if (written.exceptions % (REBUILD_PAGE * 10) < page.length)
          progress(`exceptions: ${written.exceptions}`);
      }
      return written;
    });
  }

  /** The rollup as it stands, for a check that the live rollup and a rebuild agree. */
  async snapshot(db: Queryable, businessId: number) {
    return repo.snapshot(db, businessId);
  }
}
