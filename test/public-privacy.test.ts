import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FORMAT_NAMES, FORMATS } from '../src/modules/tracking/projections/registry.ts';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Every personal detail a provider might push, under names the protocol knows and names it does
 * not, at every depth. Each value is distinctive, so finding it anywhere in an answer is a leak.
 */
const SECRET = {
  street: 'Secret Street 77',
  phone: '+33 6 99 88 77 66',
  contact: 'Gaston Lagaffe',
  recipientPhone: '+49 170 5550199',
  email: 'private.person@example.org',
  lat: 43.123456,
  lng: 5.654321,
  signature: 'https://files.example.org/signature-secret.png',
  photo: 'https://files.example.org/photo-secret.jpg',
  reference: 'INTERNAL-REF-4242',
  surname: 'Zwingelberg',
  nested: 'nested-secret-value',
  door: 'door code 4711',
};
const SECRET_VALUES = Object.values(SECRET).map(String);

describe('public tracking reads show no personal data a provider pushed', () => {
  let server: TestServer;
  let api: Client;
  let number: string;
  let providerKey: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'privacy');
    const admin = await login(api, tenant.emails.client_admin);
    const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    number = created.body.tracking_number;
    const provider = await api.post('/api/v1/client/otep/providers', { name: 'Hub Co' }, { token: admin });
    providerKey = provider.body.provider.key;

    const native = await api.post(
      '/api/v1/otep/ingest',
      {
        otep_version: '0.1',
        profile: 'parcel',
        subject: { tracking_number: number, recipient_phone: SECRET.recipientPhone, email: SECRET.email },
        x_customer: { phone: SECRET.phone },
        events: [
          {
            event_id: 'privacy-1',
            occurred_at: '2026-11-02T10:45:00+01:00',
            status_code: 'arrival_scan',
            source: {
              type: 'provider_push',
              name: 'Hub Co',
              reference: SECRET.reference,
              phone: SECRET.phone,
            },
            location: {
              name: 'Hub Lyon',
              city: 'Lyon',
              country: 'FR',
              address: SECRET.street,
              street: SECRET.street,
              phone: SECRET.phone,
              contact: SECRET.contact,
              recipient_phone: SECRET.recipientPhone,
              lat: SECRET.lat,
              lng: SECRET.lng,
              details: { nested: SECRET.nested, deeper: [{ email: SECRET.email }] },
            },
            x_driver_note: SECRET.door,
          },
          {
            event_id: 'privacy-2',
            occurred_at: '2026-11-02T11:30:00+01:00',
            status_code: 'delivery_failed',
            source: { type: 'provider_push', name: 'Hub Co' },
            incident_reason: {
              code: 'recipient_absent',
              message: 'Nobody at home',
              contact: SECRET.contact,
              recipient_phone: SECRET.recipientPhone,
              extra: { nested: SECRET.nested },
            },
            location: { city: 'Lyon', country: 'FR', gln: '3012345000010', contact: SECRET.contact },
          },
          {
            event_id: 'privacy-3',
            occurred_at: '2026-11-02T12:00:00+01:00',
            status_code: 'delivered',
            source: { type: 'provider_push', name: 'Hub Co' },
            pod: {
              recipient: `Amélie ${SECRET.surname}`,
              signature_url: SECRET.signature,
              photo_urls: [SECRET.photo],
              note: 'Left at reception',
              phone: SECRET.phone,
            },
          },
        ],
      },
      { headers: { 'x-otep-provider-key': providerKey } },
    );
    assert.equal(native.status, 200, JSON.stringify(native.body));

    const epcis = await api.post(
      '/api/v1/otep/ingest/epcis',
      {
        '@context': [
          'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld',
          { otep: 'https://otep.dev/ns#' },
        ],
        type: 'EPCISDocument',
        schemaVersion: '2.0',
        creationDate: '2026-11-02T13:00:00Z',
        epcisBody: {
          eventList: [
            {
              type: 'ObjectEvent',
              eventID: 'ni:///sha-256;privacy-epcis?ver=CBV2.0',
              eventTime: '2026-11-02T09:00:00Z',
              eventTimeZoneOffset: '+00:00',
              action: 'OBSERVE',
              epcList: [`https://id.example.org/api/v1/otep/trackings/${number}`],
              bizStep: 'arriving',
              disposition: 'in_transit',
              'otep:status_code': 'arrival_scan',
              'otep:source': {
                'otep:type': 'provider_push',
                'otep:name': 'Hub Co',
                'otep:reference': SECRET.reference,
              },
              'otep:location': {
                'otep:name': 'Depot Nord',
                'otep:city': 'Lille',
                'otep:address': SECRET.street,
                'otep:phone': SECRET.phone,
                'otep:lat': SECRET.lat,
              },
              'otep:incident_reason': { 'otep:code': 'address_not_found', 'otep:contact': SECRET.contact },
              'example:recipientEmail': SECRET.email,
            },
          ],
        },
      },
      { headers: { 'x-otep-provider-key': providerKey, 'content-type': 'application/ld+json' } },
    );
    assert.ok(epcis.status === 200, `EPCIS ingest: ${JSON.stringify(epcis.body)}`);
  });
  after(() => server.close());

  /** The answer's bytes contain none of the secrets. */
  const assertClean = (what: string, text: string) => {
    const leaked = SECRET_VALUES.filter((secret) => text.includes(secret));
    assert.deepEqual(leaked, [], `${what} leaks ${leaked.join(', ')}`);
  };

  it('keeps what the business may see in its store', async () => {
    const stored = await server.db
      .selectFrom('tracking_events')
      .select('details')
      .where('event_id', '=', 'privacy-1')
      .executeTakeFirstOrThrow();
    assert.equal((stored.details.location as unknown as Record<string, unknown>).phone, SECRET.phone);
  });

  it('leaks nothing through any format of the timeline, its events or the batch read', async () => {
    const timeline = await api.get(`/api/v1/otep/trackings/${number}`);
    assert.equal(timeline.status, 200);
    const events = timeline.body.data.events as Array<Record<string, unknown>>;
    assert.equal(events.length, 5, "the order's first event and the four pushed");
    assert.deepEqual(
      events.find((event) => event.event_id === 'privacy-1')?.location,
      { name: 'Hub Lyon', city: 'Lyon', country: 'FR' },
      'the place stays, and only the place',
    );
    for (const format of FORMAT_NAMES) {
      for (const path of [`/api/v1/otep/trackings/${number}`, `/api/v1/otep/trackings/${number}/events`]) {
        const answer = await api.get(`${path}?format=${format}`);
        assert.equal(answer.status, 200, `${path} ${format}`);
        assertClean(`${path}?format=${format}`, JSON.stringify(answer.body));
        const bare = await fetch(server.baseUrl + path, { headers: { accept: FORMATS[format]!.mediaType } });
        assertClean(`${path} as ${FORMATS[format]!.mediaType}`, await bare.text());
      }
      const batch = await api.post(`/api/v1/otep/trackings/batch?format=${format}`, {
        tracking_numbers: [number],
      });
      assert.equal(batch.status, 200, `batch ${format}: ${JSON.stringify(batch.body)}`);
      assertClean(`batch ${format}`, JSON.stringify(batch.body));
    }
  });

  it('leaks nothing through the public tracking read, GraphQL or the tracking page', async () => {
    const simple = await api.get(`/api/v1/tracking/${number}`);
    assert.equal(simple.status, 200);
    assertClean('/api/v1/tracking', JSON.stringify(simple.body));
    assert.equal(simple.body.proof_of_delivery.recipient, 'Amélie Z.');

    for (const format of FORMAT_NAMES) {
      const graphql = await api.post('/api/graphql', {
        query:
          'query($n: String!, $f: String) { otepTracking(tracking_number: $n, format: $f) { format data } }',
        variables: { n: number, f: format },
      });
      assert.equal(graphql.body.errors, undefined, JSON.stringify(graphql.body.errors));
      assertClean(`otepTracking ${format}`, JSON.stringify(graphql.body));
    }
    const publicQuery = await api.post('/api/graphql', {
      query:
        'query($n: String!) { trackingPublic(trackingNumber: $n) { trackingNumber status events { status_code location { name city } } proof_of_delivery { recipient note } } }',
      variables: { n: number },
    });
    assert.equal(publicQuery.body.errors, undefined, JSON.stringify(publicQuery.body.errors));
    assertClean('trackingPublic', JSON.stringify(publicQuery.body));

    for (const lang of ['en', 'de', 'zh-Hans']) {
      const page = await fetch(`${server.baseUrl}/track/${number}?lang=${lang}`);
      assert.equal(page.status, 200);
      assertClean(`/track page (${lang})`, await page.text());
    }
  });
});
