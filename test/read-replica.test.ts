import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type App, createApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { TEST_DATABASE_TIMEOUTS } from './support/database.ts';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { eventually } from './support/lockers.ts';
import { REDIS, redisAnswers } from './support/redis.ts';
import { type StreamingReplica, startStreamingReplica } from './support/replica.ts';
import { UNLIMITED } from './support/server.ts';

interface Instance {
  app: App;
  api: Client;
}

/** One metric's value in the instance's /metrics text, when it has a sample of these labels. */
async function metric(instance: Instance, name: string, labels = ''): Promise<number | undefined> {
  const answer = await instance.app.http.inject({ method: 'GET', url: '/metrics' });
  const line = answer.body.split('\n').find((row) => row.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const replicaReads = (instance: Instance, operation: string, server: 'replica' | 'primary') =>
  metric(instance, 'tms_read_replica_reads_total', `{operation="${operation}",server="${server}"}`).then(
    (count) => count ?? 0,
  );

describe('read replica: tolerant reads on a streaming replica, the primary otherwise', () => {
  let replica: StreamingReplica;
  let primary: DatabaseHandle;
  const clock = new ManualClock(new Date('2026-11-02T09:30:00Z'));
  const instances: Instance[] = [];
  /** Reads go to the replica while it is at most ten minutes behind: it is, all test long. */
  let tolerant: Instance;
  /** Reads go to the replica only while it is at most 100 ms behind. */
  let strict: Instance;
  let admin: string;
  let colleague: string;
  let number: string;
  /** This run's own Redis keys: the writers' marks other runs make are not ours. */
  const redisPrefix = `tms-test-${process.pid}-${Date.now().toString(36)}`;

  const startInstance = async (maxLagMs: number, sharedMarks = false): Promise<Instance> => {
    const config: Config = {
      ...loadConfig({ LOG_LEVEL: 'silent' }),
      ...(sharedMarks && { redisUrl: REDIS, redisPrefix }),
      limits: UNLIMITED,
      mqtt: { ...loadConfig({}).mqtt, port: 0 },
      databaseTimeouts: TEST_DATABASE_TIMEOUTS,
      databaseUrl: replica.primaryUrl,
      databaseRead: { url: replica.replicaUrl, maxLagMs },
    };
    const app = await createApp(config, primary.db, clock);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const instance = {
      app,
      api: client(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`),
    };
    instances.push(instance);
    return instance;
  };
  const replicaUp = (instance: Instance, up: 0 | 1) =>
    eventually(
      async () => ((await metric(instance, 'tms_read_replica_up')) === up ? true : undefined),
      `tms_read_replica_up ${up}`,
    );
  const publicStatus = async (instance: Instance, tracking = number) => {
    const answer = await instance.api.get(`/api/v1/tracking/${tracking}`);
    return answer.status === 200 ? answer.body.status : answer.body.error_code;
  };

  before(async () => {
    replica = await startStreamingReplica();
    primary = openDatabase(replica.primaryUrl, { timeouts: TEST_DATABASE_TIMEOUTS });
    await migrateToLatest(primary.db);
    tolerant = await startInstance(600_000);
    strict = await startInstance(100);
    // Anonymous answers are kept in memory while the instance hears every write's invalidation.
    await tolerant.app.services.cacheInvalidation.start(primary.pool);
    const tenant = await createTenant(primary.db, tolerant.app.services, 'replica');
    admin = await login(tolerant.api, tenant.emails.client_admin);
    colleague = await login(tolerant.api, tenant.emails.employee);
    const created = await tolerant.api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'R-1', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    number = created.body.tracking_number;
  });
  after(async () => {
    await tolerant?.app.services.cacheInvalidation.stop();
    for (const instance of instances) await instance.app.http.close();
    await primary?.close();
    await replica?.close();
  });

  it('streams what the migrated primary holds to the replica', async () => {
    await replica.waitCaughtUp();
    const onReplica = openDatabase(replica.replicaUrl, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      const migrations = (db: DatabaseHandle) =>
        db.pool
          .query<{ n: number }>('SELECT count(*)::int AS n FROM kysely_migration')
          .then((r) => r.rows[0]!.n);
      assert.ok((await migrations(primary)) > 0);
      assert.equal(await migrations(onReplica), await migrations(primary));
      const order = await onReplica.pool.query('SELECT 1 FROM packages WHERE tracking_number = $1', [number]);
      assert.equal(order.rowCount, 1, 'the parcel written on the primary is on the replica');
    } finally {
      await onReplica.close();
    }
  });

  it('answers a public tracking read from the replica, as it stands, within the lag bound', async () => {
    await replicaUp(tolerant, 1);
    await replica.pauseReplay();
    const moved = await tolerant.api.post(
      `/api/v1/client/orders/${(await tolerant.api.get(`/api/v1/client/orders?order_ref=R-1`, { token: admin })).body.orders[0].id}/status`,
      { status: 'PICKED_UP' },
      { token: admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    // Written out by the primary (at once, or by its WAL writer soon after) and not applied.
    await eventually(
      async () => ((await replica.caughtUp()) ? undefined : true),
      'the replica falling behind',
    );
    // The replica is behind but within ten minutes: it answers, with the state before the pickup.
    await replicaUp(tolerant, 1);
    const before = await replicaReads(tolerant, 'get_public_tracking', 'replica');
    assert.equal(await publicStatus(tolerant), 'information_submitted');
    assert.ok((await replicaReads(tolerant, 'get_public_tracking', 'replica')) > before);
  });

  it('reads from the primary once the replica is further behind than the bound', async () => {
    // Replay is still paused after the pickup: past 100 ms the strict instance stops reading there.
    await replicaUp(strict, 0);
    assert.equal(await publicStatus(strict), 'picked_up');
    assert.ok((await replicaReads(strict, 'get_public_tracking', 'primary')) >= 1);
  });

  it('reads from the primary for a caller that has just written', async () => {
    const created = await tolerant.api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'R-2', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const listed = await tolerant.api.get('/api/v1/client/orders?order_ref=R-2', { token: admin });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.orders.map((order: { order_ref: string }) => order.order_ref),
      ['R-2'],
      'the writer sees its new order',
    );
    const summary = await tolerant.api.get('/api/v1/analytics/orders-summary?period=today', { token: admin });
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
    assert.ok((await replicaReads(tolerant, 'get_orders', 'primary')) >= 1);
    assert.ok((await replicaReads(tolerant, 'get_orders_summary', 'primary')) >= 1);
    // An anonymous reader has written nothing, and the replica, still paused, does not know the
    // parcel: its "not found" is asked again of the primary, which knows it.
    await replicaUp(tolerant, 1);
    const fromPrimary = await replicaReads(tolerant, 'get_public_tracking', 'primary');
    assert.equal(await publicStatus(tolerant, created.body.tracking_number), 'information_submitted');
    assert.ok((await replicaReads(tolerant, 'get_public_tracking', 'primary')) > fromPrimary);
    // A number nobody wrote is unknown on the primary too.
    assert.equal(await publicStatus(tolerant, 'NO-SUCH-NUMBER-1'), 'TRACKING_NOT_FOUND');
  });

  it('reads a write made through another instance from the primary, replay paused', {
    skip: redisAnswers ? false : `no Redis answers at ${REDIS}`,
  }, async () => {
    // Two instances behind one balancer, sharing the writers' marks in Redis.
    const writing = await startInstance(600_000, true);
    const reading = await startInstance(600_000, true);
    await replicaUp(reading, 1);
    assert.equal(await replica.caughtUp(), false, 'replay is still paused');
    const created = await writing.api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'R-3', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    // The writer itself, and a colleague of its business, on the other instance.
    for (const token of [admin, colleague]) {
      const listed = await reading.api.get('/api/v1/client/orders?order_ref=R-3', { token });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.orders.map((order: { order_ref: string }) => order.order_ref),
        ['R-3'],
        'the order written through the other instance is listed',
      );
    }
    assert.equal(await replicaReads(reading, 'get_orders', 'replica'), 0);
    // The public reader of the new parcel, on the other instance: not a 404.
    assert.equal(await publicStatus(reading, created.body.tracking_number), 'information_submitted');
  });

  it('answers from the primary when the replica is stopped, before and after the check notices', async () => {
    await replica.resumeReplay();
    await replica.waitCaughtUp();
    await replicaUp(tolerant, 1);
    // The answer the replica gave while behind the pickup was not kept for later readers.
    assert.equal(await publicStatus(tolerant), 'picked_up');
    await replica.stopReplica();
    // The first read may find the replica gone before the monitor does: it is read again on the primary.
    assert.equal(await publicStatus(tolerant), 'picked_up');
    await replicaUp(tolerant, 0);
    assert.equal(await publicStatus(tolerant), 'picked_up');
    const orders = await tolerant.api.get('/api/v1/client/orders', { token: admin });
    assert.equal(orders.status, 200, JSON.stringify(orders.body));
  });
});
