import type { Redis } from 'ioredis';
import { loadPackage } from '../packages.ts';

/**
 * The marks of recent writers in Redis, seen by every instance: a caller who wrote through one
 * instance reads its own write through any other (docs/read-replicas.md, "Reads after writes").
 * A mark lasts as long as the replica may lag behind that write (the bound plus a check).
 */
export class SharedWriters {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    const { Redis } = loadPackage<typeof import('ioredis')>('ioredis');
    this.redis = new Redis(url, {
      // A Redis that does not answer fails a command at once: reads then go to the primary.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
    });
    this.redis.on('error', () => {});
  }

  /** Marks the keys for `ttlMs`; resolves once Redis has them, or has failed (never rejects). */
  async mark(keys: readonly string[], ttlMs: number): Promise<boolean> {
    if (keys.length === 0) return true;
    const batch = this.redis.multi();
    for (const key of keys) batch.set(this.keyOf(key), '1', 'PX', Math.ceil(ttlMs));
    return batch.exec().then(
      (results) => results?.every(([error]) => !error) ?? false,
      () => false,
    );
  }

  /** Whether any of the keys is marked; a Redis that does not answer counts as marked (the safe side). */
  async marked(keys: readonly string[]): Promise<boolean> {
    if (keys.length === 0) return false;
    return this.redis.exists(...keys.map((key) => this.keyOf(key))).then(
      (found) => found > 0,
      () => true,
    );
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private keyOf(key: string): string {
    return `${this.prefix}:wrote:${key}`;
  }
}
