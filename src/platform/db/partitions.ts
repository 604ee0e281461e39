import { sql } from 'kysely';
import type { Db, Queryable } from './database.ts';

/**
 * A table range-partitioned by month (UTC) of one timestamptz column, with partitions named
 * <table>_YYYY_MM and a DEFAULT partition <table>_default for rows no month takes (docs/history.md).
 */
export interface MonthlyHistory {
  table: string;
  timeColumn: string;
}

/** How many months after the current one the maintenance keeps ready. */
export const MONTHS_AHEAD = 3;

/** The first instant (UTC) of the month `date` falls in, `offset` months later. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** "2025-01" for January 2025. */
export function monthLabel(month: Date): string {
  return month.toISOString().slice(0, 7);
}

export function partitionName(history: MonthlyHistory, month: Date): string {
  return `${history.table}_${monthLabel(month).replace('-', '_')}`;
}

/** The month partitions attached now (the default partition aside), oldest first. */
export async function monthPartitions(
  db: Queryable,
  history: MonthlyHistory,
): Promise<{ name: string; month: Date }[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT child.relname AS name FROM pg_inherits
    JOIN pg_class child ON child.oid = pg_inherits.inhrelid
    WHERE pg_inherits.inhparent = ${history.table}::regclass`.execute(db);
  const pattern = new RegExp(`^${history.table}_(\\d{4})_(\\d{2})$`);
  return rows
    .flatMap(({ name }) => {
      const match = pattern.exec(name);
      return match ? [{ name, month: new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) }] : [];
    })
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

/**
 * One writer of a table's partitions at a time, across every instance of the service: the others
 * wait (within the pool's lock_timeout, DATABASE_TIMEOUT_MS), then find the work done.
 */
async function lockPartitionsOf(trx: Queryable, history: MonthlyHistory): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`tms partitions ${history.table}`}))`.execute(trx);
}

export interface CreatedPartition {
  name: string;
  /** Rows taken out of the default partition into this one. */
  moved: number;
}

/**
 * Creates the partition of `month` unless it is attached already. Rows of that month waiting in
 * the default partition move into it first (PostgreSQL refuses a partition whose range the
 * default partition holds rows of); the table is held for the few statements this takes.
 */
export async function createMonthPartition(
  db: Db,
  history: MonthlyHistory,
  month: Date,
): Promise<CreatedPartition | undefined> {
  const name = partitionName(history, month);
  return db.transaction().execute(async (trx) => {
    await lockPartitionsOf(trx, history);
    if ((await monthPartitions(trx, history)).some((partition) => partition.name === name)) return undefined;
    const parent = sql.id(history.table);
    const partition = sql.id(name);
    const fallback = sql.id(`${history.table}_default`);
    const column = sql.id(history.timeColumn);
    const from = month.toISOString();
    const to = monthStart(month, 1).toISOString();
    // The locks creating a partition takes anyway, taken first and in a writer's order: the tables
    // its foreign keys name (a new partition's keys lock them), then the table itself. A writer
    // changes an order and then writes its history; taking the table first, then waiting for the
    // orders that writer holds, was a deadlock (seen seeding the demo beside the start's upkeep).
    const { rows: referenced } = await sql<{ name: string }>`
      SELECT DISTINCT confrelid::regclass::text AS name FROM pg_constraint
      WHERE conrelid = ${history.table}::regclass AND contype = 'f'
      ORDER BY name`.execute(trx);
    if (referenced.length > 0) {
      const tables = sql.join(referenced.map(({ name }) => sql.raw(name)));
      await sql`LOCK TABLE ${tables} IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    }
    await sql`LOCK TABLE ${parent} IN ACCESS EXCLUSIVE MODE`.execute(trx);
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM ${fallback}
      WHERE ${column} >= ${from}::timestamptz AND ${column} < ${to}::timestamptz`.execute(trx);
    const waiting = rows[0]!.waiting;
    const bounds = sql`FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`;
    if (waiting === 0) {
      await sql`CREATE TABLE ${partition} PARTITION OF ${parent} ${bounds}`.execute(trx);
    } else {
      await sql`CREATE TABLE ${partition} (LIKE ${parent} INCLUDING DEFAULTS)`.execute(trx);
      await sql`
        WITH moved AS (
          DELETE FROM ${fallback}
          WHERE ${column} >= ${from}::timestamptz AND ${column} < ${to}::timestamptz
          RETURNING *
        )
        INSERT INTO ${partition} SELECT * FROM moved`.execute(trx);
      await sql`ALTER TABLE ${parent} ATTACH PARTITION ${partition} ${bounds}`.execute(trx);
    }
    return { name, moved: waiting };
  });
}

/**
 * Makes sure the partitions of the current month and the MONTHS_AHEAD after it exist: run at the
 * service's start and daily, by any number of instances at once (one creates, the others find it
 * done). Returns what it created.
 */
export async function ensureMonthPartitions(
  db: Db,
  history: MonthlyHistory,
  now: Date,
  monthsAhead = MONTHS_AHEAD,
): Promise<CreatedPartition[]> {
  const attached = new Set((await monthPartitions(db, history)).map((partition) => partition.name));
  const created: CreatedPartition[] = [];
  for (let offset = 0; offset <= monthsAhead; offset++) {
    const month = monthStart(now, offset);
    if (attached.has(partitionName(history, month))) continue;
    const partition = await createMonthPartition(db, history, month);
    if (partition) created.push(partition);
  }
  return created;
}

/**
 * Detaches the month partitions before `before` (a month's first instant), oldest first, each in
 * a transaction of its own; the detached tables stay in the database, under their names, for the
 * operator to archive or drop. Not CONCURRENTLY: PostgreSQL refuses it on a table with a default
 * partition, so each detach holds the table for a moment. The current month and later are kept.
 */
export async function detachMonthsBefore(
  db: Db,
  history: MonthlyHistory,
  before: Date,
  now: Date,
  progress: (name: string) => void = () => {},
): Promise<string[]> {
  if (before.getTime() > monthStart(now).getTime())
    throw new Error(
      `the current month (${monthLabel(monthStart(now))}) and later months are written to: detach months before it only`,
    );
  const detached: string[] = [];
  for (const { name, month } of await monthPartitions(db, history)) {
    if (month.getTime() >= before.getTime()) break;
    const done = await db.transaction().execute(async (trx) => {
      await lockPartitionsOf(trx, history);
      // Another run may have detached it since the list was read.
      if (!(await monthPartitions(trx, history)).some((partition) => partition.name === name)) return false;
      await sql`ALTER TABLE ${sql.id(history.table)} DETACH PARTITION ${sql.id(name)}`.execute(trx);
      return true;
    });
    if (!done) continue;
    detached.push(name);
    progress(name);
  }
  return detached;
}
