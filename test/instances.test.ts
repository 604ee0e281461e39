import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { asOrder, generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { systemClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, login, type Tenant, vansOf } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { type RoundRobin, roundRobin } from './support/instances.ts';
import { Listener, turnOn } from './support/order-chat.ts';
import { type Running, startServe, startWorker } from './support/process.ts';
import { REDIS, redisAnswers } from './support/redis.ts';

const TOKEN_LIMIT_PER_MINUTE = 60;

async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { limitMs = 90_000, everyMs = 50 } = {},
) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A date `days` ahead in the business's time zone, as planning takes it. */
function dateAhead(days: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + days * 86_400_000));
}

/**
 * Three real `tms serve` processes on one PostgreSQL and one Redis behind a round-robin proxy,
 * as an operator runs the service when one machine is not enough (docs/scaling.md).
 */
describe('three instances on one database and one Redis', {
  skip: redisAnswers ? false : 'no Redis answers at 127.0.0.1:6379',
}, () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let tenant: Tenant;
  const services = createServices(loadConfig({ LOG_LEVEL: 'silent' }), systemClock);
  const instances: Running[] = [];
  let proxy: RoundRobin;
  let api: Client;
  let admin: string;
  let shared: Record<string, string>;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  const hooks: Array<{ id: string; type: string }> = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      hooks.push({ id: String(request.headers['webhook-id']), type: JSON.parse(body).type });
      response.writeHead(200).end('ok');
    });
  });

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    tenant = await createTenant(handle.db, services, 'many');
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS,
      // This run's own keys and channels: other runs on the same Redis share no counts or pushes.
      REDIS_PREFIX: `tms-test-${process.pid}-${Date.now().toString(36)}`,
      RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT_PER_MINUTE),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // A job whose worker died is taken up within seconds, not the default minute.
      JOBS_POLL_MS: '500',
      JOBS_MAINTENANCE_SECONDS: '1',
      JOBS_EXPIRY_MARGIN_SECONDS: '2',
    };
    // One at a time: three starts at once on two cores only take longer. Only the second runs
    // jobs: the job test knows which instance runs one.
    for (const jobs of ['off', 'on', 'off']) instances.push(await startServe({ ...env, JOBS: jobs }));
    shared = env;
    proxy = await roundRobin(instances);
    api = client(proxy.baseUrl);
    admin = await login(api, tenant.emails.client_admin);
  });
  after(async () => {
    await proxy?.close();
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await new Promise((resolve) => worker!.child.once('exit', resolve));
    }
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill('SIGTERM');
        await new Promise((resolve) => instance.child.once('exit', resolve));
      }
    }
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await handle?.close();
    await database?.drop();
  });

  it('pushes a chat message posted on one instance to a driver connected to another', async () => {
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
    const built = await api.post('/api/v3/client/build-route', { date }, { token: admin });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
    await turnOn(api, admin);

    const driverToken = await login(api, tenant.emails.driver);
    const topic = `tms/drivers/${tenant.businessId}/${tenant.userIds.driver}`;
    // The driver's phone connected to each instance's broker in turn (MQTT over WebSocket on its
    // HTTP port): whichever instance's outbox publishes the push, two of them hear it from another.
    const drivers = await Promise.all(
      instances.map((instance) =>
        Listener.connect(`${instance.baseUrl.replace('http', 'ws')}/mqtt`, driverToken),
      ),
    );
    // Someone of another business, on the third instance, asking for the same topic.
    const strangerTenant = await createTenant(handle.db, services, 'stranger');
    const stranger = await Listener.connect(
      `${instances[2]!.baseUrl.replace('http', 'ws')}/mqtt`,
      await login(api, strangerTenant.emails.driver),
    );
    try {
      for (const driver of drivers) assert.equal(await driver.subscribe(topic), true);
      assert.equal(await stranger.subscribe(topic), false, 'the access rules hold on every instance');
      // Posted on the first instance itself, not through the proxy.
      const posted = await client(instances[0]!.baseUrl).post(
        `/api/v1/order-chats/${created.body.order_id}/messages`,
        { text: 'Gate code 4711' },
        { token: admin },
      );
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      for (const driver of drivers) {
        const push = await driver.next(topic, posted.body.message.id);
        assert.equal(push.message.text, 'Gate code 4711');
      }
      assert.equal(stranger.received.length, 0);
    } finally {
      for (const driver of drivers) await driver.close();
      await stranger.close();
    }
  });

  it('shares the rate limits: one token gets its limit once, not once per instance', async () => {
    const token = await login(api, tenant.emails.employee);
    const statuses: number[] = [];
    for (let i = 0; i < TOKEN_LIMIT_PER_MINUTE + 15; i++) {
      statuses.push((await api.get('/api/v1/client/orders', { token })).status);
    }
    const refused = statuses.filter((status) => status === 429).length;
    const answered = statuses.filter((status) => status === 200).length;
    assert.equal(answered + refused, statuses.length, JSON.stringify(statuses));
    assert.ok(
      answered <= TOKEN_LIMIT_PER_MINUTE,
      `${answered} answered over a limit of ${TOKEN_LIMIT_PER_MINUTE}`,
    );
    assert.ok(refused >= 15, `${refused} refused`);
    // Every instance took part: the counts were shared, not each instance's own.
    assert.deepEqual(new Set(proxy.answeredBy.slice(-statuses.length)), new Set([0, 1, 2]));
  });

  it('delivers each outbox message once per receiver across the instances', async () => {
    const saved = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: {
        urls: { 'order.created': `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const before = hooks.length;
    const ORDERS = 30;
    // Three batches through the proxy: written on three instances, delivered by whichever takes them.
    for (let batch = 0; batch < 3; batch++) {
      const created = await api.post(
        '/api/v1/client/orders/bulk',
        {
          orders: Array.from({ length: ORDERS / 3 }, (_, i) => ({
            order_ref: `MANY-${batch}-${i}`,
            dropoff: { line1: 'x' },
          })),
        },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    await eventually(() => hooks.length - before >= ORDERS, `${ORDERS} deliveries`);
    // Time for a second delivery of any of them, had one been made.
    await sleep(2_000);
    const ids = hooks.slice(before).map((hook) => hook.id);
    assert.equal(ids.length, ORDERS, 'no message delivered twice');
    assert.equal(new Set(ids).size, ORDERS);
  });

  // Last: it kills two of the three instances.
  it('runs a route job accepted on one instance on another while the first is killed, takes it up again when that one dies, and answers it on the third', async () => {
    const date = dateAhead(3, 'Asia/Shanghai');
    const day = generateInstance({ stops: 60, vehicles: 3, seed: 38 });
    await vansOf(api, admin, tenant, { db: handle.db, services }, day.vehicles);
    const bulk = await api.post(
      '/api/v1/client/orders/bulk',
      { orders: day.stops.map((stop) => asOrder(stop, date)) },
      { token: admin },
    );
    assert.equal(bulk.body.failed, 0, JSON.stringify(bulk.body).slice(0, 300));

    const [accepting, running, answering] = instances as [Running, Running, Running];
    const accepted = await client(accepting.baseUrl).post(
      '/api/v3/client/build-route',
      { date, time_limit_ms: 10_000 },
      { token: admin },
    );
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body).slice(0, 300));
    const location: string = accepted.headers.get('location')!;
    accepting.child.kill('SIGKILL');
    const reader = client(answering.baseUrl);
    const poller = await login(reader, tenant.emails.client_admin);
    const job = async () => (await reader.get(location, { token: poller })).body.job;
    // Run by the one instance that runs jobs, the one that accepted it gone. Read every 1.5 s:
    // the poller's token has its request limit too.
    const polling = { everyMs: 1_500, limitMs: 180_000 };
    await eventually(
      async () => (await job()).status === 'running',
      'the job runs on the second instance',
      polling,
    );
    running.child.kill('SIGKILL');
    await new Promise((resolve) => running.child.once('exit', resolve));
    assert.equal((await job()).status, 'running', 'its worker died holding it');

    worker = await startWorker(shared);
    await eventually(
      async () => ['succeeded', 'failed'].includes((await job()).status),
      'the job taken up again and done',
      polling,
    );
    const done = await job();
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.ok(done.result.routes.length > 0);
    // Done once: the routes it answers are the routes of the day, no more.
    const routes = await handle.db
      .selectFrom('routes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('business_id', '=', tenant.businessId)
      .where('route_date', '=', date)
      .executeTakeFirstOrThrow();
    assert.equal(Number(routes.count), done.result.routes.length);
    // A second run would rebuild the same day as well: only the audit tells one run from two.
    const runs = await handle.db
      .selectFrom('operation_audit')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('request_id', '=', `job-${done.id}`)
      .executeTakeFirstOrThrow();
    assert.equal(Number(runs.count), 1, 'the job was done once');
  });
});
