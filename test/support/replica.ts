import { execFile } from 'node:child_process';
import { appendFile, copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../src/platform/db/embedded.ts';
import { eventually } from './lockers.ts';

/** A primary and a streaming replica of it, both embedded PostgreSQL servers of this test's own. */
export interface StreamingReplica {
  primaryUrl: string;
  replicaUrl: string;
  /** Whether the replica has replayed everything the primary had written when asked. */
  caughtUp(): Promise<boolean>;
  /** Waits until the replica has replayed everything the primary has written by now. */
  waitCaughtUp(): Promise<void>;
  /** Stops applying what the primary sends (pg_wal_replay_pause): the replica stays at this state. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the replica's server (the primary runs on). */
  stopReplica(): Promise<void>;
  /** Stops both servers and removes their clusters. */
  close(): Promise<void>;
}

/**
 * A streaming replica built with the embedded binaries alone (they have no pg_basebackup): a
 * primary is created and stopped, its cluster copied while stopped (a cold copy is a valid base
 * backup), and the copy started as a standby (standby.signal, primary_conninfo) that streams from
 * the primary once that one runs again.
 */
export async function startStreamingReplica(): Promise<StreamingReplica> {
  const primaryDir = await mkdtemp(path.join(tmpdir(), 'tms-primary-'));
  const replicaDir = await mkdtemp(path.join(tmpdir(), 'tms-replica-'));
  const servers: EmbeddedServer[] = [];
  const close = async () => {
    for (const server of servers.reverse()) await server.stop();
    await rm(primaryDir, { recursive: true, force: true });
    await rm(replicaDir, { recursive: true, force: true });
  };
  try {
    await (await startEmbeddedPostgres({ directory: primaryDir, ephemeral: true })).stop();
    const primaryData = path.join(primaryDir, 'pg');
    // PostgreSQL 15's defaults already stream; said here so that the copy does not rest on them.
    await appendFile(
      path.join(primaryData, 'postgresql.conf'),
      "\nwal_level = replica\nmax_wal_senders = 10\nwal_keep_size = '256MB'\nhot_standby = on\n",
    );
    await appendFile(
      path.join(primaryData, 'pg_hba.conf'),
      '\nhost replication postgres 127.0.0.1/32 scram-sha-256\n',
    );
    const replicaData = path.join(replicaDir, 'pg');
    // As root the cluster belongs to the server's account: `cp -a` keeps owners and modes.
    await promisify(execFile)('cp', ['-a', primaryData, replicaData]);
    await copyFile(path.join(primaryDir, 'pg-password'), path.join(replicaDir, 'pg-password'));

    const primary = await startEmbeddedPostgres({ directory: primaryDir, ephemeral: true });
    servers.push(primary);
    const { port, password } = new URL(primary.url);
    const conninfo = `host=127.0.0.1 port=${port} user=postgres password=${decodeURIComponent(password)} application_name=tms_replica`;
    await appendFile(path.join(replicaData, 'postgresql.auto.conf'), `\nprimary_conninfo = '${conninfo}'\n`);
    const signal = path.join(replicaData, 'standby.signal');
    await writeFile(signal, '');
    const owner = await stat(replicaData);
    await promisify(execFile)('chown', [`${owner.uid}:${owner.gid}`, signal]);
    const replica = await startEmbeddedPostgres({ directory: replicaDir, ephemeral: true });
    servers.push(replica);

    const caughtUp = () =>
      withClient(primary.url, async (onPrimary) => {
        const { rows } = await onPrimary.query<{ lsn: string }>(
          'SELECT pg_current_wal_insert_lsn()::text AS lsn',
        );
        return withClient(replica.url, async (onReplica) => {
          const replayed = await onReplica.query<{ done: boolean }>(
            'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
            [rows[0]!.lsn],
          );
          return replayed.rows[0]!.done === true;
        });
      });
    const replayPaused = () =>
      withClient(replica.url, async (client) => {
        const { rows } = await client.query<{ state: string }>(
          'SELECT pg_get_wal_replay_pause_state() AS state',
        );
        return rows[0]!.state;
      });
    return {
      primaryUrl: primary.url,
      replicaUrl: replica.url,
      caughtUp,
      waitCaughtUp: async () => {
        await eventually(async () => ((await caughtUp()) ? true : undefined), 'the replica catching up');
      },
      pauseReplay: async () => {
        await withClient(replica.url, (client) => client.query('SELECT pg_wal_replay_pause()'));
        await eventually(
          async () => ((await replayPaused()) === 'paused' ? true : undefined),
          'replay pausing',
        );
      },
      resumeReplay: async () => {
        await withClient(replica.url, (client) => client.query('SELECT pg_wal_replay_resume()'));
      },
      // Stopping it again at `close` does nothing.
      stopReplica: () => replica.stop(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
