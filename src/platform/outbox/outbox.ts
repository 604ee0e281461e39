import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import { type Db, jsonb, type Queryable } from '../db/database.ts';

/** The channel workers LISTEN on; a NOTIFY in the writing transaction fires only if it commits. */
const CHANNEL = 'tms_outbox';

export interface OutboxMessage {
  id: number;
  messageId: string;
  topic: string;
  payload: unknown;
  /** 1 on the first attempt. */
  attempt: number;
}

/** What a handler decides: done, or try again at a time of its choosing (or give up: done with an error). */
export type HandlerOutcome = { done: true; error?: string } | { retryAt: Date; error: string };
export type OutboxHandler = (message: OutboxMessage) => Promise<HandlerOutcome>;

/** Writes a message in the caller's transaction: it exists exactly when the change that caused it commits. */
export async function enqueue(
  db: Queryable,
  clock: Clock,
  message: {
    topic: string;
    businessId: number | null;
    payload: unknown;
    /** Stable across attempts and replays: what receivers deduplicate on. */
    messageId: string;
  },
): Promise<void> {
  const now = clock.now();
  await db
    .insertInto('outbox')
    .values({
      message_id: message.messageId,
      topic: message.topic,
      business_id: message.businessId,
      payload: jsonb(message.payload),
      created_at: now,
      available_at: now,
      leased_until: null,
      leased_by: null,
      done_at: null,
      last_error: null,
    })
    .execute();
  await sql`SELECT pg_notify(${CHANNEL}, ${message.topic})`.execute(db);
}

export interface WorkerOptions {
  /** How long a claimed message stays leased; a crashed worker's lease expires and another takes over. */
  leaseMs: number;
  batchSize: number;
  /** Fallback polling when no notification arrives (retries coming due, a lost connection). */
  pollMs: number;
}

const DEFAULT_WORKER_OPTIONS: WorkerOptions = { leaseMs: 60_000, batchSize: 20, pollMs: 2_000 };

/**
 * Drains the outbox: claims due messages with leases (`FOR UPDATE SKIP LOCKED`, so several
 * instances never take the same one), runs their topic's handler, and records the outcome.
 * Woken by LISTEN/NOTIFY as soon as a writing transaction commits, and by a slow poll.
 * Delivery is at least once: a crash between sending and recording means a second attempt with
 * the same message id.
 */
export class OutboxWorker {
  private readonly handlers = new Map<string, OutboxHandler>();
  private readonly name = `worker_${randomUUID().slice(0, 8)}`;
  private running = false;
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private listener: pg.PoolClient | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    options: Partial<WorkerOptions> = {},
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
  }

  private readonly options: WorkerOptions;

  handle(topic: string, handler: OutboxHandler): this {
    this.handlers.set(topic, handler);
    return this;
  }

  /** Starts draining; with a pool, listens for notifications on a connection of its own. */
  async start(pool?: pg.Pool): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    if (pool) {
      this.listener = await pool.connect();
      this.listener.on('notification', () => this.poke());
      await this.listener.query(`LISTEN ${CHANNEL}`);
    }
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
    this.loop = this.run();
  }

  /** Wakes the worker now (a notification, a test that moved the clock). */
  poke(): void {
    this.wake?.();
  }

  /** Stops claiming, lets the messages in hand finish, and releases the listening connection. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping = true;
    clearInterval(this.timer);
    this.poke();
    await this.loop;
    if (this.listener) {
      await this.listener.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
      this.listener.release();
      this.listener = undefined;
    }
  }

  /** Claims and handles due messages until none is left (or the worker stops); returns how many it handled. */
  async drainOnce(): Promise<number> {
    let handled = 0;
    for (;;) {
      const batch = await this.claim();
      for (const message of batch) await this.process(message);
      handled += batch.length;
      if (batch.length === 0 || this.stopping) return handled;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const nextWake = new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      try {
        await this.drainOnce();
      } catch {
        // The database is away; the next poll tries again.
      }
      if (!this.running) break;
      await nextWake;
    }
  }

  private async claim(): Promise<OutboxMessage[]> {
    const now = this.clock.now();
    const leasedUntil = new Date(now.getTime() + this.options.leaseMs);
    const topics = [...this.handlers.keys()];
    if (topics.length === 0) return [];
    const rows = await sql<{
      id: number;
      message_id: string;
      topic: string;
      payload: unknown;
      attempts: number;
    }>`
      UPDATE outbox SET leased_until = ${leasedUntil}, leased_by = ${this.name}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM outbox
        WHERE done_at IS NULL AND available_at <= ${now}
          AND (leased_until IS NULL OR leased_until < ${now})
          AND topic = ANY(${topics})
        ORDER BY available_at, id
        LIMIT ${this.options.batchSize}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, message_id, topic, payload, attempts`.execute(this.db);
    return rows.rows.map((row) => ({
      id: row.id,
      messageId: row.message_id,
      topic: row.topic,
      payload: row.payload,
      attempt: row.attempts,
    }));
  }

  private async process(message: OutboxMessage): Promise<void> {
    let outcome: HandlerOutcome;
    try {
      outcome = await this.handlers.get(message.topic)!(message);
    } catch (error) {
      outcome = { retryAt: new Date(this.clock.now().getTime() + 60_000), error: String(error) };
    }
    const update =
      'done' in outcome
        ? { done_at: this.clock.now(), leased_until: null, last_error: outcome.error ?? null }
        : { available_at: outcome.retryAt, leased_until: null, last_error: outcome.error };
    // Only the lease holder records the outcome: a worker whose lease ran out lost the message.
    await this.db
      .updateTable('outbox')
      .set(update)
      .where('id', '=', message.id)
      .where('leased_by', '=', this.name)
      .execute();
  }
}
