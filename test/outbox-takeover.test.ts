import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, createApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { Listener, turnOn } from './support/order-chat.ts';
import { type Running, startServe } from './support/process.ts';
import { UNLIMITED } from './support/server.ts';

/** Waits for a condition, polling; fails after the limit (a safety net, not a speed requirement). */
async function eventually(condition: () => boolean | Promise<boolean>, what: string, limitMs = 120_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function dateAhead(days: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + days * 86_400_000));
}

interface Lease {
  id: number;
  leased_by: string | null;
  leased_until: Date | null;
  attempts: number;
  done_at: Date | null;
  /** How long the lease has left, by the database's clock (negative: ended). */
  left_ms: number | null;
}

/**
 * A crashed instance (a real `tms serve`, killed with SIGKILL) holding a business's every webhook
 * delivery slot on a receiver that hangs: its leases, renewed while it lives, end within the
 * lease term once it is dead and another instance delivers the messages again; meanwhile an order
 * chat message of the same business is pushed at once, in its own lane.
 */
describe('the outbox across instances: a killed instance and a hanging receiver', () => {
  const env = {
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    // The hanging attempts must outlast the test: no timeout ends them before the kill does.
    WEBHOOK_TIMEOUT_MS: '60000',
    LOG_LEVEL: 'silent',
  };
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let tenant: Tenant;
  /** The instance that dies: a child process. */
  let doomed: Running;
  /** The instance that lives on, in this process. */
  let survivor: App;
  let survivorUrl: string;
  let api: Client;
  let admin: string;
  let orderId: number;
  /** Webhook deliveries received, by `webhook-id`, in order of arrival. */
  const arrivals: string[] = [];
  const hanging: ServerResponse[] = [];
  let answering = false;
  /** Hanging attempts the sender gave up on (its timeout, or its death closed the connection). */
  let abandoned = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    arrivals.push(String(request.headers['webhook-id']));
    if (answering) return void response.writeHead(200).end('ok');
    hanging.push(response);
    response.once('close', () => abandoned++);
  });

  const leases = async (): Promise<Lease[]> =>
    (
      await handle.pool.query<Lease>(
        `SELECT id::int, leased_by, leased_until, attempts, done_at,
                (extract(epoch FROM leased_until - now()) * 1000)::float8 AS left_ms
         FROM outbox WHERE topic = 'webhook' AND business_id = $1 ORDER BY id`,
        [tenant.businessId],
      )
    ).rows;

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const config: Config = {
      ...loadConfig({ ...env, DATABASE_URL: database.url, MQTT_PORT: '0' }),
      limits: UNLIMITED,
      databaseTimeouts: TEST_DATABASE_TIMEOUTS,
    };
    survivor = await createApp(config, handle.db, systemClock);
    await survivor.http.listen({ port: 0, host: '127.0.0.1' });
    survivorUrl = `http://127.0.0.1:${(survivor.http.server.address() as AddressInfo).port}`;
    tenant = await createTenant(handle.db, survivor.services, 'takeover');
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    doomed = await startServe({ ...env, DATABASE_URL: database.url });
    api = client(doomed.baseUrl);
    admin = await login(api, tenant.emails.client_admin);
  });
  after(async () => {
    if (doomed && doomed.child.exitCode === null && doomed.child.signalCode === null) {
      doomed.child.kill('SIGKILL');
      await new Promise((resolve) => doomed.child.once('exit', resolve));
    }
    for (const response of hanging) response.destroy();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await survivor?.http.close();
    await survivor?.stopBackground();
    await handle?.close();
    await database?.drop();
  });

  it('pushes a chat message at once while the business’s deliveries hang, and takes a killed instance’s deliveries over', async () => {
    // An order of the business on its driver's route, with order chat on.
    const date = dateAhead(2, 'Asia/Shanghai');
    const depot = await api.post(
      '/api/v1/client/depots',
      { name: 'Depot', lat: 48.85, lng: 2.35 },
      { token: admin },
    );
    const profile = await api.call('PUT', `/api/v1/client/drivers/${tenant.userIds.driver}/profile`, {
      token: admin,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 50 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        scheduled_date: date,
        customer_id: tenant.userIds.customer,
        dropoff: { line1: '3 Rue de Rivoli', lat: 48.86, lng: 2.36 },
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orderId = created.body.order_id;
    const built = await api.post('/api/v3/client/build-route', { date }, { token: admin });
    assert.equal(built.body.routes?.length, 1, JSON.stringify(built.body));
    await turnOn(api, admin);

    // Four deliveries, the business's four slots, all taken by the only running instance and hanging.
    const saved = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: {
        urls: { 'order.created': `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const bulk = await api.post(
      '/api/v1/client/orders/bulk',
      { orders: Array.from({ length: 4 }, (_, i) => ({ order_ref: `HANG-${i}`, dropoff: { line1: 'x' } })) },
      { token: admin },
    );
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    await eventually(() => arrivals.length === 4, 'four hanging deliveries');
    const first = await leases();
    assert.equal(first.length, 4);
    const holder = first[0]!.leased_by;
    assert.ok(holder && first.every((lease) => lease.leased_by === holder && lease.done_at === null));
    // The lease term is short: a dead holder's claim would end within the documented 10 s.
    assert.ok(
      first.every((lease) => lease.left_ms !== null && lease.left_ms <= 10_000),
      JSON.stringify(first),
    );

    // The second instance starts its outbox; the business's delivery slots are all held.
    await survivor.startBackground(handle.pool);

    // Alive, the holder renews its leases past their first term and nobody takes them over.
    const firstEnd = Math.max(...first.map((lease) => lease.leased_until!.getTime()));
    await eventually(
      async () =>
        (await handle.pool.query<{ past: boolean }>('SELECT now() > $1 AS past', [new Date(firstEnd)]))
          .rows[0]!.past,
      'the first lease term over',
    );
    const renewed = await leases();
    assert.ok(
      renewed.every((lease) => lease.leased_by === holder && lease.leased_until!.getTime() > firstEnd),
      JSON.stringify(renewed),
    );
    assert.equal(arrivals.length, 4, 'no second attempt while the holder lives');

    // An order chat message of the same business reaches the driver while the receiver still hangs.
    const driverToken = await login(client(survivorUrl), tenant.emails.driver);
    const topic = `tms/drivers/${tenant.businessId}/${tenant.userIds.driver}`;
    // Each instance publishes on its own broker (no Redis here): the driver hears both.
    const drivers = await Promise.all(
      [doomed.baseUrl, survivorUrl].map((url) =>
        Listener.connect(`${url.replace('http', 'ws')}/mqtt`, driverToken),
      ),
    );
    try {
      for (const driver of drivers) assert.equal(await driver.subscribe(topic), true);
      const posted = await client(survivorUrl).post(
        `/api/v1/order-chats/${orderId}/messages`,
        { text: 'Gate code 4711' },
        { token: admin },
      );
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      const messageId: number = posted.body.message.id;
      await eventually(() => drivers.some((driver) => driver.has(topic, messageId)), 'the chat push');
      // Pushed while the four first attempts are still in hand, none given up on or recorded.
      assert.equal(abandoned, 0, 'the receiver still hangs on the four first attempts');
      assert.equal(arrivals.length, 4);
      const inHand = await leases();
      assert.ok(
        inHand.every(
          (lease) =>
            lease.leased_by === holder &&
            lease.attempts === 1 &&
            lease.left_ms! > 0 &&
            lease.done_at === null,
        ),
        JSON.stringify(inHand),
      );
    } finally {
      for (const driver of drivers) await driver.close();
    }

    // Killed: its leases are no longer renewed, and the survivor delivers the four again.
    answering = true;
    const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
    doomed.child.kill('SIGKILL');
    await exited;
    await eventually(
      async () => (await leases()).every((lease) => lease.done_at !== null),
      'the deliveries taken over',
    );
    const done = await leases();
    assert.ok(
      done.every((lease) => lease.leased_by !== holder && lease.attempts === 2),
      JSON.stringify(done),
    );
    const firstIds = arrivals.slice(0, 4);
    assert.deepEqual(new Set(arrivals.slice(4)), new Set(firstIds), 'the same messages, at least once');
    assert.equal(new Set(firstIds).size, 4);
  });
});
