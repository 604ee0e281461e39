import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Event {
  event_id: string;
  status_code: string;
  after_terminal?: boolean;
}

describe('tracking: terminal states stay terminal', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let providerKey: string;

  const push = async (trackingNumber: string, events: Array<[string, string, string]>) => {
    const answer = await api.post(
      '/api/v1/otep/ingest',
      {
        subject: { tracking_number: trackingNumber },
        events: events.map(([event_id, status_code, occurred_at]) => ({
          event_id,
          status_code,
          occurred_at,
        })),
      },
      { headers: { 'x-otep-provider-key': providerKey } },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const otep = async (trackingNumber: string, format = 'otep') => {
    const answer = await api.get(`/api/v1/otep/trackings/${trackingNumber}?format=${format}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data;
  };
  /** The pushed events in timeline order, each with its flag: `code` or `code!` after a terminal one. */
  const flagged = async (trackingNumber: string) =>
    ((await otep(trackingNumber)).events as Event[])
      .filter((event) => event.event_id.startsWith('p-'))
      .map((event) => `${event.status_code}${event.after_terminal ? '!' : ''}`);
  const parcel = async (ref: string) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.tracking_number as string;
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'final');
    admin = await login(api, tenant.emails.client_admin);
    const provider = await api.post('/api/v1/client/otep/providers', { name: 'Late Co' }, { token: admin });
    assert.equal(provider.status, 200, JSON.stringify(provider.body));
    providerKey = provider.body.provider.key;
  });
  after(() => server.close());

  it('keeps a later non-terminal event of a delivered parcel, flagged, without reopening it', async () => {
    const number = await parcel('F-DELIVERED');
    await push(number, [
      ['p-1', 'in_transit', '2026-11-04T09:00:00Z'],
      ['p-2', 'delivered', '2026-11-04T12:00:00Z'],
    ]);
    const late = await push(number, [['p-3', 'out_for_delivery', '2026-11-04T14:00:00Z']]);
    assert.equal(late.accepted, 1, 'the event is recorded');
    const timeline = await otep(number);
    assert.deepEqual([timeline.current_status, timeline.delivered], ['delivered', true]);
    assert.deepEqual(await flagged(number), ['in_transit', 'delivered', 'out_for_delivery!']);
    assert.equal(timeline.events.at(-1).after_terminal, true);
    assert.equal(
      timeline.events.filter((event: Event) => 'after_terminal' in event).length,
      1,
      'only the flagged event carries the field',
    );

    const page = await api.get(`/api/v1/tracking/${number}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(
      [page.body.status, page.body.phase, page.body.delivered],
      ['delivered', 'delivered', true],
    );
    assert.deepEqual(
      page.body.events.slice(0, 2).map((event: Event) => [event.status_code, event.after_terminal]),
      [
        ['out_for_delivery', true],
        ['delivered', false],
      ],
    );
    assert.notEqual(page.body.proof_of_delivery, null);
    // The formats read the current status the same way, not the latest event.
    assert.equal((await otep(number, 'aftership')).tag, 'Delivered');
    assert.equal((await otep(number, 'amazon')).summary.status, 'Delivered');
    assert.equal((await otep(number, 'walmart')).order.orderLineStatus, 'Delivered');
  });

  it('lets a later terminal event end the journey instead', async () => {
    const number = await parcel('F-RETURNED');
    await push(number, [
      ['p-1', 'delivered', '2026-11-04T12:00:00Z'],
      ['p-2', 'out_for_delivery', '2026-11-04T14:00:00Z'],
      ['p-3', 'returned', '2026-11-05T09:00:00Z'],
    ]);
    const timeline = await otep(number);
    assert.deepEqual([timeline.current_status, timeline.delivered], ['returned', false]);
    assert.deepEqual(await flagged(number), ['delivered', 'out_for_delivery!', 'returned']);
  });

  it('keeps a cancelled parcel cancelled, in every format', async () => {
    const number = await parcel('F-CANCELLED');
    await push(number, [
      ['p-1', 'cancelled', '2026-11-04T12:00:00Z'],
      ['p-2', 'in_transit', '2026-11-04T14:00:00Z'],
    ]);
    assert.equal((await otep(number)).current_status, 'cancelled');
    assert.deepEqual(await flagged(number), ['cancelled', 'in_transit!']);
    assert.equal((await otep(number, 'walmart')).order.orderLineStatus, 'Cancelled');
    assert.equal((await otep(number, 'aftership')).tag, 'Exception');
  });

  it('flags an event already stored when a terminal one that happened before it arrives late', async () => {
    const number = await parcel('F-LATE-PROOF');
    await push(number, [['p-2', 'out_for_delivery', '2026-11-04T14:00:00Z']]);
    assert.equal((await otep(number)).current_status, 'out_for_delivery');
    await push(number, [['p-1', 'delivered', '2026-11-04T12:00:00Z']]);
    const timeline = await otep(number);
    assert.deepEqual([timeline.current_status, timeline.delivered], ['delivered', true]);
    assert.deepEqual(await flagged(number), ['delivered', 'out_for_delivery!']);
  });

  it('still orders non-terminal events by when they happened, whatever order they arrive in', async () => {
    const number = await parcel('F-OPEN');
    await push(number, [['p-2', 'in_transit', '2026-11-04T10:00:00Z']]);
    await push(number, [['p-1', 'arrival_scan', '2026-11-04T09:00:00Z']]);
    assert.equal(
      (await otep(number)).current_status,
      'in_transit',
      'an earlier event arriving late is no news',
    );
    await push(number, [['p-3', 'delivery_failed', '2026-11-04T11:00:00Z']]);
    assert.equal((await otep(number)).current_status, 'delivery_failed');
    assert.deepEqual(await flagged(number), ['arrival_scan', 'in_transit', 'delivery_failed']);
  });

  it('paged, flags the events after a terminal one on any page, and keeps the status', async () => {
    const number = await parcel('F-PAGES');
    await push(number, [
      ['p-1', 'delivered', '2026-11-04T12:00:00Z'],
      ['p-2', 'out_for_delivery', '2026-11-04T13:00:00Z'],
      ['p-3', 'in_transit', '2026-11-04T14:00:00Z'],
    ]);
    const newest = await api.get(`/api/v1/otep/trackings/${number}?per_page=1`);
    assert.equal(newest.status, 200, JSON.stringify(newest.body));
    assert.equal(newest.body.data.current_status, 'delivered');
    assert.deepEqual(
      newest.body.data.events.map((event: Event) => [event.status_code, event.after_terminal]),
      [['in_transit', true]],
    );
  });

  it('adds one flagged event for a status-only source that repeats a stale status after delivery', async () => {
    const number = await parcel('F-STATUS');
    // Delivered after the order was made, and observed as "in transit" later still.
    const deliveredAt = new Date(server.clock.now().getTime() + 30 * 60_000).toISOString();
    await push(number, [['p-1', 'delivered', deliveredAt]]);
    server.clock.advance(60 * 60_000);
    const statusOnly = { subject: { tracking_number: number }, current_status: 'in_transit' };
    const headers = { 'x-otep-provider-key': providerKey };
    const first = await api.post('/api/v1/otep/ingest', statusOnly, { headers });
    assert.equal(first.body.accepted, 1, JSON.stringify(first.body));
    server.clock.advance(60_000);
    const again = await api.post('/api/v1/otep/ingest', statusOnly, { headers });
    assert.equal(again.body.accepted, 0, 'an unchanged status adds nothing, even after a terminal one');
    const timeline = await otep(number);
    assert.equal(timeline.current_status, 'delivered');
    assert.deepEqual(
      timeline.events.at(-1).status_code + (timeline.events.at(-1).after_terminal ? '!' : ''),
      'in_transit!',
    );
  });
});
