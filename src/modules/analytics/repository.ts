import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { type AnalyticsTables, WHOLE_BUSINESS } from './tables.ts';

type Db = Queryable<AnalyticsTables>;
type Daily = AnalyticsTables['analytics_daily'];
export type DailyCounters = Omit<Daily, 'business_id' | 'customer_key' | 'day' | 'family'>;
export type ExceptionRow = Omit<AnalyticsTables['analytics_exceptions'], 'id' | 'business_id'>;

export const DAILY_COUNTERS = [
  'created',
  'delivered',
  'on_time',
  'early',
  'late',
  'without_window',
  'delivery_ms',
  'failed_attempts',
  'returned',
  'cancelled',
] as const satisfies ReadonlyArray<keyof DailyCounters>;
const EMPTY_DAILY = Object.fromEntries(DAILY_COUNTERS.map((name) => [name, 0])) as DailyCounters;

/**
 * Changes to the rollup's counters, added up by row before they are written, so one change (or a
 * rebuild's batch) writes each row once; every count goes to the business's row and, for an
 * order of a customer, to that customer's row too.
 */
export class Deltas {
  readonly daily = new Map<string, Daily>();
  readonly statuses = new Map<string, AnalyticsTables['analytics_statuses']>();
  readonly revenue = new Map<string, AnalyticsTables['analytics_revenue']>();
  readonly reasons = new Map<string, AnalyticsTables['analytics_reasons']>();
  readonly exceptions: ExceptionRow[] = [];

  constructor(readonly businessId: number) {}

  private static keysOf(customerId: number | null): number[] {
    return customerId === null ? [WHOLE_BUSINESS] : [WHOLE_BUSINESS, customerId];
  }

  addDaily(customerId: number | null, day: string, family: string, counters: Partial<DailyCounters>) {
    for (const customer_key of Deltas.keysOf(customerId)) {
      const key = `${customer_key}|${day}|${family}`;
      const row = this.daily.get(key) ?? {
        business_id: this.businessId,
        customer_key,
        day,
        family,
        ...EMPTY_DAILY,
      };
      for (const name of DAILY_COUNTERS) row[name] += counters[name] ?? 0;
      this.daily.set(key, row);
    }
  }

  addStatus(customerId: number | null, day: string, family: string, status: string, orders: number) {
    for (const customer_key of Deltas.keysOf(customerId)) {
      const key = `${customer_key}|${day}|${family}|${status}`;
      const row = this.statuses.get(key) ?? {
        business_id: this.businessId,
        customer_key,
        day,
        family,
        status,
        orders: 0,
      };
      row.orders += orders;
      this.statuses.set(key, row);
    }
  }

  addRevenue(
    customerId: number | null,
    day: string,
    family: string,
    currency: string,
    amountMinor: number,
    orders: number,
  ) {
    for (const customer_key of Deltas.keysOf(customerId)) {
      const key = `${customer_key}|${day}|${family}|${currency}`;
      const row = this.revenue.get(key) ?? {
        business_id: this.businessId,
        customer_key,
        day,
        family,
        currency,
        amount_minor: 0,
        orders: 0,
      };
      row.amount_minor += amountMinor;
      row.orders += orders;
      this.revenue.set(key, row);
    }
  }

  addReason(
    customerId: number | null,
    day: string,
    kind: 'failed_attempt' | 'returned',
    code: string,
    n: number,
  ) {
    for (const customer_key of Deltas.keysOf(customerId)) {
      const key = `${customer_key}|${day}|${kind}|${code}`;
      const row = this.reasons.get(key) ?? {
        business_id: this.businessId,
        customer_key,
        day,
        kind,
        code,
        n: 0,
      };
      row.n += n;
      this.reasons.set(key, row);
    }
  }

  /** Drops the status rows that add nothing: a status an order passed through within one change. */
  dropPassedThrough(): void {
    for (const [key, row] of this.statuses) if (row.orders === 0) this.statuses.delete(key);
  }

  get size(): number {
    return (
      this.daily.size + this.statuses.size + this.revenue.size + this.reasons.size + this.exceptions.length
    );
  }
}

/** Rows in key order, so two changes touching the same rows lock them in the same order. */
function sorted<T>(rows: Map<string, T>): T[] {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** The advisory lock class of the rollup; the key is the business. */
const LOCK = sql`hashtext('analytics')`;
const BATCH = 2000;
const slice = <T>(rows: T[], index: number) => rows.slice(index * BATCH, (index + 1) * BATCH);
const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;
const added = (table: string, columns: readonly string[]) =>
  sql.raw(columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', '));

/**
 * Adds the deltas to the rollup: `n = n + excluded.n` upserts, exact under concurrent changes,
 * in the caller's transaction (so a rolled-back change leaves the rollup as it was). One
 * statement writes every table (a change costs one round trip); `lock` first takes the shared
 * lock a rebuild waits on (every insert reads it, so it is taken before any row is written).
 */
export async function apply(db: Db, deltas: Deltas, options: { lock: boolean }): Promise<void> {
  const tables = {
    daily: sorted(deltas.daily),
    statuses: sorted(deltas.statuses),
    revenue: sorted(deltas.revenue),
    reasons: sorted(deltas.reasons),
    exceptions: deltas.exceptions.map((row) => ({ ...row, business_id: deltas.businessId })),
  };
  const rounds = Math.max(...Object.values(tables).map((rows) => Math.ceil(rows.length / BATCH)));
  const lock = options.lock
    ? sql`SELECT pg_advisory_xact_lock_shared(${LOCK}, ${deltas.businessId}::int)`
    : sql`SELECT 1`;
  // Each table's upsert, as one CTE of the statement; a table with no rows this round is left out
  // (a status change touches two or three: a smaller statement plans faster).
  const upserts = {
    daily: (rows: unknown[]) => sql`
        INSERT INTO analytics_daily
        SELECT r.* FROM jsonb_populate_recordset(NULL::analytics_daily, ${json(rows)}) r, lock
        ON CONFLICT (business_id, customer_key, day, family) DO UPDATE SET ${added('analytics_daily', DAILY_COUNTERS)}`,
    statuses: (rows: unknown[]) => sql`
        INSERT INTO analytics_statuses
        SELECT r.* FROM jsonb_populate_recordset(NULL::analytics_statuses, ${json(rows)}) r, lock
        ON CONFLICT (business_id, customer_key, day, family, status) DO UPDATE SET ${added('analytics_statuses', ['orders'])}`,
    revenue: (rows: unknown[]) => sql`
        INSERT INTO analytics_revenue
        SELECT r.* FROM jsonb_populate_recordset(NULL::analytics_revenue, ${json(rows)}) r, lock
        ON CONFLICT (business_id, customer_key, day, family, currency)
        DO UPDATE SET ${added('analytics_revenue', ['amount_minor', 'orders'])}`,
    reasons: (rows: unknown[]) => sql`
        INSERT INTO analytics_reasons
        SELECT r.* FROM jsonb_populate_recordset(NULL::analytics_reasons, ${json(rows)}) r, lock
        ON CONFLICT (business_id, customer_key, day, kind, code) DO UPDATE SET ${added('analytics_reasons', ['n'])}`,
    exceptions: (rows: unknown[]) => sql`
        INSERT INTO analytics_exceptions
          (business_id, day, at, order_id, order_ref, customer_user_id, family, kind, reason_code, note)
        SELECT r.business_id, r.day, r.at, r.order_id, r.order_ref, r.customer_user_id, r.family, r.kind,
               r.reason_code, r.note
        FROM jsonb_populate_recordset(NULL::analytics_exceptions, ${json(rows)}) r, lock`,
  };
  for (let round = 0; round < rounds; round++) {
    const parts = (Object.keys(upserts) as Array<keyof typeof upserts>)
      .map((table) => ({ table, rows: slice<unknown>(tables[table], round) }))
      .filter(({ rows }) => rows.length > 0)
      .map(({ table, rows }) => sql`${sql.id(table)} AS (${upserts[table](rows)})`);
    await sql`WITH lock AS MATERIALIZED (${lock}), ${sql.join(parts, sql`, `)} SELECT 1`.execute(db);
  }
}

/** Taken by a rebuild: it waits for the changes in flight and holds new ones until it commits. */
export async function lockExclusive(db: Db, businessId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${LOCK}, ${businessId}::int)`.execute(db);
}

export async function clear(db: Db, businessId: number): Promise<void> {
  for (const table of [
    'analytics_daily',
    'analytics_statuses',
    'analytics_revenue',
    'analytics_reasons',
    'analytics_exceptions',
  ] as const) {
    await db.deleteFrom(table).where('business_id', '=', businessId).execute();
  }
}

export interface Range {
  businessId: number;
  customerKey: number;
  from: string;
  to: string;
}

export function familyTotals(db: Db, range: Range) {
  return db
    .selectFrom('analytics_daily')
    .where('business_id', '=', range.businessId)
    .where('customer_key', '=', range.customerKey)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy('family')
    .select((eb) => [
      'family',
      ...DAILY_COUNTERS.map((name) => sql<number>`sum(${eb.ref(name)})::bigint`.as(name)),
    ])
    .orderBy('family')
    .execute();
}

/** The counters of each of these days, the whole business's (the digest's figures). */
export function dayTotals(db: Db, businessId: number, days: string[]) {
  return db
    .selectFrom('analytics_daily')
    .where('business_id', '=', businessId)
    .where('customer_key', '=', WHOLE_BUSINESS)
    .where('day', 'in', days)
    .groupBy('day')
    .select((eb) => [
      'day',
      ...DAILY_COUNTERS.map((name) => sql<number>`sum(${eb.ref(name)})::bigint`.as(name)),
    ])
    .execute();
}

export function statusTotals(db: Db, range: Range) {
  return db
    .selectFrom('analytics_statuses')
    .where('business_id', '=', range.businessId)
    .where('customer_key', '=', range.customerKey)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy(['family', 'status'])
    .select(['family', 'status', sql<number>`sum(orders)::bigint`.as('orders')])
    .having(sql`sum(orders)`, '<>', 0)
    .execute();
}

export function revenueTotals(db: Db, range: Range) {
  return db
    .selectFrom('analytics_revenue')
    .where('business_id', '=', range.businessId)
    .where('customer_key', '=', range.customerKey)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy(['family', 'currency'])
    .select([
      'family',
      'currency',
      sql<number>`sum(amount_minor)::bigint`.as('amount_minor'),
      sql<number>`sum(orders)::bigint`.as('orders'),
    ])
    .having(sql`sum(orders)`, '<>', 0)
    .orderBy('family')
    .orderBy('currency')
    .execute();
}

export function topReasons(db: Db, range: Range, limit: number) {
  return db
    .selectFrom('analytics_reasons')
    .where('business_id', '=', range.businessId)
    .where('customer_key', '=', range.customerKey)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy(['kind', 'code'])
    .select(['kind', 'code', sql<number>`sum(n)::bigint`.as('n')])
    .having(sql`sum(n)`, '>', 0)
    .orderBy(sql`sum(n)`, 'desc')
    .orderBy('kind')
    .orderBy('code')
    .limit(limit)
    .execute();
}

/** A day's failed attempts and returns, in the order they happened, and how many there were. */
export async function exceptionsOf(db: Db, businessId: number, day: string, limit: number) {
  const rows = await db
    .selectFrom('analytics_exceptions')
    .where('business_id', '=', businessId)
    .where('day', '=', day)
    .orderBy('at')
    .orderBy('id')
    .limit(limit)
    .selectAll()
    .execute();
  const { n } = await db
    .selectFrom('analytics_exceptions')
    .where('business_id', '=', businessId)
    .where('day', '=', day)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

/** Every row of a business's rollup, zero rows left out, in key order. */
export async function snapshot(db: Db, businessId: number) {
  const daily = await db
    .selectFrom('analytics_daily')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('customer_key')
    .orderBy('day')
    .orderBy('family')
    .execute();
  const statuses = await db
    .selectFrom('analytics_statuses')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('orders', '<>', 0)
    .orderBy('customer_key')
    .orderBy('day')
    .orderBy('family')
    .orderBy('status')
    .execute();
  const revenue = await db
    .selectFrom('analytics_revenue')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('orders', '<>', 0)
    .orderBy('customer_key')
    .orderBy('day')
    .orderBy('family')
    .orderBy('currency')
    .execute();
  const reasons = await db
    .selectFrom('analytics_reasons')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('n', '<>', 0)
    .orderBy('customer_key')
    .orderBy('day')
    .orderBy('kind')
    .orderBy('code')
    .execute();
  const exceptions = await db
    .selectFrom('analytics_exceptions')
    .select([
      'day',
      'at',
      'order_id',
      'order_ref',
      'customer_user_id',
      'family',
      'kind',
      'reason_code',
      'note',
    ])
    .where('business_id', '=', businessId)
    .orderBy('at')
    .orderBy('order_id')
    .execute();
  return { daily, statuses, revenue, reasons, exceptions };
}
