import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type App, createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { type Client, client } from './support/http.ts';

/** The PostgreSQL server's processes: the postmaster (from postmaster.pid) and its children. */
/** Stops the server's processes; the returned function lets them go on. */
async function freeze(pgdata: string): Promise<() => void> {
  const processes = await serverProcesses(pgdata);
  for (const pid of processes) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of processes) process.kill(pid, 'SIGCONT');
  };
}

async function serverProcesses(pgdata: string): Promise<number[]> {
  const postmaster = Number.parseInt(
    (await readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n')[0]!,
    10,
  );
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
    if (parent === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

/**
 * The statement bound of these tests (node-postgres stops waiting for an answer 500 ms later):
 * short enough for a quick test, long enough that a loaded machine's ordinary statements fit.
 */
const STATEMENT_MS = 2000;

/**
 * A database that stops answering (its server frozen with SIGSTOP) gets 503 from the service
 * while frozen, not a request held until it thaws, and the service recovers by itself.
 */
describe('a frozen database', () => {
  let directory: string;
  let cluster: EmbeddedServer;
  let handle: DatabaseHandle;
  let app: App;
  let api: Client;

  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'tms-frozen-'));
    cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
    const migrating = openDatabase(cluster.url, { timeouts: 'none', maxConnections: 1 });
    await migrateToLatest(migrating.db);
    await migrating.close();
    const timeouts = { statementMs: STATEMENT_MS, connectMs: 2000 };
    handle = openDatabase(cluster.url, { timeouts });
    app = await createApp({ ...loadConfig({ LOG_LEVEL: 'silent' }), databaseTimeouts: timeouts }, handle.db);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    api = client(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`);
  });
  after(async () => {
    await app?.http.close();
    await handle?.close();
    await cluster?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers 503 while the server is frozen, and answers again once it thaws', async () => {
    assert.equal((await api.get('/api/health')).status, 200);
    assert.equal((await api.get('/api/v1/otep/trackings/TMSFROZEN0001')).status, 404);

    const thaw = await freeze(path.join(directory, 'pg'));
    try {
      // Both answer while the server is still stopped: it thaws only after they did.
      const [health, read] = await Promise.all([
        api.get('/api/health'),
        api.get('/api/v1/otep/trackings/TMSFROZEN0001', { headers: { 'accept-language': 'fr' } }),
      ]);
      assert.equal(health.status, 503);
      assert.equal(read.status, 503, JSON.stringify(read.body));
      assert.equal(read.body.error_code, 'SERVICE_UNAVAILABLE');
      assert.equal(read.body.result, false);
      assert.ok(read.body.message.length > 0);
    } finally {
      thaw();
    }

    let healthy = false;
    for (let attempt = 0; attempt < 240 && !healthy; attempt++) {
      healthy = (await api.get('/api/health')).status === 200;
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.ok(healthy, 'the service answers again without a restart');
    const read = await api.get('/api/v1/otep/trackings/TMSFROZEN0001');
    assert.equal(read.status, 404);
    assert.equal(read.body.error_code, 'TRACKING_NOT_FOUND');
  });

  it('ends a transaction caught by the freeze after one wait, and lends its connection to no one', async () => {
    let thaw: (() => void) | undefined;
    let connections = 0;
    const transaction = handle.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      connections = handle.pool.totalCount;
      thaw = await freeze(path.join(directory, 'pg'));
      await sql`SELECT 2`.execute(trx);
    });
    try {
      await assert.rejects(transaction, /Query read timeout/);
      // The connection is destroyed, not given a ROLLBACK to wait behind the frozen statement, and
      // so never lent again; the statement's timeout is the error, not a second one.
      assert.equal(handle.pool.totalCount, connections - 1, 'the connection is closed, not lent again');
    } finally {
      thaw?.();
    }
    assert.equal((await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db)).rows[0]?.one, 1);
  });

  it('lets a transaction sit between statements while the service computes (route building)', async () => {
    // Six statement bounds: what the server used to allow a transaction between two statements.
    const computing = STATEMENT_MS * 6 + 500;
    const answer = await handle.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, computing));
      return (await sql<{ two: number }>`SELECT 2 AS two`.execute(trx)).rows[0]?.two;
    });
    assert.equal(answer, 2);
  });
});
