import type { Config } from '../config.ts';
import { WorkerPool, workerEntry } from '../platform/workers.ts';
import type { DemoCredentials } from './seed.ts';

/** A seed taking longer than this is a fault (it takes seconds). */
const SEED_BUDGET_MS = 10 * 60_000;

/**
 * The demo seed on a thread of its own (src/demo-worker.ts), started ahead of the seed so that
 * it loads its code while the database is migrated. One seed a thread; the thread stops after it.
 */
export class DemoSeeder {
  private readonly thread: WorkerPool;

  constructor(config: Config) {
    const entry = workerEntry('demo-worker');
    this.thread = new WorkerPool(
      { url: entry.url, workerData: { ...entry.workerData, config } },
      { threads: 1 },
    );
    this.thread.warm();
  }

  /** Seeds the demo in the database at `url`: its credentials, or null when it was there already. */
  async seed(url: string, password: string): Promise<DemoCredentials | null> {
    try {
      return await this.thread.run<DemoCredentials | null>('seed_demo', { url, password }, SEED_BUDGET_MS);
    } finally {
      await this.close();
    }
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
