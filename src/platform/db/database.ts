import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SelectQueryBuilder,
  sql,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { type PageWindow, type ReadPage, readPage } from '../pagination.ts';

// int8 ids and count(*) arrive as strings; every id we issue fits in a double, so parse them here once.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// A calendar date is not an instant: keep it as YYYY-MM-DD instead of a Date at local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** A value for a jsonb column: node-pg would send a JS array as a PostgreSQL array, not as JSON. */
export const jsonb = (value: unknown) => sql`${JSON.stringify(value)}::jsonb` as never;

/**
 * The service's database. The platform names no module's tables: a module sees the handle
 * through its own (`Queryable<OrdersTables>` in its repository), so a query on another module's
 * table does not compile there.
 */
// biome-ignore lint/suspicious/noExplicitAny: the untyped handle each module narrows to its own tables
export type Db = Kysely<any>;
/** A handle on which queries run, the pool or an open transaction, seen through `Tables`. */
// biome-ignore lint/suspicious/noExplicitAny: see Db
export type Queryable<Tables = any> = Kysely<Tables> | Transaction<Tables>;

/**
 * Runs `work` in a transaction of its own, or in the one `db` already is (a dry run's, which
 * rolls it back with the rest).
 */
export function inTransaction<Tables, T>(
  db: Queryable<Tables>,
  work: (trx: Transaction<Tables>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Tables>) : db.transaction().execute(work);
}

/**
 * Values read once per transaction: what several steps of one change read alike (a business's
 * settings, heard by several listeners of one status change), with no cache that could outlive
 * the change. Outside a transaction every read goes to the database.
 */
export class TransactionMemo<V> {
  private readonly values = new WeakMap<Queryable, Map<string, Promise<V>>>();

  read(db: Queryable, key: string, load: () => Promise<V>): Promise<V> {
    if (!db.isTransaction) return load();
    const values = this.values.get(db) ?? new Map<string, Promise<V>>();
    this.values.set(db, values);
    const value = values.get(key) ?? load();
    values.set(key, value);
    return value;
  }

  /** After a write to what was read, in this transaction. */
  forget(db: Queryable): void {
    this.values.delete(db);
  }
}

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * How long the service waits on PostgreSQL before it answers 503 instead: a server that stops
 * answering (frozen, partitioned) must not hold requests for long. `statementMs` bounds each
 * statement on the server (statement_timeout) and the wait for its answer in this process (a
 * frozen server cancels nothing); lock waits get the same bound (lock_timeout). A transaction left
 * idle for IDLE_IN_TRANSACTION_MS is ended by the server, so a stuck request cannot hold its locks.
 */
export interface DatabaseTimeouts {
  statementMs: number;
  connectMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 5_000, connectMs: 3_000 };

/**
 * Not tied to the statement bound: route building holds its transaction while it computes (up to
 * 10 s), whatever DATABASE_TIMEOUT_MS says.
 */
const IDLE_IN_TRANSACTION_MS = 60_000;

export function openDatabase(
  url: string,
  options: { maxConnections?: number; timeouts?: DatabaseTimeouts | 'none' } = {},
): DatabaseHandle {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    ...(timeouts === 'none'
      ? {}
      : {
          connectionTimeoutMillis: timeouts.connectMs,
          statement_timeout: timeouts.statementMs,
          lock_timeout: timeouts.statementMs,
          // A little longer than the server's own bound, so its own cancellation wins when it can.
          query_timeout: timeouts.statementMs + 500,
          idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
        }),
  });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  const db = new Kysely({ dialect: new PostgresDialect({ pool: givingUpUnanswered(pool) }) });
  return {
    db,
    pool,
    // Kysely's destroy ends the pool it was given, but only once Kysely has used it: a pool used
    // directly alone (a probe) would keep the process alive for its idle clients' timeout.
    close: async () => {
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * The pool as Kysely borrows from it, giving up a connection whose statement got no answer in
 * time (query_timeout): node-postgres would queue every later statement on it behind the
 * unanswered one, so a transaction's ROLLBACK would wait a second timeout, and the next request
 * lent the connection a third. Later statements on it fail at once, and the pool closes it.
 */
function givingUpUnanswered(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      let unanswered: Error | undefined;
      return {
        query: async (text: string, values: ReadonlyArray<unknown>) => {
          if (unanswered) throw unanswered;
          try {
            return await client.query(text, [...values]);
          } catch (error) {
            if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) unanswered = error;
            throw error;
          }
        },
        release: () => client.release(unanswered),
      } as unknown as PostgresPoolClient; // Kysely's cursor overload goes unused: no cursor is configured.
    },
    end: () => pool.end(),
  };
}

/** node-postgres's error when query_timeout passes: it has no code, only this message. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/** How many rows a filtered query matches (its own selection ignored). */
// biome-ignore lint/suspicious/noExplicitAny: any table of any module's query
export async function countOf(query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * A page of a filtered query (its rows selected) in the order of an id column, by page number or
 * after a cursor's row (platform/pagination.ts), with the counts its envelope needs.
 */
export function pageById<Row extends { id: number }>(
  // biome-ignore lint/suspicious/noExplicitAny: any table of any module's query
  query: SelectQueryBuilder<any, any, any>,
  window: PageWindow,
  order: 'asc' | 'desc',
  idColumn = 'id',
): Promise<ReadPage<Row>> {
  const id = sql.ref(idColumn);
  const [after, upTo] = order === 'asc' ? (['>', '<='] as const) : (['<', '>='] as const);
  return readPage(window, {
    rows: (afterId) =>
      query
        .$if(afterId !== undefined, (q) => q.where(id, after, afterId))
        .orderBy(id, order)
        .limit(window.limit)
        .offset(window.offset)
        .execute() as Promise<Row[]>,
    count: (upToId) => countOf(query.$if(upToId !== undefined, (q) => q.where(id, upTo, upToId))),
  });
}
