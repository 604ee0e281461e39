import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Business A's data must be out of reach of every token of business B. Each operation that needs
 * a token has a check here; a new operation without one fails the coverage test below.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  let api: Client;
  let a: Tenant;
  let b: Tenant;
  const tokensOfB: Record<string, string> = {};

  const checks: Record<string, () => Promise<void>> = {
    get_me: async () => {
      for (const kind of ACCOUNT_KINDS) {
        const me = await api.get('/api/v1/user/me', { token: tokensOfB[kind] });
        assert.equal(me.status, 200);
        assert.equal(me.body.user.id, b.userIds[kind]);
        const text = JSON.stringify(me.body);
        assert.ok(!text.includes(a.code), `${kind} of B sees business A: ${text}`);
        assert.ok(!text.includes(`@${a.code}.test`), `${kind} of B sees an account of A`);
      }
    },
    logout: async () => {
      const tokenOfA = await login(api, a.emails.client_admin);
      const spare = await login(api, b.emails.client_admin);
      assert.equal((await api.post('/api/v1/user/logout', {}, { token: spare })).status, 200);
      assert.equal((await api.get('/api/v1/user/me', { token: tokenOfA })).status, 200);
    },
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    a = await createTenant(server.db, server.app.services, 'alpha');
    b = await createTenant(server.db, server.app.services, 'bravo');
    for (const kind of ACCOUNT_KINDS) tokensOfB[kind] = await login(api, b.emails[kind]);
  });
  after(() => server.close());

  it('has a cross-tenant check for every operation that needs a token', () => {
    const guarded = server.app.catalog.list().filter((operation) => !operation.access.public);
    const unchecked = guarded.map((operation) => operation.name).filter((name) => !(name in checks));
    assert.deepEqual(unchecked, []);
  });

  for (const [name, check] of Object.entries(checks)) {
    it(`keeps ${name} inside the caller's business`, check);
  }
});
