import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startServe, stopServe } from './support/process.ts';

async function eventually(condition: () => boolean | Promise<boolean>, what: string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Delivery through real service processes and real time: a service killed with SIGKILL in the
 * middle of a delivery delivers it after restart, and two instances on one database never both
 * deliver the same attempt.
 */
describe('webhook deliveries across crashes and instances', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const received: Array<{ id: string; body: string }> = [];
  let hangNext = false;
  const hanging: ServerResponse[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), body });
      if (hangNext) {
        hangNext = false;
        hanging.push(response); // never answered: the sender dies first
        return;
      }
      response.writeHead(200).end('ok');
    });
  });
  let receiverUrl: string;

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    for (const response of hanging) response.destroy();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await handle.close();
    await database.drop();
  });

  it('delivers after a SIGKILL in the middle of a delivery, with the same webhook-id', async () => {
    const services = createServices(loadConfig({ LOG_LEVEL: 'silent' }), systemClock);
    const tenant = await createTenant(handle.db, services, 'crash');
    const env = {
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      OUTBOX_LEASE_MS: '1500',
      LOG_LEVEL: 'warn',
    };
    let running = await startServe(env);
    const api = client(running.baseUrl);
    const admin = await login(api, tenant.emails.client_admin);
    const saved = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: { urls: { 'order.created': receiverUrl } },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));

    hangNext = true;
    await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'CRASH-1', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await eventually(() => received.length === 1, 'the first, unanswered attempt');
    running.child.kill('SIGKILL');
    await new Promise((resolve) => running.child.once('exit', resolve));

    running = await startServe(env);
    try {
      await eventually(() => received.length === 2, 'the delivery after restart');
      assert.equal(received[1]!.id, received[0]!.id, 'the same webhook-id');
      assert.equal(JSON.parse(received[1]!.body).data.order_ref, 'CRASH-1');
      const logs = await client(running.baseUrl).get(
        `/api/v1/webhook-deliveries?webhook_id=${received[0]!.id}`,
        {
          token: await login(client(running.baseUrl), tenant.emails.client_admin),
        },
      );
      assert.deepEqual(
        logs.body.deliveries.map((d: { state: string }) => d.state),
        ['delivered'],
      );
    } finally {
      assert.equal(await stopServe(running), 0);
    }
  });

  it('never lets two instances on one database deliver the same attempt', async () => {
    // Each instance's embedded MQTT broker on a free port of its own.
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', MQTT_PORT: '0' }), databaseUrl: database.url };
    config.webhooks = { ...config.webhooks, allow: { ...config.webhooks.allow, loopback: true } };
    const [first, second] = [await createApp(config, handle.db), await createApp(config, handle.db)];
    const tenant = await createTenant(handle.db, first.services, 'twins');
    await first.http.listen({ port: 0, host: '127.0.0.1' });
    const api = client(`http://127.0.0.1:${(first.http.server.address() as AddressInfo).port}`);
    const admin = await login(api, tenant.emails.client_admin);
    await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: { urls: { 'order.created': receiverUrl } },
    });
    await Promise.all([first.startBackground(handle.pool), second.startBackground(handle.pool)]);
    const before = received.length;
    try {
      await api.post(
        '/api/v1/client/orders/bulk',
        {
          orders: Array.from({ length: 40 }, (_, i) => ({ order_ref: `TWIN-${i}`, dropoff: { line1: 'x' } })),
        },
        { token: admin },
      );
      await eventually(() => received.length - before >= 40, '40 deliveries');
      await sleep(300);
      const ids = received.slice(before).map((r) => r.id);
      assert.equal(ids.length, 40, 'no delivery twice');
      assert.equal(new Set(ids).size, 40);
    } finally {
      await Promise.all([first.stopBackground(), second.stopBackground()]);
      await first.http.close();
      await second.http.close();
    }
  });
});
