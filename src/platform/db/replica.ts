import { sql } from 'kysely';
import type { DatabaseHandle, Db } from './database.ts';

/**
 * `starting`: not checked yet. `ok`: reachable, a standby, its lag within the bound. `lagging`:
 * reachable but further behind (or its lag unknown). `down`: unreachable, failing, or not a standby.
 */
export type ReplicaState = 'starting' | 'ok' | 'lagging' | 'down';

/** How often the replica's lag is measured: reads may be this much older than the bound says. */
export const REPLICA_CHECK_INTERVAL_MS = 1_000;

/**
 * A streaming replica of the service's database, and how far behind it is, measured every
 * REPLICA_CHECK_INTERVAL_MS. Reads go to it only while it is `ok` (see ReadRouting).
 *
 * The lag is `now() - pg_last_xact_replay_timestamp()` on the replica, except when the replica
 * has replayed everything the primary had logged when the check began (the primary's
 * `pg_current_wal_insert_lsn()`, which counts a commit not yet written out, as with
 * synchronous_commit off): then it is 0. Without that comparison an idle primary would look ever
 * more behind, since the last replayed commit grows old while nothing new is committed; with it,
 * a replica behind after a long idle time counts as lagging until it catches up (on the safe side).
 */
export class ReadReplica {
  state: ReplicaState = 'starting';
  /** The lag found by the last check, in milliseconds; null when unknown. */
  lagMs: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly primary: Db,
    private readonly replica: DatabaseHandle,
    readonly maxLagMs: number,
    readonly checkIntervalMs = REPLICA_CHECK_INTERVAL_MS,
  ) {}

  /** The replica's handle: for reads only, and only while `usable`. */
  get db(): Db {
    return this.replica.db;
  }

  get usable(): boolean {
    return this.state === 'ok';
  }

  /** Checks now, then every interval, until `stop`. */
  start(): void {
    if (this.timer) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), this.checkIntervalMs);
    this.timer.unref();
  }

  /** Measures the lag once (a check already running is waited for instead). */
  check(): Promise<void> {
    this.checking ??= this.measure().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** A read on the replica failed: reads go to the primary until a check finds the replica well. */
  failed(): void {
    this.state = 'down';
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
    await this.replica.close();
  }

  private async measure(): Promise<void> {
    try {
      const { rows: primary } = await sql<{
        lsn: string;
      }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(this.primary);
      const { rows } = await sql<{ standby: boolean; behind: string | null; lag_ms: number | null }>`
        SELECT pg_is_in_recovery() AS standby,
               pg_wal_lsn_diff(${primary[0]!.lsn}::pg_lsn, pg_last_wal_replay_lsn())::text AS behind,
               (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS lag_ms`.execute(
        this.replica.db,
      );
      const found = rows[0]!;
      if (!found.standby || found.behind === null) {
        // Not a replica (a promoted standby, a wrong URL): what it holds is not the primary's state.
        this.set('down', null);
        return;
      }
      const lag = Number(found.behind) <= 0 ? 0 : found.lag_ms === null ? null : Math.max(0, found.lag_ms);
      this.set(lag !== null && lag <= this.maxLagMs ? 'ok' : 'lagging', lag);
    } catch {
      this.set('down', null);
    }
  }

  private set(state: ReplicaState, lagMs: number | null): void {
    this.state = state;
    this.lagMs = lagMs;
  }
}
