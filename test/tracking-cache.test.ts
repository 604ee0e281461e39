import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const PUBLIC_CACHE = 'public, max-age=30, stale-while-revalidate=300';

/** Public timeline reads are cacheable: validators, 304 without building, and pages of long timelines. */
describe('cacheable and paged public timeline reads', () => {
  let server: TestServer;
  let api: Client;
  let number: string;
  let longNumber: string;
  let providerKey: string;
  /** How many timelines the service has read (a 304 must read none). */
  let timelineReads = 0;

  const push = (trackingNumber: string, events: Array<Record<string, unknown>>) =>
    api.post(
      '/api/v1/otep/ingest',
      { otep_version: '0.1', profile: 'parcel', subject: { tracking_number: trackingNumber }, events },
      { headers: { 'x-otep-provider-key': providerKey } },
    );
  const scan = (index: number) => ({
    event_id: `scan-${index}`,
    occurred_at: new Date(Date.UTC(2026, 10, 3, 0, index)).toISOString(),
    status_code: index % 2 === 0 ? 'arrival_scan' : 'in_transit',
    source: { type: 'provider_push', name: 'Hub Co' },
  });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'cache');
    const admin = await login(api, tenant.emails.client_admin);
    const order = async () =>
      (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body
        .tracking_number;
    number = await order();
    longNumber = await order();
    providerKey = (await api.post('/api/v1/client/otep/providers', { name: 'Hub Co' }, { token: admin })).body
      .provider.key;
    // 449 scans after the order's own first event: 450 in all.
    for (let start = 0; start < 449; start += 150) {
      const answer = await push(
        longNumber,
        Array.from({ length: Math.min(150, 449 - start) }, (_, i) => scan(start + i)),
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    const tracking = server.app.services.tracking;
    const read = tracking.timeline.bind(tracking);
    tracking.timeline = (...args) => {
      timelineReads++;
      return read(...args);
    };
  });
  after(() => server.close());

  for (const path of [
    '/api/v1/otep/trackings/{n}',
    '/api/v1/otep/trackings/{n}/events',
    '/api/v1/tracking/{n}',
  ]) {
    it(`${path}: a strong ETag, a public Cache-Control, and 304 without reading the timeline`, async () => {
      const url = path.replace('{n}', number);
      const first = await api.get(url);
      assert.equal(first.status, 200);
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^"[\w-]+"$/, 'a strong tag');
      assert.equal(first.headers.get('cache-control'), PUBLIC_CACHE);
      assert.match(first.headers.get('vary') ?? '', /Accept-Language/);
      assert.equal((await api.get(url)).headers.get('etag'), etag, 'the same answer, the same tag');

      const reads = timelineReads;
      const again = await fetch(server.baseUrl + url, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('cache-control'), PUBLIC_CACHE);
      assert.equal(timelineReads, reads, 'no timeline was read for the 304');
      const listed = await fetch(server.baseUrl + url, {
        headers: { 'if-none-match': `"other", W/${etag}` },
      });
      assert.equal(listed.status, 304, 'a tag among others, weak or not, matches');

      const german = await api.get(url, { headers: { 'accept-language': 'de' } });
      assert.notEqual(german.headers.get('etag'), etag, 'another language is another answer');
      const secondPage = await api.get(`${url}?page=2`);
      assert.notEqual(secondPage.headers.get('etag'), etag, 'another page is another answer');
    });
  }

  it('changes the tag when an event arrives, and when the format changes', async () => {
    const url = `/api/v1/otep/trackings/${number}`;
    const before = (await api.get(url)).headers.get('etag')!;
    const epcis = (await api.get(`${url}?format=epcis`)).headers.get('etag')!;
    assert.notEqual(epcis, before);
    const bare = await fetch(server.baseUrl + url, {
      headers: { accept: 'application/vnd.otep.shopify+json' },
    });
    assert.notEqual(bare.headers.get('etag'), before);
    assert.equal((await push(number, [scan(1000)])).status, 200);
    const after = await fetch(server.baseUrl + url, { headers: { 'if-none-match': before } });
    assert.equal(after.status, 200, 'a stale tag gets the new timeline');
    assert.notEqual(after.headers.get('etag'), before);
    const body = (await after.json()) as { data: { events: Array<{ event_id: string }> } };
    assert.equal(body.data.events.at(-1)!.event_id, 'scan-1000');
  });

  it('caches no refusal', async () => {
    const unknown = await api.get('/api/v1/otep/trackings/TMSNOSUCH000');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('cache-control'), 'no-store');
    assert.equal(unknown.headers.get('etag'), null);
    const conditional = await fetch(`${server.baseUrl}/api/v1/tracking/TMSNOSUCH000`, {
      headers: { 'if-none-match': '*' },
    });
    assert.equal(conditional.status, 404);
  });

  it('pages a long timeline from the newest events back, each page oldest first', async () => {
    const url = `/api/v1/otep/trackings/${longNumber}`;
    const first = await api.get(url);
    assert.equal(first.status, 200);
    // The envelope of every paged list: total counts the events of the whole timeline.
    const envelope = ({ body }: typeof first) => ({
      total: body.total,
      page: body.page,
      per_page: body.per_page,
    });
    assert.deepEqual(envelope(first), { total: 450, page: 1, per_page: 200 });
    const ids = (answer: typeof first) =>
      answer.body.data.events.map((event: { event_id: string }) => event.event_id);
    assert.equal(ids(first).length, 200);
    assert.equal(ids(first)[0], 'scan-249');
    assert.equal(ids(first).at(-1), 'scan-448');
    assert.equal(first.body.data.current_status, 'arrival_scan');

    const last = await api.get(`${url}?page=3`);
    assert.deepEqual(envelope(last), { total: 450, page: 3, per_page: 200 });
    assert.equal(ids(last).length, 50);
    assert.equal(
      last.body.data.events[0].status_code,
      'information_submitted',
      'the oldest event is on the last page',
    );
    assert.equal(last.body.data.current_status, 'arrival_scan', 'the status is the whole timeline’s');
    assert.deepEqual(ids(await api.get(`${url}?page=4`)), []);

    const whole = await api.get(`${url}?per_page=1000`);
    assert.equal(ids(whole).length, 450);
    const tooMany = await api.get(`${url}?per_page=1001`);
    assert.equal(tooMany.status, 422);
    assert.equal((await api.get(`${url}?page=0`)).status, 422);

    const events = await api.get(`${url}/events?per_page=10&page=2`);
    assert.deepEqual(envelope(events), { total: 450, page: 2, per_page: 10 });
    assert.equal(events.body.data[0].event_id, 'scan-429');

    const simple = await api.get(`/api/v1/tracking/${longNumber}?per_page=5`);
    assert.deepEqual(envelope(simple), { total: 450, page: 1, per_page: 5 });
    assert.equal(simple.body.events.length, 5);
    assert.equal(simple.body.status, 'arrival_scan');

    const batch = await api.post('/api/v1/otep/trackings/batch', { tracking_numbers: [longNumber, number] });
    const [long] = batch.body.data.trackings;
    assert.equal(long.total_events, 450);
    assert.equal(long.data.events.length, 200, 'a batch holds the newest page of each');
  });
});
