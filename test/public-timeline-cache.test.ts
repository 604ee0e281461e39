import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import {
  startInstance,
  startTestServer,
  type TestInstance,
  type TestServer,
  UNLIMITED,
} from './support/server.ts';

/** Polls `read` until `done` holds of what it answers; fails after a generous while. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Public timelines are kept in memory by each instance and forgotten, on every instance sharing
 * the database, when an event of their number is stored (PostgreSQL LISTEN/NOTIFY).
 */
describe('public timelines kept in memory across instances', () => {
  let server: TestServer;
  let a: TestInstance;
  let b: TestInstance;
  let apiA: Client;
  let apiB: Client;
  let admin: string;
  let number: string;
  let orderId: number;
  let providerKey: string;
  /** Timeline reads of instance A's tracking service (any of them reaches the database). */
  let readsOnA = 0;

  const scan = (id: string, minute: number, extra: Record<string, unknown> = {}) => ({
    otep_version: '0.1',
    profile: 'parcel',
    subject: { tracking_number: number },
    events: [
      {
        event_id: id,
        occurred_at: new Date(Date.UTC(2026, 10, 2, 12, minute)).toISOString(),
        status_code: 'arrival_scan',
        source: { type: 'provider_push' },
        ...extra,
      },
    ],
  });
  const pushVia = (api: Client, body: unknown) =>
    api.post('/api/v1/otep/ingest', body, { headers: { 'x-otep-provider-key': providerKey } });
  const eventIds = (answer: { body: { data: { events: Array<{ event_id: string }> } } }) =>
    answer.body.data.events.map((event) => event.event_id);

  before(async () => {
    server = await startTestServer();
    a = await startInstance(server);
    b = await startInstance(server);
    apiA = client(a.baseUrl);
    apiB = client(b.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'shared');
    admin = await login(apiA, tenant.emails.client_admin);
    const created = await apiA.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    number = created.body.tracking_number;
    orderId = created.body.order_id;
    providerKey = (await apiA.post('/api/v1/client/otep/providers', { name: 'Hub Co' }, { token: admin }))
      .body.provider.key;
    const tracking = a.app.services.tracking;
    for (const method of ['timelines', 'timelineVersion'] as const) {
      const original = tracking[method].bind(tracking) as (...args: unknown[]) => Promise<never>;
      (tracking as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        readsOnA++;
        return original(...args);
      };
    }
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await server?.close();
  });

  it('answers a hot read and its 304 without reading the timeline again', async () => {
    for (const path of [`/api/v1/otep/trackings/${number}`, `/api/v1/tracking/${number}`]) {
      const first = await apiA.get(path);
      assert.equal(first.status, 200);
      const etag = first.headers.get('etag')!;
      const reads = readsOnA;
      const again = await apiA.get(path);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('etag'), etag);
      const conditional = await fetch(a.baseUrl + path, { headers: { 'if-none-match': etag } });
      assert.equal(conditional.status, 304);
      assert.equal(readsOnA, reads, `${path}: no timeline read for a kept answer or its 304`);
    }
    const batch = () =>
      apiA.post('/api/v1/otep/trackings/batch', { tracking_numbers: [number, 'TMSNOSUCH0000'] });
    const first = await batch();
    const reads = readsOnA;
    const again = await batch();
    assert.deepEqual(again.body, first.body);
    assert.equal(readsOnA, reads + 1, 'only the unknown number is read again');
  });

  it('keeps each language, format and page apart', async () => {
    const path = `/api/v1/tracking/${number}`;
    const english = await apiA.get(path);
    const german = await apiA.get(path, { headers: { 'accept-language': 'de' } });
    assert.equal(english.body.events[0].status_text, 'Shipping information received');
    assert.equal(german.body.events[0].status_text, 'Sendungsdaten übermittelt');
    assert.notEqual(german.headers.get('etag'), english.headers.get('etag'));
    const otep = await apiA.get(`/api/v1/otep/trackings/${number}`);
    const epcis = await apiA.get(`/api/v1/otep/trackings/${number}?format=epcis`);
    assert.equal(otep.body.format, 'otep');
    assert.equal(epcis.body.format, 'epcis');
    const bare = await fetch(`${a.baseUrl}/api/v1/otep/trackings/${number}`, {
      headers: { accept: 'application/vnd.otep.shopify+json' },
    });
    assert.match(bare.headers.get('content-type') ?? '', /shopify/);
    assert.equal(((await bare.json()) as { result?: unknown }).result, undefined, 'the bare document');
  });

  it('shows an event stored through another instance, once its notification arrives', async () => {
    const path = `/api/v1/otep/trackings/${number}`;
    const kept = await apiA.get(path);
    const keptPage = await apiA.get(`/api/v1/tracking/${number}`);
    const keptBatch = await apiA.post('/api/v1/otep/trackings/batch', { tracking_numbers: [number] });
    assert.ok(!eventIds(kept).includes('via-b'));

    assert.equal((await pushVia(apiB, scan('via-b', 1))).status, 200);
    const seen = await eventually(
      () => apiA.get(path),
      (answer) => eventIds(answer).includes('via-b'),
      'instance A shows the event stored through B',
    );
    assert.notEqual(seen.headers.get('etag'), kept.headers.get('etag'));
    const stale = await fetch(a.baseUrl + path, { headers: { 'if-none-match': kept.headers.get('etag')! } });
    assert.equal(stale.status, 200, 'the old tag gets the new timeline');
    // The other answers of the number were forgotten with it.
    const page = await apiA.get(`/api/v1/tracking/${number}`);
    assert.equal(page.body.status, 'arrival_scan');
    assert.notEqual(page.headers.get('etag'), keptPage.headers.get('etag'));
    const batch = await apiA.post('/api/v1/otep/trackings/batch', { tracking_numbers: [number] });
    assert.notDeepEqual(batch.body, keptBatch.body);
    assert.ok(
      batch.body.data.trackings[0].data.events.some((e: { event_id: string }) => e.event_id === 'via-b'),
    );
  });

  it('shows an event stored through the same instance at once', async () => {
    const path = `/api/v1/otep/trackings/${number}`;
    await apiA.get(path);
    assert.equal((await pushVia(apiA, scan('via-a', 2))).status, 200);
    assert.ok(eventIds(await apiA.get(path)).includes('via-a'));
  });

  it('keeps only the public view: a business reading its own number still gets every detail', async () => {
    const street = '12 Private Lane';
    const placed = { location: { city: 'Lyon', country: 'FR', address: street } };
    assert.equal((await pushVia(apiB, scan('with-street', 3, placed))).status, 200);
    const publicRead = () => apiA.get(`/api/v1/otep/trackings/${number}`);
    await eventually(publicRead, (answer) => eventIds(answer).includes('with-street'), 'the new event');
    const own = await apiA.get(`/api/v1/client/trackings/${number}`, { token: admin });
    assert.equal(own.body.view, 'own');
    assert.ok(JSON.stringify(own.body).includes(street), 'the owner sees the street');
    // A signed-in read of the public operation is not taken from (nor put in) the anonymous answers.
    const signedIn = await apiA.get(`/api/v1/otep/trackings/${number}`, { token: admin });
    assert.ok(!JSON.stringify(signedIn.body).includes(street));
    const anonymous = await publicRead();
    assert.ok(!JSON.stringify(anonymous.body).includes(street), 'the public never does');
  });

  it('keeps nothing while its listening connection is lost, then keeps again once it listens', async () => {
    const invalidation = a.app.services.cacheInvalidation;
    const path = `/api/v1/otep/trackings/${number}`;
    await apiA.get(path);
    // Both instances listen on one connection each: end them all, as a restarted database would.
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN tms_cache'`.execute(
      server.db,
    );
    await eventually(
      async () => invalidation.listening,
      (listening) => !listening,
      'instance A notices it no longer listens',
    );
    // Stored while A hears nothing: A must not answer what it kept before.
    assert.equal((await pushVia(apiB, scan('unheard', 4))).status, 200);
    assert.ok(eventIds(await apiA.get(path)).includes('unheard'));
    await eventually(
      async () => invalidation.listening,
      (listening) => listening,
      'instance A listens again',
    );
    await apiA.get(path);
    const reads = readsOnA;
    assert.ok(eventIds(await apiA.get(path)).includes('unheard'));
    assert.equal(readsOnA, reads, 'kept again');
  });

  it('answers the same anonymous words again without running the operation, until the link period turns', async () => {
    const path = `/api/v1/tracking/${number}`;
    const runs: string[] = [];
    const executor = a.app.executor;
    const execute = executor.execute.bind(executor);
    executor.execute = (operation, input, invocation) => {
      runs.push(operation.name);
      return execute(operation, input, invocation);
    };
    try {
      const first = await apiA.get(path);
      const again = await apiA.get(path);
      assert.deepEqual(again.body, first.body);
      const conditional = await fetch(a.baseUrl + path, {
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      assert.equal(conditional.status, 304);
      assert.equal(runs.length, 1, 'only the first read ran the operation');
      // Signed-in words are never answered from the anonymous ones.
      await apiA.get(path, { token: admin });
      assert.equal(runs.length, 2);
      // Its proof links are signed per period: a new period builds the answer again.
      const reads = readsOnA;
      server.clock.advance(24 * 60 * 60_000);
      await apiA.get(path);
      assert.equal(runs.length, 3);
      assert.equal(readsOnA, reads + 1, 'read again under the new period');
    } finally {
      executor.execute = execute;
    }
  });

  it('cancelling the order shows on the other instance', async () => {
    const path = `/api/v1/tracking/${number}`;
    await apiA.get(path);
    // After the scans above, so the cancellation is the latest event.
    server.clock.set(new Date('2026-11-02T13:00:00Z'));
    const cancelled = await apiB.post(`/api/v1/client/orders/${orderId}/cancel`, {}, { token: admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    await eventually(
      () => apiA.get(path),
      (answer) => answer.body.status === 'cancelled',
      'instance A shows the cancellation made through B',
    );
  });
});

/** A kept answer is no way around the limits: every anonymous read counts against its address. */
describe('kept public timelines and the per-address limit', () => {
  let server: TestServer;
  let instance: TestInstance;

  before(async () => {
    server = await startTestServer({ limits: { ...UNLIMITED, perAddressPerMinute: 4 } });
    // An instance that listens for invalidations, as a served one does: it keeps answers.
    instance = await startInstance(server);
  });
  after(async () => {
    await instance?.close();
    await server?.close();
  });

  it('counts reads answered from memory', async () => {
    const tenant = await createTenant(server.db, server.app.services, 'kept-limits');
    const api = client(instance.baseUrl);
    const admin = await login(api, tenant.emails.client_admin);
    const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    const path = `/api/v1/otep/trackings/${created.body.tracking_number}`;
    // The sign-in came from this address too: 4 - 1 left.
    for (let i = 0; i < 3; i++) assert.equal((await api.get(path)).status, 200, `read ${i + 1}`);
    const refused = await api.get(path);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error_code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });
});
