import { randomUUID } from 'node:crypto';
import type { Executor } from '../../platform/catalog/executor.ts';
import {
  type BackgroundCalls,
  JobAlreadyDone,
  type JobCall,
  type JobDesk,
  type JobRun,
  type QueuedCall,
} from '../../platform/catalog/jobs.ts';
import type { Caller, Door } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, inTransaction, type Queryable } from '../../platform/db/database.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { errorMessage, type Language } from '../../platform/i18n/index.ts';
import type { JobMessage, JobQueue } from '../../platform/jobs/queue.ts';
import * as repo from './repository.ts';
import { jobView } from './view.ts';

/** Progress is written at most this often: a search reporting every few milliseconds stays cheap. */
const PROGRESS_EVERY_MS = 500;

export interface JobBoardDeps {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  catalog: Catalog;
  /** The caller a token signs in as it stands now: null when revoked, expired or of a disabled account. */
  callerOfToken(db: Queryable, tokenId: number, now: Date): Promise<Caller | null>;
  /** Seconds a worker may hold a job beyond the operation's own budget before it is taken for dead. */
  expiryMarginSeconds: number;
  /** A fault that is no refusal: the job fails with INTERNAL_ERROR, and this says why. */
  onFault(error: unknown, jobId: string): void;
  /**
   * Tells the person who started a job how it stands, on their own live-push topic, in `db`'s
   * transaction (docs/jobs.md, "Progress").
   */
  tell(db: Queryable, businessId: number, userId: number, news: JobNews): Promise<void>;
}

/** A push of a job's state: thin, the job itself is read with get_job. */
export type JobNews = {
  type: 'job';
  job: { id: string; operation: string; status: string; progress: number };
};

/**
 * Where calls become jobs and jobs are run: the job's row and its queue message are written in one
 * transaction; a worker runs the call through the executor as its caller, whose token and account
 * are checked again, and the outcome is kept with the operation's own writes (see JobRun).
 */
export class JobBoard implements JobDesk, BackgroundCalls {
  private executor: Executor | undefined;

  constructor(private readonly deps: JobBoardDeps) {}

  /** The executor runs the jobs, and hands this board the calls that become jobs: each needs the other. */
  connect(executor: Executor): void {
    this.executor = executor;
  }

  /** Takes jobs from the queue until `stop`. */
  start(): Promise<void> {
    return this.deps.queue.work((message) => this.run(message));
  }

  /** Stops taking jobs; those in hand have `graceMs` to finish, else are left to be taken up again. */
  stop(graceMs: number): Promise<void> {
    return this.deps.queue.stop(graceMs);
  }

  async enqueue(call: JobCall): Promise<{ resource: unknown; location: string }> {
    const { db, queue } = this.deps;
    await queue.ready();
    const row = await db.transaction().execute((trx) =>
      this.insert(trx, {
        business: call.business,
        operation: call.operation.name,
        input: call.input,
        userId: call.caller.userId,
        tokenId: call.caller.tokenId,
        door: call.door,
        lang: call.lang,
        budgetSeconds: call.budgetSeconds,
      }),
    );
    queue.nudge();
    // A contractor acting in one of several businesses names it when reading the job back.
    const query = call.caller.businessId === call.business ? '' : `?business_id=${call.business}`;
    return { resource: { result: true, job: jobView(row) }, location: `/api/v1/jobs/${row.id}${query}` };
  }

  /**
   * Queues a call the service makes by itself (door `system`), in `db`'s transaction: the job and
   * its message exist only if that transaction commits. Its budget is the operation's own.
   */
  async enqueueWithin(db: Queryable, call: QueuedCall): Promise<string> {
    const operation = this.deps.catalog.get(call.operation);
    if (!operation?.job) throw new Error(`${call.operation} does not run as a job`);
    await this.deps.queue.ready();
    const row = await this.insert(db, {
      ...call,
      door: 'system',
      budgetSeconds: operation.job.budgetSeconds(call.input),
    });
    // A worker of this instance may look before the transaction commits: others poll anyway.
    this.deps.queue.nudge();
    return row.id;
  }

  /** The job's row and its queue message, on `db` (the transaction they commit in together). */
  private async insert(
    db: Queryable,
    call: Omit<QueuedCall, 'lang'> & { lang: string; door: Door; budgetSeconds: number },
  ) {
    const id = randomUUID();
    const row = await repo.insertJob(db, {
      business_id: call.business,
      id,
      operation: call.operation,
      input: call.input,
      user_id: call.userId,
      token_id: call.tokenId,
      door: call.door,
      lang: call.lang,
      created_at: this.deps.clock.now(),
    });
    const expireIn = Math.ceil(call.budgetSeconds + this.deps.expiryMarginSeconds);
    await this.deps.queue.send(db, { business_id: call.business, id }, expireIn);
    return row;
  }

  /** Runs one job's message; a job found done (a message taken up again after a crash) is left as it is. */
  async run(message: JobMessage): Promise<void> {
    const { db, clock, catalog } = this.deps;
    const executor = this.executor;
    if (!executor) throw new Error('The job board runs jobs once connected to the executor');
    const { business_id: businessId, id } = message;
    const job = await repo.findJob(db, businessId, id);
    if (!job || isDone(job.status)) return;
    const tell = (on: Queryable, status: string, progress: number) =>
      this.deps.tell(on, businessId, job.user_id, {
        type: 'job',
        job: { id, operation: job.operation, status, progress },
      });
    await db.transaction().execute(async (trx) => {
      await repo.markRunning(trx, businessId, id, clock.now());
      await tell(trx, 'running', job.progress);
    });
    const lang = job.lang as Language;
    let finished = false;
    const finish = async (on: Queryable, outcome: repo.JobOutcome) => {
      await repo.finishJob(on, businessId, id, outcome, clock.now());
      await tell(on, 'result' in outcome ? 'succeeded' : 'failed', 'result' in outcome ? 100 : job.progress);
    };
    const run: JobRun = {
      business: businessId,
      progress: this.progressOf(businessId, id, job.progress, (progress) => tell(db, 'running', progress)),
      begin: (trx) => repo.holdForRun(trx, businessId, id),
      finish: async (trx, ending) => {
        await finish(
          trx,
          'result' in ending ? { result: ending.result } : { error: errorOf(ending.refusal, lang) },
        );
        finished = true;
      },
    };
    try {
      const operation = catalog.get(job.operation);
      if (!operation) throw new Error(`Job ${id} names ${job.operation}, which the catalog no longer has`);
      const caller = await this.deps.callerOfToken(db, job.token_id, clock.now());
      if (!caller || caller.userId !== job.user_id) throw new AppError('UNAUTHENTICATED');
      const result = await executor.execute(operation, job.input, {
        bearer: undefined,
        signedIn: caller,
        door: job.door as Door,
        lang,
        requestId: `job-${id}`,
        // Confirmed when it was accepted: the executor asked then, as for any call.
        confirmed: true,
        answer: {},
        job: run,
      });
      // Operations that keep no transaction of the executor's (reads, stepwise writes) end here.
      if (!finished) await inTransaction(db, (trx) => finish(trx, { result }));
    } catch (error) {
      if (error instanceof JobAlreadyDone) return;
      const now = await repo.findJob(db, businessId, id);
      if (!now || isDone(now.status)) return;
      if (!isAppError(error)) this.deps.onFault(error, id);
      const refusal = isAppError(error) ? error : new AppError('INTERNAL_ERROR');
      await inTransaction(db, (trx) => finish(trx, { error: errorOf(refusal, lang) }));
    }
  }

  /**
   * The run's progress on its row, written at most every PROGRESS_EVERY_MS, never backwards (not
   * below what an earlier run of the job reached, `reached`), and told to who started it.
   */
  private progressOf(
    businessId: number,
    id: string,
    reached: number,
    told: (progress: number) => Promise<void>,
  ): (percent: number) => void {
    let shown = reached;
    let writtenAt = 0;
    return (percent) => {
      const progress = Math.max(0, Math.min(99, Math.floor(percent)));
      const now = Date.now();
      if (progress <= shown || now - writtenAt < PROGRESS_EVERY_MS) return;
      shown = progress;
      writtenAt = now;
      void repo
        .setProgress(this.deps.db, businessId, id, progress)
        // What the row holds: another run of the job may have got further meanwhile.
        .then((held) => (held === undefined ? undefined : told(held)))
        .catch(() => {});
    };
  }
}

function isDone(status: string): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** A refusal as the job keeps it: as the synchronous call would have answered it. */
function errorOf(refusal: AppError, lang: Language) {
  return {
    code: refusal.code,
    message: errorMessage(refusal.code, lang, refusal.options.params),
    ...(refusal.options.details ? { details: refusal.options.details } : {}),
  };
}
