import { LRUCache } from 'lru-cache';
import type { Db, Queryable } from '../db/database.ts';
import type { ReadReplica } from '../db/replica.ts';
import { isAppError } from '../errors.ts';
import type { Caller, Operation, ProviderCaller } from './operation.ts';
import type { SharedWriters } from './shared-writers.ts';

/** Who made a call, as far as reading one's own writes goes. */
export interface Reader {
  caller: Caller | null;
  provider: ProviderCaller | null;
  business: number | null;
}

/** Where a read went: counted per operation on the metrics. */
export type ReadServer = 'replica' | 'primary';

/** Callers with a write this recent: beyond this, thousands of writers at once mark only the newest. */
const REMEMBERED_WRITERS = 100_000;

/**
 * Sends the queries of operations declaring `reads: 'replica'` to the read replica while it is
 * usable, and everything else to the primary (docs/read-replicas.md):
 *
 * - a caller that wrote (any mutation) within the replica's lag bound plus one check interval
 *   reads from the primary: its token and its business are marked, so it and its colleagues see
 *   their own writes. The mark lives in this instance's memory and, with REDIS_URL, in Redis,
 *   where every instance behind the same load balancer finds it;
 * - an answer "not found" from the replica (a parcel or an order just written that it has not
 *   replayed yet) is asked again of the primary, whose answer stands;
 * - a read the replica fails (unreachable, a query cancelled by replay) runs again on the
 *   primary, and reads stay there until the next check finds the replica well.
 */
export class ReadRouting {
  private readonly recentWriters: LRUCache<string, true>;

  constructor(
    private readonly replica: ReadReplica,
    private readonly observe?: (operation: string, server: ReadServer) => void,
    private readonly shared?: SharedWriters,
  ) {
    this.recentWriters = new LRUCache({
      max: REMEMBERED_WRITERS,
      ttl: replica.maxLagMs + replica.checkIntervalMs,
    });
  }

  /** Runs a read on the replica when the operation and the caller allow it, else on the primary. */
  async read<T>(
    operation: Operation,
    reader: Reader,
    primary: Db,
    run: (db: Queryable) => Promise<T>,
  ): Promise<T> {
    if (operation.reads !== 'replica' || operation.kind !== 'query') return run(primary);
    if (!this.replica.usable || (await this.wroteRecently(reader))) {
      this.observe?.(operation.name, 'primary');
      return run(primary);
    }
    try {
      const answer = await run(this.replica.db);
      this.observe?.(operation.name, 'replica');
      return answer;
    } catch (error) {
      // A refusal is the answer, except "not found": the replica may not have replayed it yet.
      if (isAppError(error) && error.status !== 404) throw error;
      if (!isAppError(error)) this.replica.failed();
      this.observe?.(operation.name, 'primary');
      return run(primary);
    }
  }

  /**
   * After a mutation: this caller reads from the primary while the replica may not have its write.
   * Resolves once the mark is shared (Redis), so that the answer leaves after it; never rejects.
   */
  async wrote(writer: Reader): Promise<void> {
    const keys = keysOf(writer);
    for (const key of keys) this.recentWriters.set(key, true);
    await this.shared?.mark(keys, this.markMs);
  }

  private get markMs(): number {
    return this.replica.maxLagMs + this.replica.checkIntervalMs;
  }

  private async wroteRecently(reader: Reader): Promise<boolean> {
    const keys = keysOf(reader);
    if (keys.some((key) => this.recentWriters.has(key))) return true;
    return this.shared ? this.shared.marked(keys) : false;
  }
}

function keysOf({ caller, provider, business }: Reader): string[] {
  const keys: string[] = [];
  if (caller) keys.push(`token:${caller.tokenId}`);
  const owner = business ?? caller?.businessId ?? provider?.businessId;
  if (owner !== null && owner !== undefined) keys.push(`business:${owner}`);
  return keys;
}
