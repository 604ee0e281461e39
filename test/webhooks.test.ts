import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { DEMO_CARRIERS } from '../src/modules/shipping/demo.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver on loopback that answers each path with a scripted list of statuses (then 200). */
async function startReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const next = scripts.get(request.url ?? '')?.shift() ?? { status: 200 };
      response.writeHead(next.status, next.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    scripts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhooks', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  const defaults = loadConfig({ LOG_LEVEL: 'silent' }).webhooks;

  const ofType = (type: string) =>
    receiver.received.filter((r) => JSON.parse(r.body).type === type).map((r) => JSON.parse(r.body));
  const settle = async () => {
    // Deliveries are asynchronous: let the worker drain what is due now.
    await server.app.outbox.drainOnce();
  };

  before(async () => {
    server = await startTestServer({
      webhooks: { ...defaults, allow: { ...defaults.allow, loopback: true } },
    });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'hooks');
    admin = await login(api, tenant.emails.client_admin);
    receiver = await startReceiver();
    const saved = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: {
        urls: {
          'order.created': `${receiver.base}/created`,
          'order.status_changed': `${receiver.base}/status`,
          'tracking.event': `${receiver.base}/tracking`,
        },
        generate_secret: true,
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    secret = saved.body.secret;
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('keeps settings per business, shows the secret once, and updates them partially', async () => {
    assert.match(secret, /^whsec_/);
    const read = await api.get('/api/v1/webhook-settings', { token: admin });
    assert.equal(read.body.secret, undefined);
    assert.equal(read.body.secret_hint, `…${secret.slice(-4)}`);
    assert.ok(!JSON.stringify(read.body).includes(secret));
    assert.equal(read.body.urls['label.created'], '');
    const partial = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: { urls: { 'label.created': `${receiver.base}/labels` } },
    });
    assert.equal(partial.body.urls['order.created'], `${receiver.base}/created`);
    assert.equal(partial.body.urls['label.created'], `${receiver.base}/labels`);
    assert.equal(partial.body.secret, undefined, 'an unchanged secret is not shown');
    const short = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: { secret: 'too-short' },
    });
    assert.equal(short.status, 422);
  });

  it('emits order.created for every creation path of a local-delivery order, never for a label-service order', async () => {
    const before = ofType('order.created').length;
    const one = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-ONE', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: [
          { order_ref: 'W-MANY-1', dropoff: { line1: 'x' } },
          { order_ref: 'W-MANY-2', dropoff: { line1: 'y' } },
        ],
      },
      { token: admin },
    );
    await api.post(
      '/api/v1/client/orders/bulk',
      { orders: [{ order_ref: 'W-BULK', dropoff: { line1: 'x' } }] },
      { token: admin },
    );
    await api.post(
      `/api/v1/client/orders/${one.body.order_id}/reroute`,
      { dropoff: { line1: 'Elsewhere' } },
      { token: admin },
    );
    await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-BY-CUSTOMER', dropoff: { line1: 'x' } },
      { token: await login(api, tenant.emails.customer) },
    );
    await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-LABEL', family: 'label_service', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await settle();
    const refs = ofType('order.created')
      .slice(before)
      .map((event) => event.data.order_ref)
      .sort();
    assert.deepEqual(refs, ['W-BULK', 'W-BY-CUSTOMER', 'W-MANY-1', 'W-MANY-2', 'W-ONE', 'W-ONE-R1']);
  });

  it('signs every delivery twice: v1 HMAC of the body and v2 as Standard Webhooks', async () => {
    const delivery = receiver.received.at(-1)!;
    // The reference library signs the same id, time and body to the same signature. (Its verify()
    // checks the timestamp against the real clock, which the test server does not use.)
    const timestamp = new Date(Number(delivery.headers['webhook-timestamp']) * 1000);
    const expected = new Webhook(secret).sign(
      String(delivery.headers['webhook-id']),
      timestamp,
      delivery.body,
    );
    assert.equal(delivery.headers['webhook-signature'], expected);
    const v1 = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
    assert.equal(delivery.headers['x-webhook-signature'], v1);
    assert.ok(Buffer.byteLength(delivery.body) < 20 * 1024);
  });

  it('retries a failing receiver with backoff and delivers once more with the same webhook-id', async () => {
    receiver.scripts.set('/status', [
      { status: 500 },
      { status: 503 },
      // Longer than any backoff of a third attempt (120 s ± 20 %), so only Retry-After explains it.
      { status: 502, headers: { 'retry-after': '600' } },
    ]);
    const order = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-FLAKY', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await api.post(`/api/v1/client/orders/${order.body.order_id}/hold`, {}, { token: admin });
    await settle();
    for (let i = 0; i < 3; i++) {
      server.clock.advance(3_600_000);
      await settle();
    }
    const attempts = receiver.received.filter(
      (r) => r.path === '/status' && JSON.parse(r.body).data.order_ref === 'W-FLAKY',
    );
    assert.equal(attempts.length, 4);
    assert.equal(new Set(attempts.map((a) => a.headers['webhook-id'])).size, 1);
    const logs = await api.get(
      `/api/v1/webhook-deliveries?webhook_id=${attempts[0]!.headers['webhook-id']}`,
      { token: admin },
    );
    assert.deepEqual(
      logs.body.deliveries.map((d: { attempt: number; state: string; response_status: number }) => [
        d.attempt,
        d.state,
        d.response_status,
      ]),
      [
        [4, 'delivered', 200],
        [3, 'retrying', 502],
        [2, 'retrying', 503],
        [1, 'retrying', 500],
      ],
    );
    const third = logs.body.deliveries[1];
    assert.equal(
      Date.parse(third.next_retry_at) - Date.parse(third.created_at),
      600_000,
      'Retry-After honoured',
    );
    assert.ok(!JSON.stringify(logs.body).includes(secret), 'logs hold no secret');

    // Replay: the same webhook-id, a new attempt.
    const replayed = await api.post(
      `/api/v1/webhook-deliveries/${logs.body.deliveries[0].id}/replay`,
      {},
      { token: admin },
    );
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    await settle();
    const again = receiver.received.filter(
      (r) => r.headers['webhook-id'] === attempts[0]!.headers['webhook-id'],
    );
    assert.equal(again.length, 5);
  });

  it('stops after five retries, and switches a URL off when the receiver answers 410', async () => {
    receiver.scripts.set(
      '/status',
      Array.from({ length: 10 }, () => ({ status: 500 })),
    );
    const order = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-DOWN', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await api.post(`/api/v1/client/orders/${order.body.order_id}/hold`, {}, { token: admin });
    for (let i = 0; i < 8; i++) {
      await settle();
      server.clock.advance(3_600_000);
    }
    const tries = receiver.received.filter(
      (r) => r.path === '/status' && JSON.parse(r.body).data.order_ref === 'W-DOWN',
    );
    assert.equal(tries.length, 6, 'the first attempt and five retries');
    const failed = await api.get('/api/v1/webhook-deliveries?state=failed', { token: admin });
    assert.equal(failed.body.deliveries[0].attempt, 6);
    // A log grows without bound: it pages by cursor too, each page going on after the one before.
    const all = await api.get('/api/v1/webhook-deliveries?per_page=200', { token: admin });
    assert.ok(all.body.total >= 6);
    assert.equal(all.body.next_cursor, null, 'one page holds them all');
    const walked: number[] = [];
    let page = await api.get('/api/v1/webhook-deliveries?per_page=4', { token: admin });
    for (let n = 1; ; n++) {
      assert.deepEqual([page.body.page, page.body.per_page, page.body.total], [n, 4, all.body.total]);
      walked.push(...page.body.deliveries.map((delivery: { id: number }) => delivery.id));
      if (page.body.next_cursor === null) break;
      page = await api.get(`/api/v1/webhook-deliveries?per_page=4&cursor=${page.body.next_cursor}`, {
        token: admin,
      });
    }
    assert.deepEqual(
      walked,
      all.body.deliveries.map((delivery: { id: number }) => delivery.id),
    );
    const forged = await api.get('/api/v1/webhook-deliveries?cursor=bm90LWEtY3Vyc29y', { token: admin });
    assert.equal(forged.status, 422, JSON.stringify(forged.body));
    assert.equal(forged.body.error_code, 'VALIDATION_FAILED');
    receiver.scripts.set('/status', [{ status: 410 }]);
    await api.post(`/api/v1/client/orders/${order.body.order_id}/release`, {}, { token: admin });
    await settle();
    const settings = await api.get('/api/v1/webhook-settings', { token: admin });
    assert.equal(settings.body.urls['order.status_changed'], '');
    assert.match(settings.body.disabled['order.status_changed'], /410/);
  });

  it('tells label.created when a label is bought, with ids and no price', async () => {
    const carrier = DEMO_CARRIERS[0]!;
    const saved = await api.call('PUT', `/api/v1/shipping/carriers/${carrier.code}`, {
      token: admin,
      body: { name: carrier.name, rate_card: carrier.rate_card },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const address = { line1: '5 Rue Oberkampf', city: 'Paris', postal_code: '75011', country: 'FR' };
    const bought = await api.post(
      '/api/v1/labelservice/submitOrder',
      {
        order_ref: 'W-LABEL-BOUGHT',
        pickup: { ...address, line1: '12 Rue de Bercy', postal_code: '75012' },
        dropoff: address,
        packages: [{ weight_grams: 800 }],
        carrier: carrier.code,
        service: carrier.rate_card.services[0]!.code,
      },
      { token: admin },
    );
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    await settle();
    const [label] = ofType('label.created').filter((event) => event.data.order_ref === 'W-LABEL-BOUGHT');
    assert.deepEqual(label?.data, {
      label_id: bought.body.labels[0].id,
      order_id: bought.body.order_id,
      order_ref: 'W-LABEL-BOUGHT',
      tracking_number: bought.body.tracking_number,
      carrier: carrier.code,
      service: carrier.rate_card.services[0]!.code,
      carrier_reference: bought.body.labels[0].carrier_reference,
    });
    assert.equal(receiver.received.find((r) => JSON.parse(r.body).id === label.id)?.path, '/labels');
    assert.ok(ofType('order.created').every((event) => event.data.order_ref !== 'W-LABEL-BOUGHT'));
  });

  it('tells tracking events, and a customer override wins for that customer', async () => {
    const customer = await login(api, tenant.emails.customer);
    const override = await api.call('PUT', '/api/v1/webhook-settings', {
      token: customer,
      body: { urls: { 'order.created': `${receiver.base}/customer-created` } },
    });
    assert.equal(override.status, 200);
    assert.equal(override.body.customer_id, tenant.userIds.customer);
    assert.match(override.body.secret, /^whsec_/, 'a first save generates the secret');
    await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-MINE', dropoff: { line1: 'x' } },
      { token: customer },
    );
    await settle();
    const paths = receiver.received
      .filter((r) => JSON.parse(r.body).data?.order_ref === 'W-MINE')
      .map((r) => r.path);
    assert.ok(paths.includes('/customer-created'));
    assert.ok(!paths.includes('/created'), "the business's URL does not get this customer's event");

    const tracked = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'W-TRACKED', dropoff: { line1: 'x' } },
      { token: admin },
    );
    await api.post(
      `/api/v1/client/orders/${tracked.body.order_id}/status`,
      { status: 'PICKED_UP' },
      { token: admin },
    );
    await settle();
    const events = ofType('tracking.event').filter(
      (event) => event.data.tracking_number === tracked.body.tracking_number,
    );
    // Its creation and its pickup, each the service's own event.
    assert.deepEqual(events.map((event) => [event.data.status_code, event.data.source_type]).sort(), [
      ['information_submitted', 'self_delivery'],
      ['picked_up', 'self_delivery'],
    ]);
    assert.ok(
      receiver.received.some((r) => r.path === '/tracking' && JSON.parse(r.body).id === events[0]!.id),
    );
  });

  it('sends test deliveries, and verifies signatures for receivers', async () => {
    const sent = await api.post(
      '/api/v1/webhook-settings/test',
      { url: `${receiver.base}/test` },
      { token: admin },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.delivered, true);
    const test = receiver.received.at(-1)!;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-webhook-signature'].map((name) => [
        name,
        String(test.headers[name]),
      ]),
    );
    const verify = (body: Record<string, unknown>) => api.post('/api/v1/webhooks/verify', body);
    const good = await verify({ payload: test.body, headers, secret });
    assert.deepEqual([good.body.v1.valid, good.body.v2.valid], [true, true]);
    const tampered = await verify({ payload: `${test.body} `, headers, secret });
    assert.deepEqual([tampered.body.v1.valid, tampered.body.v2.valid], [false, false]);
    const wrong = await verify({
      payload: test.body,
      headers,
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
    });
    assert.deepEqual([wrong.body.v1.valid, wrong.body.v2.valid], [false, false]);
    server.clock.advance(3_600_000);
    const stale = await verify({ payload: test.body, headers, secret });
    assert.equal(stale.body.v2.valid, false);
  });

  it('replays a logged test delivery like any other: the same webhook-id, a new attempt', async () => {
    const sent = await api.post(
      '/api/v1/webhook-settings/test',
      { url: `${receiver.base}/test-again`, kind: 'order.status_changed' },
      { token: admin },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const webhookId = sent.body.webhook_id;
    const logs = async () =>
      (await api.get(`/api/v1/webhook-deliveries?webhook_id=${webhookId}`, { token: admin })).body.deliveries;
    const [logged] = await logs();
    assert.equal(logged.state, 'delivered');
    const replayed = await api.post(`/api/v1/webhook-deliveries/${logged.id}/replay`, {}, { token: admin });
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    assert.equal(replayed.body.webhook_id, webhookId);
    await settle();
    const received = receiver.received.filter((r) => r.path === '/test-again');
    assert.equal(received.length, 2, 'the receiver got the test delivery again');
    assert.deepEqual(
      received.map((r) => r.headers['webhook-id']),
      [webhookId, webhookId],
    );
    assert.equal(received[1]!.body, received[0]!.body);
    assert.equal(JSON.parse(received[1]!.body).test, true);
    const again = await api.post('/api/v1/webhooks/verify', {
      payload: received[1]!.body,
      headers: Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-webhook-signature'].map((name) => [
          name,
          String(received[1]!.headers[name]),
        ]),
      ),
      secret,
    });
    assert.deepEqual(
      [again.body.v1.valid, again.body.v2.valid],
      [true, true],
      "signed with the business's secret",
    );
    assert.deepEqual(
      (await logs()).map((log: { state: string }) => log.state),
      ['delivered', 'delivered'],
    );
  });

  it("leaves the business's URLs alone when a replayed test delivery's receiver answers 410", async () => {
    receiver.scripts.set('/test-gone', [{ status: 200 }, { status: 410 }]);
    const sent = await api.post(
      '/api/v1/webhook-settings/test',
      { url: `${receiver.base}/test-gone`, kind: 'order.created' },
      { token: admin },
    );
    assert.equal(sent.body.delivered, true, JSON.stringify(sent.body));
    const logs = async () =>
      (await api.get(`/api/v1/webhook-deliveries?webhook_id=${sent.body.webhook_id}`, { token: admin })).body
        .deliveries;
    const replayed = await api.post(
      `/api/v1/webhook-deliveries/${(await logs())[0].id}/replay`,
      {},
      {
        token: admin,
      },
    );
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    await settle();
    assert.equal((await logs())[0].state, 'disabled');
    const settings = await api.get('/api/v1/webhook-settings', { token: admin });
    assert.equal(
      settings.body.urls['order.created'],
      `${receiver.base}/created`,
      'no setting names that URL',
    );
    assert.equal(settings.body.disabled['order.created'], undefined);
  });

  it('sends nothing for a dry-run test delivery, and says so', async () => {
    const before = receiver.received.length;
    const preview = await api.post(
      '/api/v1/webhook-settings/test',
      { url: `${receiver.base}/dry` },
      { token: admin, headers: { 'x-dry-run': '1' } },
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.delivered, false);
    assert.equal(preview.body.dry_run, true);
    assert.deepEqual(preview.body.skipped_effects, [
      { kind: 'http', description: `POST a signed order.created test delivery to ${receiver.base}/dry` },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(receiver.received.length, before, 'nothing reached the receiver');
  });

  it('refuses loopback addresses unless the operator allows them', async () => {
    const strict = await startTestServer();
    try {
      const strictApi = client(strict.baseUrl);
      const other = await createTenant(strict.db, strict.app.services, 'strict');
      const token = await login(strictApi, other.emails.client_admin);
      await strictApi.call('PUT', '/api/v1/webhook-settings', { token, body: { generate_secret: true } });
      const before = receiver.received.length;
      const refused = await strictApi.post(
        '/api/v1/webhook-settings/test',
        { url: `${receiver.base}/nope` },
        { token },
      );
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error_code, 'WEBHOOK_URL_REFUSED');
      assert.match(refused.body.message, /127\.0\.0\.1|loopback/i);
      assert.equal(receiver.received.length, before, 'nothing reached the receiver');

      // Settings refuse, when saved, the URLs every delivery would refuse.
      const save = (url: string) =>
        strictApi.call('PUT', '/api/v1/webhook-settings', {
          token,
          body: { urls: { 'order.created': url } },
        });
      for (const [url, reason] of [
        [`${receiver.base}/hook`, 'address'],
        ['http://169.254.169.254/latest/meta-data', 'address'],
        ['http://10.0.0.7/hook', 'address'],
        ['https://user:secret@hooks.example.com/in', 'credentials'],
      ] as const) {
        const answer = await save(url);
        assert.equal(answer.status, 422, `${url}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error_code, 'WEBHOOK_URL_REFUSED', url);
        assert.deepEqual(
          [answer.body.details.field, answer.body.details.reason],
          ['urls.order.created', reason],
        );
      }
      const settings = await strictApi.get('/api/v1/webhook-settings', { token });
      assert.equal(settings.body.urls['order.created'], '', 'nothing refused was saved');
      // A name that does not resolve today may tomorrow: saved, and checked again at every delivery.
      assert.equal((await save('https://hooks.not-yet.invalid/in')).status, 200);
    } finally {
      await strict.close();
    }
  });
});
