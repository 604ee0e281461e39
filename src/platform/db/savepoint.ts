import { sql } from 'kysely';
import type { Queryable } from './database.ts';

/** Savepoints opened by this process so far: each takes a name no other one has. */
let opened = 0;

/**
 * Runs work under a savepoint of its own inside the caller's transaction: if the work throws, what
 * it wrote is undone and the transaction goes on; with `undo` it is always undone (a dry run).
 * Every savepoint has a name of its own: nested runs sharing one name let an inner rollback stand
 * in for the outer one, so a dry run around a failed nested run kept what it wrote in between.
 */
export async function underSavepoint<T>(
  db: Queryable,
  work: () => Promise<T>,
  options: { undo?: boolean } = {},
): Promise<T> {
  const name = sql.id(`nested_${++opened}`);
  await sql`SAVEPOINT ${name}`.execute(db);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT ${name}`.execute(db);
    await sql`RELEASE SAVEPOINT ${name}`.execute(db);
    throw error;
  }
  if (options.undo) await sql`ROLLBACK TO SAVEPOINT ${name}`.execute(db);
  await sql`RELEASE SAVEPOINT ${name}`.execute(db);
  return result;
}
