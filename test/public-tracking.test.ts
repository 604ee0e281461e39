import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, deliverWithProof, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** What the public must never see of the drop-off: phone, street, coordinates, full name. */
const PRIVATE = ['+33 6', '12 34 56', 'Rivoli', '48.86', '2.3376', '"lat"', '"lng"', 'Martin'];

interface PublicEvent {
  occurred_at: string;
  status_code: string;
  status_text: string;
  location: Record<string, string> | null;
}

describe('public tracking: GET /api/v1/tracking/{number} and trackingPublic', () => {
  let server: TestServer;
  let api: Client;
  let number: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'public');
    const admin = await login(api, tenant.emails.client_admin);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'P-1', scheduled_date: '2026-11-03', dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    number = created.body.tracking_number;
    await deliverWithProof(api, admin, server.clock, created.body.order_id);
  });
  after(() => server.close());

  it('answers the current status, the events newest first and the proof of delivery', async () => {
    const answer = await api.get(`/api/v1/tracking/${number}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const body = answer.body;
    assert.equal(body.result, true);
    assert.equal(body.trackingNumber, number);
    assert.equal(body.status, 'delivered');
    assert.equal(body.status_text, 'Delivered');
    assert.equal(body.phase, 'delivered');
    assert.equal(body.delivered, true);
    assert.deepEqual(
      body.events.map((e: PublicEvent) => e.status_code),
      ['delivered', 'out_for_delivery', 'picked_up', 'information_submitted'],
    );
    const times = body.events.map((e: PublicEvent) => Date.parse(e.occurred_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    // The service's own event, at its clock's instant, in the business's time zone (Asia/Shanghai).
    assert.equal(body.events[0].occurred_at, '2026-11-02T18:00:00+08:00');
    assert.deepEqual(body.events[0].location, { city: 'Paris', postal_code: '75001', country: 'FR' });
    assert.deepEqual(body.proof_of_delivery, {
      delivered_at: '2026-11-02T18:00:00+08:00',
      recipient: 'Léa M.',
      note: 'Left with the concierge',
      signature_url: null,
      photo_urls: [],
      links_expire_at: null,
    });
  });

  it('finds a number typed in lower case, as the same parcel', async () => {
    const typed = await api.get(`/api/v1/tracking/${number.toLowerCase()}`);
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    assert.equal(typed.body.trackingNumber, number);
    assert.equal(typed.body.status, 'delivered');
  });

  it("speaks the caller's language", async () => {
    const answer = await api.get(`/api/v1/tracking/${number}`, { headers: { 'accept-language': 'fr' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status_text, 'Livré');
    assert.deepEqual(
      answer.body.events.map((e: PublicEvent) => e.status_text),
      ['Livré', 'En cours de livraison', 'Colis pris en charge', 'Informations d’expédition reçues'],
    );
    const chinese = await api.get(`/api/v1/tracking/${number}`, { headers: { 'accept-language': 'zh-TW' } });
    assert.equal(chinese.body.status_text, '已送達');
  });

  it('shows no phone number, street, coordinates or full name', async () => {
    const text = JSON.stringify((await api.get(`/api/v1/tracking/${number}`)).body);
    for (const secret of PRIVATE) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
  });

  it('answers an unknown number with 404 TRACKING_NOT_FOUND in the error shape', async () => {
    const answer = await api.get('/api/v1/tracking/TMSNOSUCH0000', { headers: { 'accept-language': 'de' } });
    assert.equal(answer.status, 404);
    assert.deepEqual(Object.keys(answer.body).sort(), ['error_code', 'message', 'result']);
    assert.equal(answer.body.result, false);
    assert.equal(answer.body.error_code, 'TRACKING_NOT_FOUND');
    assert.equal(answer.body.message, 'Die Sendungsnummer TMSNOSUCH0000 ist unbekannt.');
  });

  it('answers through GraphQL as trackingPublic(trackingNumber:), without a token', async () => {
    const query = `query Track($number: String!) {
      trackingPublic(trackingNumber: $number) {
        trackingNumber status status_text delivered
        events { status_code status_text occurred_at location { city country } }
        proof_of_delivery { recipient }
      }
    }`;
    // A plain JSON POST without a token, as any storefront would send it.
    const ask = (variables: object, headers: Record<string, string> = {}) =>
      api.post('/api/graphql', { query, variables }, { headers });
    const answer = await ask({ number }, { 'accept-language': 'de' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.errors, undefined, JSON.stringify(answer.body.errors));
    const tracking = answer.body.data.trackingPublic;
    assert.equal(tracking.trackingNumber, number);
    assert.equal(tracking.status, 'delivered');
    assert.equal(tracking.status_text, 'Zugestellt');
    assert.equal(tracking.delivered, true);
    assert.deepEqual(tracking.events[1], {
      status_code: 'out_for_delivery',
      status_text: 'In Zustellung',
      occurred_at: '2026-11-02T17:50:00+08:00',
      location: { city: 'Paris', country: 'FR' },
    });
    assert.deepEqual(tracking.proof_of_delivery, { recipient: 'Léa M.' });

    const missing = await ask({ number: 'TMSNOSUCH0000' });
    assert.equal(missing.body.data?.trackingPublic ?? null, null);
    assert.equal(
      missing.body.errors[0].extensions.error_code,
      'TRACKING_NOT_FOUND',
      JSON.stringify(missing.body),
    );
  });
});
