import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer, UNLIMITED } from './support/server.ts';

/** Per-token, per-business and per-address shares, enforced by the executor on every door. */
describe('request limits through the service', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let otherBusiness: string;

  before(async () => {
    server = await startTestServer({
      limits: { ...UNLIMITED, perTokenPerMinute: 3, perAddressPerMinute: 5, expensiveConcurrency: 1 },
    });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'limits');
    const other = await createTenant(server.db, server.app.services, 'limits-other');
    admin = await login(api, tenant.emails.client_admin);
    otherBusiness = await login(api, other.emails.client_admin);
  });
  after(() => server.close());

  it('answers 429 with Retry-After, in the error shape, past a token’s share; other tokens go on', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await api.get('/api/v1/user/me', { token: admin })).status, 200);
    const refused = await api.get('/api/v1/user/me', { token: admin, headers: { 'accept-language': 'fr' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error_code, 'RATE_LIMITED');
    assert.equal(refused.body.result, false);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.match(refused.body.message, /secondes/);
    const graphql = await api.post('/api/graphql', { query: '{ me { result } }' }, { token: admin });
    assert.equal(
      graphql.body.errors[0].extensions.error_code,
      'RATE_LIMITED',
      'GraphQL counts against the same share',
    );
    assert.equal((await api.get('/api/v1/user/me', { token: otherBusiness })).status, 200);
  });

  it('counts callers without a token by their address', async () => {
    // The two sign-ins of before() came from this address too: 5 - 2 left.
    for (let i = 0; i < 3; i++) assert.equal((await api.get('/api/v1/otep/trackings/TMSNOSUCH')).status, 404);
    const refused = await api.get('/api/v1/otep/trackings/TMSNOSUCH');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error_code, 'RATE_LIMITED');
    // A made-up token is no way around it: a caller without a valid token counts by its address.
    for (const forged of ['tms_forged_1', 'tms_forged_2']) {
      const answer = await api.get('/api/v1/otep/trackings/TMSNOSUCH', { token: forged });
      assert.equal(answer.status, 429, forged);
    }
  });

  it('marks the heavy operations as expensive', () => {
    const expensive = server.app.catalog
      .list()
      .filter((operation) => operation.expensive)
      .map((operation) => operation.name)
      .sort();
    assert.deepEqual(expensive, [
      'build_route',
      'bulk_create_orders',
      'import_dataset_records',
      'import_dataset_records_csv',
      'import_saved_addresses',
      'otep_ingest',
      'otep_ingest_epcis',
    ]);
  });
});
