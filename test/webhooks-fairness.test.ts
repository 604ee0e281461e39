import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** Waits for a condition, polling; fails after the limit (a safety net, not a speed requirement). */
async function eventually(condition: () => boolean, what: string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A receiver on loopback that holds every request unanswered while `hold` is on. */
async function startReceiver(name: string, journal: string[]) {
  const held: ServerResponse[] = [];
  const state = { hold: false, received: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.received++;
      journal.push(`${name} received`);
      // The sender giving up (its timeout) would show here before the other business's delivery.
      response.on('close', () => {
        if (!response.writableFinished) journal.push(`${name} abandoned`);
      });
      if (state.hold) held.push(response);
      else response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    state,
    held,
    /** Answers every held request, and the ones to come. */
    release() {
      state.hold = false;
      for (const response of held.splice(0)) response.writeHead(200).end('ok');
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One business's receiver hangs with a backlog queued behind it; another business's delivery
 * still goes out while the first one's are hanging, through the running service's outbox worker.
 */
describe('webhook fairness between businesses', () => {
  const journal: string[] = [];
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const BACKLOG = 30;
  let server: TestServer;
  let api: Client;
  let slow: Awaited<ReturnType<typeof startReceiver>>;
  let quick: Awaited<ReturnType<typeof startReceiver>>;
  let slowAdmin: string;
  let quickAdmin: string;

  before(async () => {
    server = await startTestServer({
      // The hanging deliveries must not time out during the test: they hang until it ends.
      webhooks: {
        ...defaults.webhooks,
        timeoutMs: 600_000,
        allow: { ...defaults.webhooks.allow, loopback: true },
      },
    });
    api = client(server.baseUrl);
    slow = await startReceiver('slow', journal);
    quick = await startReceiver('quick', journal);
    const subscribe = async (code: string, url: string) => {
      const tenant = await createTenant(server.db, server.app.services, code);
      const token = await login(api, tenant.emails.client_admin);
      const saved = await api.call('PUT', '/api/v1/webhook-settings', {
        token,
        body: { urls: { 'order.created': url } },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      return token;
    };
    slowAdmin = await subscribe('fair-slow', slow.url);
    quickAdmin = await subscribe('fair-quick', quick.url);
    await server.app.startBackground(server.pool);
  });
  after(async () => {
    slow.release();
    await server.close();
    await Promise.all([slow.close(), quick.close()]);
  });

  it("delivers another business's event while one business's receiver hangs with a backlog", async () => {
    slow.state.hold = true;
    const orders = Array.from({ length: BACKLOG }, (_, i) => ({
      order_ref: `SLOW-${i}`,
      dropoff: { line1: `${i} Quai`, city: 'Lyon' },
    }));
    const bulk = await api.post('/api/v1/client/orders/bulk', { orders }, { token: slowAdmin });
    assert.ok(bulk.status < 300, JSON.stringify(bulk.body));
    // The slow business's share of the worker is taken by requests that never answer.
    await eventually(
      () => slow.state.received === defaults.outboxPerBusiness,
      "the slow business's deliveries in hand",
    );

    // This event comes while the worker is busy with deliveries that will not finish.
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'QUICK-1', dropoff: { line1: 'Victim street', city: 'Nantes' } },
      { token: quickAdmin },
    );
    assert.ok(created.status < 300, JSON.stringify(created.body));
    await eventually(() => quick.state.received === 1, "the other business's delivery");

    assert.equal(slow.held.length, defaults.outboxPerBusiness, 'the slow deliveries are still hanging');
    assert.equal(slow.state.received, defaults.outboxPerBusiness, 'the backlog still waits its turn');
    assert.ok(!journal.includes('slow abandoned'), 'no slow delivery gave up first');
    assert.equal(journal.at(-1), 'quick received');

    // Once the receiver answers, the whole backlog goes out.
    slow.release();
    await eventually(() => slow.state.received === BACKLOG, 'the whole backlog');
  });
});
