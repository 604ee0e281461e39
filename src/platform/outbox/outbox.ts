import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import { type Db, jsonb, type Queryable } from '../db/database.ts';

/** The channel workers LISTEN on; a NOTIFY in the writing transaction fires only if it commits. */
const CHANNEL = 'tms_outbox';
/** A notification naming an urgent message's row (`#42`) rather than a topic. */
const URGENT_MARK = '#';

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

export interface EnqueuedMessage {
  topic: string;
  businessId: number | null;
  payload: unknown;
  /** Stable across attempts and replays: what receivers deduplicate on. */
  messageId: string;
  /**
   * Not before this time (a deadline to act on, an offer's expiry): handled once due, within the
   * worker's polling interval (2 s by default) after it. Absent: at once.
   */
  availableAt?: Date;
  /**
   * A person waits on it (a locker door at a pickup): workers listening claim it by its row the
   * moment its transaction commits, outside the per-business lanes and without the claim's scan.
   * It still waits for a free slot of the worker, and a lost notification leaves it to the poll.
   */
  urgent?: boolean;
}

/** Writes a message in the caller's transaction: it exists exactly when the change that caused it commits. */
export async function enqueue(db: Queryable, clock: Clock, message: EnqueuedMessage): Promise<void> {
  await enqueueMany(db, clock, [message]);
}

/**
 * `enqueue` for the messages of one change (a scan's status steps and tracking events): the
 * rows and the notification of each topic in one statement, whatever their number.
 */
export async function enqueueMany(
  db: Queryable,
  clock: Clock,
  messages: readonly EnqueuedMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  const now = clock.now();
  // A worker wakes for each topic with messages for its lanes, and for each urgent message's row.
  const topics = [...new Set(messages.filter((message) => !message.urgent).map((message) => message.topic))];
  const urgent = messages.filter((message) => message.urgent).map((message) => message.messageId);
  // A data-modifying WITH runs whether or not the query reads it.
  await db
    .with('written', (q) =>
      q
        .insertInto('outbox')
        .values(
          messages.map((message) => ({
            message_id: message.messageId,
            topic: message.topic,
            business_id: message.businessId,
            payload: jsonb(message.payload),
            created_at: now,
            available_at: message.availableAt ?? now,
            leased_until: null,
            leased_by: null,
            done_at: null,
            last_error: null,
          })),
        )
        .returning(['id', 'message_id']),
    )
    .selectFrom(sql<{ topic: string }>`unnest(${topics}::text[])`.as('topic'))
    .select(sql`pg_notify(${CHANNEL}, topic)`.as('notified'))
    .unionAll((q) =>
      q
        .selectFrom('written')
        .select(sql`pg_notify(${CHANNEL}, ${URGENT_MARK} || written.id)`.as('notified'))
        .where('written.message_id', '=', sql<string>`ANY(${urgent}::text[])`),
    )
    .execute();
}

export interface WorkerOptions {
  /**
   * How long a claim lasts without news of its worker: the worker renews the leases of the
   * messages in hand every third of it (a heartbeat), so a slow delivery keeps its message while a
   * crashed worker's leases end within this time and another worker takes them over.
   */
  leaseMs: number;
  /** Messages this worker handles at once. */
  concurrency: number;
  /**
   * Messages of one business in hand at once, over every worker: a business with a long queue
   * (or a slow receiver) takes this many slots, and the others still get theirs at once.
   */
  perBusiness: number;
  /** Fallback polling when no notification arrives (retries coming due, a lost connection). */
  pollMs: number;
}

/**
 * How long the heartbeat keeps renewing one message's lease: far past any handler's own timeout
 * (a webhook's is at most 60 s), so only a handler that hangs for good loses its message.
 */
const MAX_HOLD_MS = 15 * 60_000;

const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  leaseMs: 10_000,
  concurrency: 16,
  perBusiness: 4,
  pollMs: 2_000,
};

/**
 * Drains the outbox: claims due messages with leases (`FOR UPDATE SKIP LOCKED`, so several
 * instances never take the same one), runs their topic's handlers, several at once, and records
 * the outcome. Claims are fair: each business's oldest messages first, at most `perBusiness` of
 * a business in hand at a time, so one business's backlog never delays another's messages.
 * The worker never waits on a message in hand before claiming more: it claims again whenever a
 * transaction commits (LISTEN/NOTIFY), a message in hand finishes, or the slow poll ticks, and a
 * wake-up that comes while a claim is under way makes that claim run once more.
 * Delivery is at least once: a crash between sending and recording means a second attempt with
 * the same message id.
 */
export class OutboxWorker {
  private readonly handlers = new Map<string, OutboxHandler>();
  private readonly name = `worker_${randomUUID().slice(0, 8)}`;
  private running = false;
  private stopping = false;
  private listener: pg.PoolClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly inHand = new Set<Promise<void>>();
  /** The rows of the messages being handled, whose leases the heartbeat renews, with their claim times. */
  private readonly held = new Map<number, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** The claim under way: one at a time, as two would only race each other for the same rows. */
  private claiming: Promise<void> | undefined;
  /** Something may have become claimable since the claim under way read the table. */
  private wanted = false;
  /** Messages handled since the worker was made (what drainOnce counts). */
  private handled = 0;
  private idleWaiters: Array<() => void> = [];

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
      this.listener = await listenForOutbox(pool, (payload) => this.hear(payload));
    }
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
    this.claimSoon();
  }

  /** A notification of the outbox channel, heard by this worker's listener or one it shares. */
  hear(payload: string): void {
    if (payload.startsWith(URGENT_MARK)) this.claimUrgent(Number(payload.slice(URGENT_MARK.length)));
    else this.poke();
  }

  /** Wakes the worker now (a notification, a test that moved the clock). */
  poke(): void {
    if (this.running) this.claimSoon();
  }

  /** Stops claiming, lets the messages in hand finish, and releases the listening connection. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping = true;
    clearInterval(this.timer);
    await this.idle();
    if (this.listener) {
      await stopListening(this.listener);
      this.listener = undefined;
    }
  }

  /**
   * Claims and handles due messages until none is left and none is in hand (or, stopping, until
   * the ones in hand are done); returns how many were handled meanwhile.
   */
  async drainOnce(): Promise<number> {
    const before = this.handled;
    this.claimSoon();
    await this.idle();
    return this.handled - before;
  }

  /** Claims now, or right after the claim under way (whose reading may predate what woke us). */
  private claimSoon(): void {
    this.wanted = true;
    if (this.claiming || this.stopping) return;
    const claiming: Promise<void> = this.claimWhileWanted().finally(() => {
      this.claiming = undefined;
      // A wake-up between the loop's last look and here is not lost.
      if (this.wanted) this.claimSoon();
      this.settle();
    });
    this.claiming = claiming;
  }

  private async claimWhileWanted(): Promise<void> {
    while (this.wanted && !this.stopping) {
      this.wanted = false;
      const free = this.options.concurrency - this.inHand.size;
      // Full: the next message to finish claims again.
      if (free <= 0) return;
      let batch: OutboxMessage[];
      try {
        batch = await this.claim(free);
      } catch {
        // The database is away; the next poll tries again.
        return;
      }
      for (const message of batch) this.begin(message);
    }
  }

  /**
   * An urgent message, claimed by its row alone (every listening worker tries; one wins), beside
   * any claim under way. Not while full: the next free slot's claim takes it, oldest first.
   */
  private claimUrgent(id: number): void {
    if (!this.running || this.stopping || !Number.isSafeInteger(id)) return;
    if (this.inHand.size >= this.options.concurrency) return;
    const now = this.clock.now();
    const claiming = sql<ClaimedRow>`
      UPDATE outbox SET leased_until = ${new Date(now.getTime() + this.options.leaseMs)},
        leased_by = ${this.name}, attempts = attempts + 1
      WHERE id = ${id} AND done_at IS NULL AND available_at <= ${now}
        AND topic = ANY(${[...this.handlers.keys()]}) AND (leased_until IS NULL OR leased_until < ${now})
      RETURNING id, message_id, topic, payload, attempts`
      .execute(this.db)
      .then(({ rows }) => {
        for (const row of rows) this.begin(messageOf(row));
      })
      // The database is away: the message waits for the poll, like any other.
      .catch(() => {})
      .finally(() => {
        this.inHand.delete(claiming);
        this.settle();
      });
    // Counted in hand while claiming, so that stop() and drainOnce() wait for it.
    this.inHand.add(claiming);
  }

  /** Handles a claimed message without waiting for it: the worker goes on claiming meanwhile. */
  private begin(message: OutboxMessage): void {
    this.held.set(message.id, this.clock.now().getTime());
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(100, this.options.leaseMs / 3));
      // Never what keeps a process alive: a message in hand is.
      this.heartbeat.unref();
    }
    // A failure to record the outcome (the database went away) leaves the lease to run out.
    const handling: Promise<void> = this.process(message)
      .catch(() => {})
      .finally(() => {
        this.held.delete(message.id);
        if (this.held.size === 0) {
          clearInterval(this.heartbeat);
          this.heartbeat = undefined;
        }
        this.inHand.delete(handling);
        this.handled++;
        // A slot is free, and this message's business may have its next one waiting.
        this.claimSoon();
        this.settle();
      });
    this.inHand.add(handling);
  }

  /**
   * The heartbeat: the leases of the messages in hand run for another full term. A lease this
   * worker lost meanwhile (it ran out, another worker took the message) is left to its new holder,
   * and so is one held past MAX_HOLD_MS: a handler that never ends does not keep its message for ever.
   */
  private async renewLeases(): Promise<void> {
    const now = this.clock.now().getTime();
    const renewed = [...this.held].filter(([, claimedAt]) => now - claimedAt < MAX_HOLD_MS).map(([id]) => id);
    if (renewed.length === 0) return;
    const leasedUntil = new Date(now + this.options.leaseMs);
    await this.db
      .updateTable('outbox')
      .set({ leased_until: leasedUntil })
      .where('id', 'in', renewed)
      .where('leased_by', '=', this.name)
      .where('done_at', 'is', null)
      .execute()
      // The database is away: the next beat tries again, and past the lease another worker may take over.
      .catch(() => {});
  }

  /** Resolves once no claim is under way and no message is in hand. */
  private idle(): Promise<void> {
    if (!this.claiming && this.inHand.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(): void {
    if (this.claiming || this.inHand.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async claim(slots: number): Promise<OutboxMessage[]> {
    const now = this.clock.now();
    const leasedUntil = new Date(now.getTime() + this.options.leaseMs);
    const topics = [...this.handlers.keys()];
    if (topics.length === 0) return [];
    const rows = await sql<ClaimedRow>`
      UPDATE outbox SET leased_until = ${leasedUntil}, leased_by = ${this.name}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM outbox WHERE id IN (
          -- Each business's free due messages in order, behind the ones it already has in hand
          -- (over every worker): a business holding perBusiness of them gets none more.
          SELECT lanes.id FROM (
            SELECT id, business_id, available_at,
              row_number() OVER (PARTITION BY business_id ORDER BY available_at, id) AS lane_rank
            FROM outbox
            WHERE done_at IS NULL AND available_at <= ${now} AND topic = ANY(${topics})
              AND (leased_until IS NULL OR leased_until < ${now})
          ) lanes
          LEFT JOIN (
            SELECT business_id, count(*) AS held FROM outbox
            WHERE done_at IS NULL AND leased_until >= ${now} AND topic = ANY(${topics})
            GROUP BY business_id
          ) busy ON busy.business_id IS NOT DISTINCT FROM lanes.business_id
          WHERE lanes.lane_rank + coalesce(busy.held, 0) <= ${this.options.perBusiness}
          -- Round robin: every business's first slot before any business's second.
          ORDER BY lanes.lane_rank + coalesce(busy.held, 0), lanes.available_at, lanes.id
          LIMIT ${slots}
        )
        -- Checked again on the row as it is once locked: another worker may have just leased it.
        AND done_at IS NULL AND (leased_until IS NULL OR leased_until < ${now})
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, message_id, topic, payload, attempts`.execute(this.db);
    // Started oldest first: RETURNING gives no order of its own.
    return rows.rows.sort((a, b) => a.id - b.id).map(messageOf);
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

/** A connection of the pool listening on the outbox channel, each notification's payload given to `hear`. */
export async function listenForOutbox(
  pool: pg.Pool,
  hear: (payload: string) => void,
): Promise<pg.PoolClient> {
  const listener = await pool.connect();
  listener.on('notification', (notification) => hear(notification.payload ?? ''));
  await listener.query(`LISTEN ${CHANNEL}`);
  return listener;
}

/** Stops listening on the outbox channel and gives the connection back to its pool. */
export async function stopListening(listener: pg.PoolClient): Promise<void> {
  await listener.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
  listener.release();
}

interface ClaimedRow {
  id: number;
  message_id: string;
  topic: string;
  payload: unknown;
  attempts: number;
}

const messageOf = (row: ClaimedRow): OutboxMessage => ({
  id: row.id,
  messageId: row.message_id,
  topic: row.topic,
  payload: row.payload,
  attempt: row.attempts,
});
