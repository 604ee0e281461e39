import { LRUCache } from 'lru-cache';
import type { Db, Queryable } from '../db/database.ts';
import type { ReadReplica } from '../db/replica.ts';
import { isAppError } from '../errors.ts';
import type { Caller, Operation, ProviderCaller } from './operation.ts';

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
 * - a caller that wrote (any mutation, through this instance) within the replica's lag bound
 *   plus one check interval reads from the primary: its token and its business are marked, so
 *   it and its colleagues see their own writes. The mark lives in this instance's memory: on
 *   another instance behind the same load balancer the read may go to the replica, stale by at
 *   most the bound;
 * - a read the replica fails (unreachable, a query cancelled by replay) runs again on the
 *   primary, and reads stay there until the next check finds the replica well.
 */
export class ReadRouting {
  private readonly recentWriters: LRUCache<string, true>;

  constructor(
    private readonly replica: ReadReplica,
    private readonly observe?: (operation: string, server: ReadServer) => void,
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
    if (!this.replica.usable || this.wroteRecently(reader)) {
      this.observe?.(operation.name, 'primary');
      return run(primary);
    }
    try {
      const answer = await run(this.replica.db);
      this.observe?.(operation.name, 'replica');
      return answer;
    } catch (error) {
      // A refusal is the answer; anything else may be the replica's own failure.
      if (isAppError(error)) throw error;
      this.replica.failed();
      this.observe?.(operation.name, 'primary');
      return run(primary);
    }
  }

  /** After a mutation: this caller reads from the primary while the replica may not have its write. */
  wrote(writer: Reader): void {
    for (const key of keysOf(writer)) this.recentWriters.set(key, true);
  }

  private wroteRecently(reader: Reader): boolean {
    return keysOf(reader).some((key) => this.recentWriters.has(key));
  }
}

function keysOf({ caller, provider, business }: Reader): string[] {
  const keys: string[] = [];
  if (caller) keys.push(`token:${caller.tokenId}`);
  const owner = business ?? caller?.businessId ?? provider?.businessId;
  if (owner !== null && owner !== undefined) keys.push(`business:${owner}`);
  return keys;
}
