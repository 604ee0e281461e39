import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('return reasons', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  /** A new order brought back to the warehouse, from where it can be returned. */
  const orderAtWarehouse = async () => {
    const id = (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body
      .orders[0].id;
    for (const status of ['PICKED_UP', 'AT_WAREHOUSE']) {
      const moved = await api.post(`/api/v1/client/orders/${id}/status`, { status }, { token: admin });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
    }
    return id as number;
  };
  const returnOrder = (id: number, body: Record<string, unknown>) =>
    api.post(`/api/v1/client/orders/${id}/status`, { status: 'RETURNED', ...body }, { token: admin });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'returns');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('returns orders freely while the business keeps no list', async () => {
    const id = await orderAtWarehouse();
    assert.equal((await returnOrder(id, {})).body.order.status, 'RETURNED');
  });

  it('keeps a list with labels per language, read by drivers in theirs', async () => {
    const refused = await api.call('PUT', '/api/v1/client/return-reasons/refused', {
      token: admin,
      body: { labels: { en: 'Refused by the recipient', fr: 'Refusé par le destinataire' } },
    });
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    await api.call('PUT', '/api/v1/client/return-reasons/damaged', {
      token: admin,
      body: { labels: { en: 'Damaged' }, photo_required: true },
    });
    const driver = await login(api, tenant.emails.driver);
    const listed = await api.get('/api/v1/client/return-reasons', {
      token: driver,
      headers: { 'accept-language': 'fr' },
    });
    assert.deepEqual(
      listed.body.reasons.map((reason: { code: string; label: string; photo_required: boolean }) => [
        reason.code,
        reason.label,
        reason.photo_required,
      ]),
      [
        ['damaged', 'Damaged', true],
        ['refused', 'Refusé par le destinataire', false],
      ],
    );
    const bad = await api.call('PUT', '/api/v1/client/return-reasons/Bad%20Code', {
      token: admin,
      body: { labels: {} },
    });
    assert.equal(bad.status, 422);
    const asEmployee = await api.call('PUT', '/api/v1/client/return-reasons/other', {
      token: await login(api, tenant.emails.employee),
      body: { labels: { en: 'Other' } },
    });
    assert.equal(asEmployee.body.error_code, 'FORBIDDEN');
  });

  it('asks a return for one of the reasons, and for the photo its reason needs', async () => {
    const id = await orderAtWarehouse();
    const none = await returnOrder(id, {});
    assert.equal(none.status, 422);
    assert.equal(none.body.error_code, 'RETURN_REASON_REQUIRED');
    assert.match(none.body.message, /damaged, refused/);
    assert.equal(
      (await returnOrder(id, { return_reason: { code: 'lost' } })).body.error_code,
      'RETURN_REASON_NOT_FOUND',
    );
    const noPhoto = await returnOrder(id, { return_reason: { code: 'damaged' } });
    assert.equal(noPhoto.body.error_code, 'RETURN_PHOTO_REQUIRED');
    const returned = await returnOrder(id, {
      return_reason: { code: 'damaged', note: 'Box crushed' },
      proof_of_delivery: { photo_urls: ['https://photos.example/crushed.jpg'] },
    });
    assert.equal(returned.body.order.status, 'RETURNED', JSON.stringify(returned.body));
    const events = await api.post('/api/v1/tracking/operationevents', { order_ids: [id] }, { token: admin });
    const last = events.body.events.at(-1);
    assert.deepEqual(last.changes.return_reason.to, { code: 'damaged', note: 'Box crushed' });
  });

  it('refuses a return that can never happen for the move, before asking for its reason', async () => {
    const id = (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body
      .orders[0].id;
    const refused = await returnOrder(id, {});
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'ILLEGAL_STATUS_TRANSITION');
    assert.deepEqual(refused.body.details, { from: 'NEW_ORDER', to: 'RETURNED' });
  });

  it('removes a reason, and says so for one that is not there', async () => {
    const removed = await api.call('DELETE', '/api/v1/client/return-reasons/refused', { token: admin });
    assert.equal(removed.body.deleted, 'refused');
    const again = await api.call('DELETE', '/api/v1/client/return-reasons/refused', { token: admin });
    assert.equal(again.body.error_code, 'RETURN_REASON_NOT_FOUND');
  });
});
