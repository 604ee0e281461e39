import { CompiledQuery, sql } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Db, Queryable } from '../db/database.ts';

/** pg-boss keeps its tables in a schema of its own, beside the service's, in the same database. */
export const JOB_SCHEMA = 'pgboss';
/** Every job travels on one queue: what to run is in the job's own row. */
const QUEUE = 'operation-jobs';
/** Starts tried before giving up: enough for instances racing on a new database (see startBossRacing). */
const START_ATTEMPTS = 5;

export interface JobQueueSettings {
  /** How often an idle worker asks for a job: the most a queued job waits for an idle worker. */
  pollingSeconds: number;
  /** How often expired jobs (their worker died) are put back for another worker. */
  maintenanceSeconds: number;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How many times a job whose worker died is taken up again. */
  retryLimit: number;
}

/** What a job message carries: the job's row, found by its business and id. */
export interface JobMessage {
  business_id: number;
  id: string;
}

/**
 * The job queue on the service's own PostgreSQL (pg-boss): a message is sent in the transaction
 * that writes the job's row, so a job exists exactly when its message does. pg-boss installs its
 * schema on the first start, under its own lock, so any number of instances may start at once.
 */
export class JobQueue {
  /** The running pg-boss, once started; a stopped one is not started again (its maintenance would not run). */
  private starting: Promise<PgBoss> | undefined;
  /** The started pg-boss, for what must not wait on a start (nudging its workers). */
  private boss: PgBoss | undefined;
  private working = false;
  /** This process's pg-boss workers, while working. */
  private workers: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly settings: JobQueueSettings,
    private readonly onError: (error: Error) => void,
  ) {}

  /** The schema and the queue exist: once per start, on the first send or the start of work. */
  async ready(): Promise<void> {
    await this.started();
  }

  private started(): Promise<PgBoss> {
    if (this.starting) return this.starting;
    const starting = (async () => {
      const boss = await this.startBossRacing();
      this.boss = boss;
      return boss;
    })();
    this.starting = starting;
    // A start that failed is tried again by the next caller.
    starting.catch(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    return starting;
  }

  /**
   * Instances starting together on a new database race twice: both install the schema, one after
   * the other under pg-boss's lock, and the second fails on what the first made; both create the
   * queue's partition, which PostgreSQL may end as a deadlock, one of them aborted. Each loser
   * starts afresh a moment later and finds the work done; a few tries cover any number of them.
   */
  private async startBossRacing(): Promise<PgBoss> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startBoss();
      } catch (error) {
        if (attempt >= START_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
      }
    }
  }

  private async startBoss(): Promise<PgBoss> {
    // Loaded here: a service that never runs a job never loads it (a tenth of a second at start).
    const { default: PgBoss } = await import('pg-boss');
    const boss = new PgBoss({
      db: sqlOnPool(this.db),
      schema: JOB_SCHEMA,
      supervise: true,
      schedule: false,
      migrate: true,
      maintenanceIntervalSeconds: this.settings.maintenanceSeconds,
    });
    boss.on('error', this.onError);
    try {
      await boss.start();
      await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: this.settings.retryLimit, retryDelay: 0 });
      return boss;
    } catch (error) {
      // A start that failed midway may have begun its maintenance timer: left running, it would
      // keep the process alive and work on a queue nobody stops.
      await boss.stop({ graceful: false, close: false }).catch(() => {});
      throw error;
    }
  }

  /**
   * Sends a job's message on `trx`, the transaction that writes its row. A worker holding it past
   * `expireInSeconds` is taken for dead: the job goes back to the queue for another.
   */
  async send(trx: Queryable, message: JobMessage, expireInSeconds: number): Promise<void> {
    const boss = await this.started();
    await boss.send(QUEUE, message, {
      id: message.id,
      expireInSeconds,
      retryLimit: this.settings.retryLimit,
      retryDelay: 0,
      db: sqlOn(trx),
    });
  }

  /**
   * Runs jobs as they come, `concurrency` at a time, until `stop`. A worker that found a job asks
   * again at once rather than after its polling interval, so a backlog drains at the pace of the
   * work, not one job a worker a poll.
   */
  async work(run: (message: JobMessage) => Promise<void>): Promise<void> {
    const boss = await this.started();
    if (this.working) return;
    this.working = true;
    for (let worker = 0; worker < this.settings.concurrency; worker++) {
      const id: string = await boss.work<JobMessage>(
        QUEUE,
        { pollingIntervalSeconds: this.settings.pollingSeconds, batchSize: 1 },
        async ([job]) => {
          if (!job) return;
          try {
            await run(job.data);
          } finally {
            boss.notifyWorker(id);
          }
        },
      );
      this.workers.push(id);
    }
  }

  /**
   * Tells this process's idle workers that a job was just committed: they ask for it now instead
   * of at their next poll. Other instances' workers find it at theirs.
   */
  nudge(): void {
    const boss = this.boss;
    if (!boss) return;
    for (const id of this.workers) boss.notifyWorker(id);
  }

  /**
   * Stops taking jobs and waits up to `graceMs` for those in hand; one still running then is let
   * go, to be taken up again (at least once) by another worker.
   */
  async stop(graceMs: number): Promise<void> {
    const starting = this.starting;
    if (!starting) return;
    this.starting = undefined;
    this.boss = undefined;
    this.working = false;
    this.workers = [];
    const boss = await starting.catch(() => undefined);
    await boss?.stop({ graceful: true, wait: true, close: false, timeout: graceMs });
  }
}

/**
 * pg-boss's own statements, on a connection of the service's pool. Some are whole transactions in
 * one text (BEGIN ... COMMIT, installing its schema): one that fails midway leaves its connection
 * in the failed transaction, so it is rolled back before the connection goes back to the pool.
 */
function sqlOnPool(db: Db): PgBoss.Db {
  return {
    executeSql: (text, values) =>
      db.connection().execute(async (connection) => {
        try {
          return await sqlOn(connection).executeSql(text, values);
        } catch (error) {
          await sql`ROLLBACK`.execute(connection).catch(() => {});
          throw error;
        }
      }),
  };
}

/** pg-boss's statements on a connection, or inside one of the service's transactions. */
function sqlOn(db: Queryable): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const { rows } = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows };
    },
  };
}
