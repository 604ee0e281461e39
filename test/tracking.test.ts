import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Event {
  event_id: string;
  status_code: string;
  occurred_at: string;
  source: { type: string; name?: string };
  location?: Record<string, unknown>;
  pod?: Record<string, unknown>;
  description?: string;
}

describe('tracking: OTEP store, reads, providers and ingest', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let other: Tenant;
  let admin: string;
  let number: string;
  let orderId: number;
  let providerKey: string;
  let otherProviderKey: string;

  const timeline = async (trackingNumber: string, query = '') =>
    api.get(`/api/v1/otep/trackings/${trackingNumber}${query}`);
  const codes = async (trackingNumber: string) =>
    ((await timeline(trackingNumber)).body.data.events as Event[]).map((e) => e.status_code);
  const push = (body: unknown, key?: string, path = '/api/v1/otep/ingest') =>
    api.post(path, body, { headers: key ? { 'x-otep-provider-key': key } : {} });
  const pushed = (trackingNumber: string, events: unknown[]) => ({
    otep_version: '0.1',
    profile: 'parcel',
    subject: { tracking_number: trackingNumber },
    events,
  });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'track');
    other = await createTenant(server.db, server.app.services, 'elsewhere');
    admin = await login(api, tenant.emails.client_admin);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'T-1', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orderId = created.body.order_id;
    number = created.body.tracking_number;
    const provider = await api.post(
      '/api/v1/client/otep/providers',
      { name: 'Last Mile Co' },
      { token: admin },
    );
    assert.equal(provider.status, 200, JSON.stringify(provider.body));
    providerKey = provider.body.provider.key;
    const otherAdmin = await login(api, other.emails.client_admin);
    otherProviderKey = (
      await api.post('/api/v1/client/otep/providers', { name: 'Theirs' }, { token: otherAdmin })
    ).body.provider.key;
  });
  after(() => server.close());

  it("appends the service's own events as a self-delivery order moves", async () => {
    assert.deepEqual(await codes(number), ['information_submitted']);
    for (const status of ['PICKED_UP', 'OUT_FOR_DELIVERY']) {
      server.clock.advance(10 * 60_000);
      const moved = await api.post(`/api/v1/client/orders/${orderId}/status`, { status }, { token: admin });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
    }
    const answer = await timeline(number);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.format, 'otep');
    const data = answer.body.data;
    assert.equal(data.otep_version, '0.1');
    assert.equal(data.current_status, 'out_for_delivery');
    assert.equal(data.delivered, false);
    assert.deepEqual(
      data.events.map((e: Event) => [e.status_code, e.source.type]),
      [
        ['information_submitted', 'self_delivery'],
        ['picked_up', 'self_delivery'],
        ['out_for_delivery', 'self_delivery'],
      ],
    );
    // The public sees the town, not the street, the coordinates or the phone.
    assert.deepEqual(data.events[2].location, { city: 'Paris', postal_code: '75001', country: 'FR' });
    const text = JSON.stringify(answer.body);
    for (const secret of ['Rivoli', '48.86', '+33', '"order_id"', '"package_id"'])
      assert.ok(!text.includes(secret), secret);
    assert.deepEqual(data.subject, { tracking_number: number });
  });

  it('keeps a carrier-held order out of the self-delivery events', async () => {
    const carried = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: 'x' }, carrier: 'UPS' },
      { token: admin },
    );
    const events = (await timeline(carried.body.tracking_number)).body.data.events;
    assert.deepEqual(events, []);
  });

  it('answers in the other formats, by parameter or by Accept, and refuses unknown ones', async () => {
    const epcis = await timeline(number, '?format=epcis');
    assert.equal(epcis.status, 200);
    assert.equal(epcis.body.format, 'epcis');
    assert.equal(epcis.body.data.type, 'EPCISDocument');
    assert.equal(epcis.body.data.epcisBody.eventList.length, 3);
    const bare = await api.get(`/api/v1/otep/trackings/${number}`, {
      headers: { accept: 'application/ld+json; profile="https://ref.gs1.org/standards/epcis"' },
    });
    assert.equal(bare.status, 200);
    assert.match(bare.headers.get('content-type') ?? '', /application\/ld\+json/);
    const bareBody = typeof bare.body === 'string' ? JSON.parse(bare.body) : bare.body;
    assert.equal(bareBody.type, 'EPCISDocument');
    const unknown = await timeline(number, '?format=xml');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error_code, 'UNKNOWN_FORMAT');
    assert.equal(unknown.body.details.formats.length, 14);
    assert.ok(unknown.body.details.formats.includes('otlp'));
    const missing = await timeline('TMSNOSUCH0000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error_code, 'TRACKING_NOT_FOUND');
    const events = await api.get(`/api/v1/otep/trackings/${number}/events`);
    assert.equal(events.body.data.length, 3);
  });

  it('reads many numbers in one batch, telling the unknown ones apart, up to 100', async () => {
    const answer = await api.post('/api/v1/otep/trackings/batch', {
      tracking_numbers: [number, 'NOPE', number],
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      answer.body.data.trackings.map((t: { tracking_number: string }) => t.tracking_number),
      [number],
    );
    assert.deepEqual(answer.body.data.not_found, ['NOPE']);
    const tooMany = await api.post('/api/v1/otep/trackings/batch', {
      tracking_numbers: Array.from({ length: 101 }, (_, i) => `N${i}`),
    });
    assert.equal(tooMany.status, 422);
  });

  it('keeps the first of an event sent twice in one push, and stores only the new ones of a push partly seen', async () => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'T-DUP', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    const dup = created.body.tracking_number as string;
    const event = (event_id: string, status_code: string, hour: number) => ({
      event_id,
      occurred_at: `2026-11-02T${String(hour).padStart(2, '0')}:00:00Z`,
      status_code,
      source: { type: 'provider_push' },
    });
    const first = await push(
      pushed(dup, [
        event('d-1', 'in_transit', 8),
        event('d-2', 'arrival_scan', 9),
        event('d-1', 'delivered', 10),
      ]),
      providerKey,
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.accepted, first.body.duplicates], [2, 1]);
    const partly = await push(
      pushed(dup, [event('d-3', 'out_for_delivery', 11), event('d-2', 'arrival_scan', 9)]),
      providerKey,
    );
    assert.deepEqual([partly.body.accepted, partly.body.duplicates], [1, 1]);
    const stored = (await codes(dup)).filter((code) => !/information_submitted/.test(code));
    assert.equal(stored.length, 3, stored.join());
    assert.ok(stored.some((code) => code.endsWith('in_transit')));
    assert.ok(!stored.some((code) => code.endsWith('delivered')));
  });

  it('takes provider pushes with a provider key only, merged into the timeline in time order', async () => {
    const events = [
      {
        event_id: 'lm-2',
        occurred_at: '2026-11-02T11:15:00+01:00',
        status_code: 'delivery_failed',
        source: { type: 'provider_push' },
        incident_reason: { code: 'recipient_absent' },
      },
      {
        event_id: 'lm-1',
        occurred_at: '2026-11-02T09:45:00Z',
        status_code: 'otep:parcel:arrival_scan',
        source: { type: 'provider_push' },
        location: { name: 'Hub Nord', city: 'Paris', country: 'FR', gln: '3012345000010' },
      },
    ];
    const userToken = await api.post('/api/v1/otep/ingest', pushed(number, events), { token: admin });
    assert.equal(userToken.status, 401);
    assert.equal(userToken.body.error_code, 'PROVIDER_CREDENTIAL_REQUIRED');
    assert.equal((await push(pushed(number, events), 'otp_not-a-key')).status, 401);

    const first = await push(pushed(number, events), providerKey);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.accepted, first.body.duplicates], [2, 0]);
    const again = await push({ timelines: [pushed(number, events)] }, providerKey);
    assert.deepEqual([again.body.accepted, again.body.duplicates], [0, 2]);

    const data = (await timeline(number)).body.data;
    const byOccurrence = data.events.map((e: Event) => e.occurred_at);
    assert.deepEqual(
      [...byOccurrence].sort((a: string, b: string) => Date.parse(a) - Date.parse(b)),
      byOccurrence,
    );
    const scan = data.events.find((e: Event) => e.event_id === 'lm-1');
    assert.equal(scan.status_code, 'arrival_scan');
    assert.equal(scan.source.name, 'Last Mile Co');
    assert.equal(scan.location.gln, '3012345000010');
    const failed = data.events.find((e: Event) => e.event_id === 'lm-2');
    assert.equal(failed.occurred_at, '2026-11-02T11:15:00+01:00');
  });

  it('turns a status-only source into one synthesized event per observed change', async () => {
    const statusOnly = (status: string) => ({
      otep_version: '0.1',
      profile: 'parcel',
      subject: { tracking_number: number },
      current_status: status,
    });
    const count = async () => (await codes(number)).length;
    const before = await count();
    server.clock.advance(60_000);
    const changed = await push(statusOnly('in_transit'), providerKey);
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.accepted, 1);
    const unchanged = await push(statusOnly('otep:parcel:in_transit'), providerKey);
    assert.equal(unchanged.body.accepted, 0);
    assert.equal(await count(), before + 1);
    const synthesized = (await timeline(number)).body.data.events.find(
      (e: Event) => e.source.type === 'synthesized',
    );
    assert.equal(synthesized.status_code, 'in_transit');
  });

  it("takes a push of subject, times and statuses only, and the interface's terminal names", async () => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'T-MIN', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    const minimal: string = created.body.tracking_number;
    const bare = {
      subject: { tracking_number: minimal },
      events: [
        { event_id: 'min-1', occurred_at: '2026-11-04T09:00:00+01:00', status_code: 'delivery_failed' },
        { event_id: 'min-2', occurred_at: '2026-11-05T09:00:00+01:00', status_code: 'return_to_sender' },
      ],
    };
    const validated = await api.post('/api/v1/otep/validate', bare);
    assert.deepEqual([validated.body.conformant, validated.body.errors], [true, []]);
    const stored = await push(bare, providerKey);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.equal(stored.body.accepted, 2);

    const row = await sql<{ status_code: string }>`SELECT status_code FROM tracking_events
      WHERE tracking_number = ${minimal} AND event_id = 'min-2'`.execute(server.db);
    assert.deepEqual(row.rows, [{ status_code: 'returned' }]);
    // A row stored under the longer name, before the interface's names became the codes, reads as the code.
    await sql`UPDATE tracking_events SET status_code = 'return_to_sender'
      WHERE tracking_number = ${minimal} AND event_id = 'min-2'`.execute(server.db);

    const data = (await timeline(minimal)).body.data;
    const [failed, returned] = data.events.filter((e: Event) => e.event_id.startsWith('min-'));
    assert.deepEqual(failed.source, { type: 'provider_push', name: 'Last Mile Co' });
    assert.equal(failed.otep_version, '0.1');
    assert.deepEqual([returned.status_code, returned.status_uri], ['returned', 'otep:parcel:returned']);
    assert.equal(data.current_status, 'returned');
  });

  it('refuses a whole push when one event is bad or a number is not the provider business’s', async () => {
    const before = (await codes(number)).length;
    const bad = await push(
      {
        timelines: [
          pushed(number, [
            {
              occurred_at: '2026-11-02T12:00:00+01:00',
              status_code: 'in_transit',
              source: { type: 'carrier' },
            },
          ]),
          pushed(number, [
            { occurred_at: '2026-11-02T12:00:00', status_code: 'in_transit', source: { type: 'carrier' } },
          ]),
        ],
      },
      providerKey,
      '/api/v1/otep/ingest',
    );
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error_code, 'OTEP_INVALID');
    assert.ok(
      bad.body.details.errors.some((e: { path: string }) => e.path === 'timelines[1].events[0].occurred_at'),
      JSON.stringify(bad.body.details),
    );
    const foreign = await push(
      pushed(number, [
        { occurred_at: '2026-11-02T12:00:00Z', status_code: 'in_transit', source: { type: 'carrier' } },
      ]),
      otherProviderKey,
    );
    assert.equal(foreign.status, 422);
    assert.deepEqual(
      foreign.body.details.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['subject.tracking_number', 'unknown_tracking_number']],
    );
    assert.equal((await codes(number)).length, before, 'nothing was written');
  });

  it("takes a subject on each event as well as on the envelope, the event's own winning", async () => {
    const parcel = async (ref: string) =>
      (
        await api.post(
          '/api/v1/client/orderCreate',
          { order_ref: ref, scheduled_date: '2026-11-03', dropoff: DROPOFF },
          { token: admin },
        )
      ).body.tracking_number as string;
    const [first, second] = [await parcel('T-SUBJ-1'), await parcel('T-SUBJ-2')];
    const ids = async (trackingNumber: string) =>
      ((await timeline(trackingNumber)).body.data.events as Event[])
        .map((e) => e.event_id)
        .filter((id) => id.startsWith('subj-'));
    const mixed = pushed(first, [
      { event_id: 'subj-1', occurred_at: '2026-11-04T09:00:00Z', status_code: 'arrival_scan' },
      {
        event_id: 'subj-2',
        occurred_at: '2026-11-04T09:05:00Z',
        status_code: 'arrival_scan',
        subject: { tracking_number: second },
      },
    ]);
    const stored = await push(mixed, providerKey);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.equal(stored.body.accepted, 2);
    assert.deepEqual(await ids(first), ['subj-1']);
    assert.deepEqual(await ids(second), ['subj-2']);

    // No subject on the envelope: every event names its own, which the validator accepts too.
    const perEvent = {
      events: [first, second].map((trackingNumber, at) => ({
        event_id: `subj-${3 + at}`,
        occurred_at: '2026-11-04T11:00:00Z',
        status_code: 'in_transit',
        subject: { tracking_number: trackingNumber },
      })),
    };
    const validated = await api.post('/api/v1/otep/validate', perEvent);
    assert.deepEqual([validated.body.conformant, validated.body.errors], [true, []]);
    assert.equal((await push(perEvent, providerKey)).body.accepted, 2);
    assert.deepEqual(await ids(first), ['subj-1', 'subj-3']);
    assert.deepEqual(await ids(second), ['subj-2', 'subj-4']);
    const oneWithout = { events: [perEvent.events[0], { ...perEvent.events[1], subject: undefined }] };
    const incomplete = await api.post('/api/v1/otep/validate', oneWithout);
    assert.deepEqual(
      incomplete.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['events[1].subject', 'missing_subject']],
    );
    assert.equal((await push(oneWithout, providerKey)).status, 422);

    // An event's own number is held to the provider's business like the envelope's.
    const foreign = await push(
      pushed(first, [
        {
          occurred_at: '2026-11-04T12:00:00Z',
          status_code: 'in_transit',
          subject: { tracking_number: 'NOT-OURS-1' },
        },
      ]),
      providerKey,
    );
    assert.equal(foreign.status, 422);
    assert.deepEqual(
      foreign.body.details.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['events[0].subject.tracking_number', 'unknown_tracking_number']],
    );
    assert.deepEqual(await ids(first), ['subj-1', 'subj-3'], 'nothing was written');
  });

  it('reads EPCIS back: our own projection ingested again is the same events', async () => {
    const epcis = (await timeline(number, '?format=epcis')).body.data;
    const answer = await push(epcis, providerKey, '/api/v1/otep/ingest/epcis');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.accepted, 0);
    assert.equal(answer.body.duplicates, epcis.epcisBody.eventList.length);
  });

  it('takes EPCIS in the JSON-LD media type it serves it in, and as plain JSON', async () => {
    const epcis = (await timeline(number, '?format=epcis')).body.data;
    for (const type of [
      'application/ld+json',
      'application/ld+json; profile="https://ref.gs1.org/standards/epcis"',
      'application/json',
    ]) {
      const answer = await api.post('/api/v1/otep/ingest/epcis', epcis, {
        headers: { 'x-otep-provider-key': providerKey, 'content-type': type },
      });
      assert.equal(answer.status, 200, `${type}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.duplicates, epcis.epcisBody.eventList.length);
    }
    const broken = await api.post('/api/v1/otep/ingest/epcis', '{"epcisBody": ', {
      headers: { 'x-otep-provider-key': providerKey, 'content-type': 'application/ld+json' },
    });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error_code, 'INVALID_JSON');
    const text = await api.post('/api/v1/otep/ingest/epcis', 'epcis', {
      headers: { 'x-otep-provider-key': providerKey, 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.error_code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a validation report for any well-formed JSON body, objects or not', async () => {
    for (const body of ['[1,2]', '"s"', '42', 'null', 'true']) {
      const answer = await api.post('/api/v1/otep/validate', body, { headers: { 'accept-language': 'de' } });
      assert.equal(answer.status, 200, `${body}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body, {
        result: true,
        conformant: false,
        level: 0,
        errors: [
          { path: '', code: 'timeline_not_object', message: 'Die Zeitleiste muss ein JSON-Objekt sein.' },
        ],
        warnings: [],
      });
    }
    // An empty object is an object: its own problems, not "not an object". Version and profile have
    // defaults; subject and events do not.
    const empty = await api.post('/api/v1/otep/validate', {});
    assert.equal(empty.status, 200);
    assert.deepEqual(
      empty.body.errors.map((e: { code: string }) => e.code),
      ['missing_subject', 'events_not_array'],
    );
    const broken = await api.post('/api/v1/otep/validate', '{"otep_version": ');
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error_code, 'INVALID_JSON');
  });

  it('validates a timeline with paths and localised messages', async () => {
    const answer = await api.post(
      '/api/v1/otep/validate',
      pushed(number, [
        { occurred_at: '2026-11-02T12:00:00', status_code: 'teleported', source: { type: 'carrier' } },
      ]),
      { headers: { 'accept-language': 'fr' } },
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.conformant, false);
    assert.equal(answer.body.level, 0);
    const paths = answer.body.errors.map((e: { path: string }) => e.path);
    assert.ok(paths.includes('events[0].occurred_at'));
    assert.ok(paths.includes('events[0].status_code'));
    assert.equal(
      answer.body.errors[0].message,
      'occurred_at 2026-11-02T12:00:00 n’a pas de décalage horaire ; terminez-la par Z ou ±hh:mm.',
    );
  });

  it('carries the proof of delivery and the failure reason the driver reports, as the public may see them', async () => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'T-POD', dropoff: DROPOFF },
      { token: admin },
    );
    const id = created.body.order_id;
    const steps = [
      { status: 'PICKED_UP' },
      { status: 'FAILED_ATTEMPT', incident_reason: { code: 'recipient_absent', message: 'Nobody home' } },
      { status: 'OUT_FOR_DELIVERY' },
      {
        status: 'DELIVERED',
        proof_of_delivery: {
          recipient: 'Léa Martin',
          signature_url: 'https://files.example/sig.png',
          photo_urls: ['https://files.example/door.jpg'],
          note: 'Left with the concierge',
        },
      },
    ];
    for (const step of steps) {
      server.clock.advance(60_000);
      const moved = await api.post(`/api/v1/client/orders/${id}/status`, step, { token: admin });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
    }
    const data = (await timeline(created.body.tracking_number)).body.data;
    assert.equal(data.current_status, 'delivered');
    assert.equal(data.delivered, true);
    const failed = data.events.find(
      (e: Event & { incident_reason?: object }) => e.status_code === 'delivery_failed',
    );
    assert.deepEqual(failed.incident_reason, { code: 'recipient_absent', message: 'Nobody home' });
    const delivered = data.events.at(-1);
    assert.deepEqual(delivered.pod, { recipient: 'Léa M.', note: 'Left with the concierge' });
    const badUrl = await api.post(
      `/api/v1/client/orders/${id}/status`,
      { status: 'DELIVERED', proof_of_delivery: { signature_url: 'javascript:alert(1)' } },
      { token: admin },
    );
    assert.equal(badUrl.status, 422);
  });

  it('lists providers without keys and revokes them', async () => {
    const list = await api.get('/api/v1/client/otep/providers', { token: admin });
    assert.equal(list.body.providers.length, 1);
    assert.ok(!JSON.stringify(list.body).includes('otp_'));
    const revoked = await api.post(
      `/api/v1/client/otep/providers/${list.body.providers[0].id}/revoke`,
      {},
      { token: admin },
    );
    assert.equal(revoked.status, 200);
    const after = await push(
      pushed(number, [
        { occurred_at: '2026-11-02T12:00:00Z', status_code: 'in_transit', source: { type: 'carrier' } },
      ]),
      providerKey,
    );
    assert.equal(after.status, 401);
    const twice = await api.post(
      `/api/v1/client/otep/providers/${list.body.providers[0].id}/revoke`,
      {},
      { token: admin },
    );
    assert.equal(twice.status, 404);
    assert.equal(twice.body.error_code, 'TRACKING_PROVIDER_NOT_FOUND');
  });
});
