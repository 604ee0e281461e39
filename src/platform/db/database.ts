import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// int8 ids and count(*) arrive as strings; every id we issue fits in a double, so parse them here once.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// A calendar date is not an instant: keep it as YYYY-MM-DD instead of a Date at local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** A value for a jsonb column: node-pg would send a JS array as a PostgreSQL array, not as JSON. */
export const jsonb = (value: unknown) => sql`${JSON.stringify(value)}::jsonb` as never;

export type Db = Kysely<Database>;
/** A handle on which queries run: the pool, or an open transaction. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function openDatabase(url: string, options: { maxConnections?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // A dead server must not hang requests forever.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    // Kysely's destroy ends the pool it was given.
    close: () => db.destroy(),
  };
}
