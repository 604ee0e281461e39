import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Every list pages the same way (platform/pagination.ts), in one envelope: total, page, per_page.

/** Paged lists, of several modules. */
const LISTS = [
  { path: '/api/v1/client/orders' },
  { path: '/api/v1/broker-order-assignments' },
  { path: '/api/v1/webhook-deliveries' },
  { path: '/api/v1/client/driver-registrations' },
  { path: '/api/v1/agent/approvals' },
  { path: '/api/v1/client/points-of-interest' },
  { path: '/api/v1/client/addresses' },
];

describe('paged lists', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'pages');
    admin = await login(api, tenant.emails.client_admin);
    const platform = await login(api, tenant.emails.platform_admin);
    const module = '/api/v1/platform/modules/contractor_assignment';
    await api.call('PUT', module, { token: platform, body: { available: true } });
    await api.call('PUT', `/api/v1/platform/businesses/${tenant.businessId}/modules/contractor_assignment`, {
      token: platform,
      body: { enabled: true },
    });
    for (let n = 0; n < 3; n++) {
      await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    }
  });
  after(() => server.close());

  it('answers the first page of 50 rows unless asked, in the envelope of every list', async () => {
    for (const { path } of LISTS) {
      const answer = await api.get(path, { token: admin });
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.page, 1, path);
      assert.equal(answer.body.per_page, 50, path);
      assert.equal(typeof answer.body.total, 'number', path);
    }
  });

  it('takes page and per_page up to 200, and refuses what lies outside, naming the field', async () => {
    for (const { path } of LISTS) {
      const asked = await api.get(`${path}?page=3&per_page=200`, { token: admin });
      assert.equal(asked.status, 200, path);
      assert.deepEqual([asked.body.page, asked.body.per_page], [3, 200], path);
      for (const [query, field] of [
        ['per_page=0', 'per_page'],
        ['per_page=201', 'per_page'],
        ['page=0', 'page'],
      ]) {
        const refused = await api.get(`${path}?${query}`, { token: admin });
        assert.equal(refused.status, 422, `${path}?${query}`);
        assert.deepEqual(
          refused.body.details.fields.map((entry: { field: string }) => entry.field),
          [field],
          `${path}?${query}`,
        );
      }
    }
  });

  it('answers the rows of the page asked, and counts them all', async () => {
    const second = await api.get('/api/v1/client/orders?page=2&per_page=2', { token: admin });
    assert.deepEqual([second.body.total, second.body.orders.length], [3, 1]);
    const beyond = await api.get('/api/v1/client/orders?page=3&per_page=2', { token: admin });
    assert.deepEqual([beyond.body.total, beyond.body.orders.length], [3, 0]);
  });

  it('goes on from a cursor in the lists that grow without bound, and refuses one no page answered', async () => {
    const first = await api.get('/api/v1/client/orders?per_page=2', { token: admin });
    const rest = await api.get(`/api/v1/client/orders?per_page=2&cursor=${first.body.next_cursor}`, {
      token: admin,
    });
    assert.deepEqual([rest.body.page, rest.body.orders.length, rest.body.next_cursor], [2, 1, null]);
    for (const path of ['/api/v1/client/orders', '/api/v1/webhook-deliveries']) {
      const refused = await api.get(`${path}?cursor=${encodeURIComponent('not a cursor')}`, { token: admin });
      assert.equal(refused.status, 422, path);
      assert.deepEqual(
        refused.body.details.fields.map((entry: { field: string }) => entry.field),
        ['cursor'],
        path,
      );
    }
  });
});
