import type pg from 'pg';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import {
  listenForOutbox,
  type OutboxHandler,
  OutboxWorker,
  stopListening,
  type WorkerOptions,
} from './outbox.ts';

/**
 * The outbox drained in lanes: each lane is a worker of its own over its own topics, with its
 * own slots and its own per-business share. A live push (an order chat message, a driver's or a
 * user's push, a locker command) therefore never waits behind webhook deliveries: a business
 * whose four delivery slots hang on a slow receiver still gets its pushes at once. The lanes
 * share one listening connection.
 */
export class OutboxLanes {
  private readonly lanes = new Map<string, OutboxWorker>();
  private listener: pg.PoolClient | undefined;

  /**
   * `laneOf` names a topic's lane; `defaultLane` takes every topic it names no other lane for.
   * Every lane runs with the same options.
   */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: Partial<WorkerOptions>,
    private readonly laneOf: (topic: string) => string,
  ) {}

  /** The worker of a lane, made on first use. */
  lane(name: string): OutboxWorker {
    let worker = this.lanes.get(name);
    if (!worker) {
      worker = new OutboxWorker(this.db, this.clock, this.options);
      this.lanes.set(name, worker);
    }
    return worker;
  }

  handle(topic: string, handler: OutboxHandler): this {
    this.lane(this.laneOf(topic)).handle(topic, handler);
    return this;
  }

  /** Starts every lane; with a pool, one connection listens for all of them. */
  async start(pool?: pg.Pool): Promise<void> {
    if (pool && !this.listener) {
      this.listener = await listenForOutbox(pool, (payload) => {
        for (const worker of this.lanes.values()) worker.hear(payload);
      });
    }
    for (const worker of this.lanes.values()) await worker.start();
  }

  poke(): void {
    for (const worker of this.lanes.values()) worker.poke();
  }

  /**
   * Drains every lane until none handles anything more (a message of one lane may write one of
   * another); returns how many were handled.
   */
  async drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const counts = await Promise.all([...this.lanes.values()].map((worker) => worker.drainOnce()));
      const handled = counts.reduce((sum, count) => sum + count, 0);
      total += handled;
      if (handled === 0) return total;
    }
  }

  /** Stops every lane (the messages in hand finish), then the listening connection. */
  async stop(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((worker) => worker.stop()));
    if (this.listener) {
      await stopListening(this.listener);
      this.listener = undefined;
    }
  }
}
