import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { JobError, JobStatus, JobsTables } from './tables.ts';

type Db = Queryable<JobsTables>;
export type JobRow = JobsTables['jobs'];

const json = <T>(value: T) => sql<T>`${JSON.stringify(value ?? null)}::jsonb`;

export async function insertJob(
  db: Db,
  row: Omit<JobRow, 'status' | 'progress' | 'result' | 'error' | 'attempts' | 'started_at' | 'finished_at'>,
): Promise<JobRow> {
  return db
    .insertInto('jobs')
    .values({ ...row, input: json(row.input), status: 'queued', progress: 0, attempts: 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findJob(db: Db, businessId: number, id: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A page of the business's jobs, newest first; only `userId`'s when given. */
export async function listJobs(
  db: Db,
  businessId: number,
  filter: { userId?: number; status?: JobStatus; operation?: string },
  window: { limit: number; offset: number },
): Promise<{ rows: JobRow[]; total: number }> {
  const base = db
    .selectFrom('jobs')
    .where('business_id', '=', businessId)
    .$if(filter.userId !== undefined, (q) => q.where('user_id', '=', filter.userId!))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.operation !== undefined, (q) => q.where('operation', '=', filter.operation!));
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A worker took the job (again, after one that died): running, from its first start. */
export async function markRunning(db: Db, businessId: number, id: string, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      started_at: eb.fn.coalesce('started_at', sql<Date>`${now}::timestamptz`),
      attempts: eb('attempts', '+', 1),
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/**
 * Raises a running job's progress, never lowers it: a run taken up again after its worker died
 * starts its own count over, below what the first run had reached. Answers the progress the row
 * now holds (none: the job is no longer running).
 */
export async function setProgress(
  db: Db,
  businessId: number,
  id: string,
  progress: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('jobs')
    .set((eb) => ({ progress: eb.fn('greatest', ['progress', eb.val(progress)]) }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('progress')
    .executeTakeFirst();
  return row?.progress;
}

/** The first key of the runs' transaction-level advisory locks (the second is the job's). */
const RUN_LOCK = 0x4a4f4253;

/**
 * Holds the job for one run until the transaction ends (a second run of it, by a worker that took
 * the first for dead, waits here) and tells whether it is still to be done.
 */
export async function holdForRun(db: Db, businessId: number, id: string): Promise<boolean> {
  await sql`SELECT pg_advisory_xact_lock(${RUN_LOCK}, hashtext(${id}))`.execute(db);
  const job = await findJob(db, businessId, id);
  return job !== undefined && job.status !== 'succeeded' && job.status !== 'failed';
}

/** How a job ended: what the call answered, or its refusal. */
export type JobOutcome = { result: unknown } | { error: JobError };

export async function finishJob(
  db: Db,
  businessId: number,
  id: string,
  outcome: JobOutcome,
  now: Date,
): Promise<void> {
  const succeeded = 'result' in outcome;
  await db
    .updateTable('jobs')
    .set((eb) => ({
      status: succeeded ? 'succeeded' : 'failed',
      progress: succeeded ? 100 : eb.ref('progress'),
      result: succeeded ? json(outcome.result) : null,
      error: succeeded ? null : json<JobError | null>(outcome.error),
      started_at: eb.fn.coalesce('started_at', sql<Date>`${now}::timestamptz`),
      finished_at: now,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
