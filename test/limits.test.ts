import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
    assert.equal(graphql.status, 429, 'GraphQL counts against the same share');
    assert.equal(graphql.body.errors[0].extensions.error_code, 'RATE_LIMITED');
    assert.ok(Number(graphql.headers.get('retry-after')) >= 1);
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
      'create_load_plan',
      'create_packing_plan',
      'get_dispatch_suggestions',
      'import_dataset_records',
      'import_dataset_records_csv',
      'import_saved_addresses',
      'import_sms_subscribers',
      'otep_ingest',
      'otep_ingest_epcis',
      'parse_label',
      'propose_dispatch_suggestion',
      'rebuild_analytics',
      'replan_load_plan',
      'rerun_packing_plan',
    ]);
  });
});

/** The MCP door counts every message, and past a share answers 429 with Retry-After and a JSON-RPC error. */
describe('request limits on the MCP door', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  const rpc = (message: Record<string, unknown>, address: string, token?: string) =>
    api.post('/mcp', { jsonrpc: '2.0', ...message }, { token, headers: { 'x-forwarded-for': address } });

  before(async () => {
    server = await startTestServer({
      trustProxy: true,
      limits: { ...UNLIMITED, perTokenPerMinute: 4, perAddressPerMinute: 3 },
    });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'mcpshare');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('counts messages that run no tool, and answers 429 with Retry-After and the error body as data', async () => {
    const address = '198.51.100.10';
    for (let id = 1; id <= 3; id++) {
      const listed = await rpc({ id, method: 'tools/list' }, address);
      assert.equal(listed.status, 200);
      assert.ok(Array.isArray(listed.body.result.tools));
    }
    const refused = await rpc({ id: 'fourth', method: 'tools/list' }, address);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.body.jsonrpc, '2.0');
    assert.equal(refused.body.id, 'fourth');
    assert.equal(refused.body.error.code, -32029);
    assert.equal(refused.body.error.data.error_code, 'RATE_LIMITED');
    assert.equal(
      refused.body.error.data.details.retry_after_seconds,
      Number(refused.headers.get('retry-after')),
    );
    assert.equal(refused.body.error.message, refused.body.error.data.message);
    assert.equal((await rpc({ id: 1, method: 'tools/list' }, '198.51.100.11')).status, 200);
  });

  it('counts a tool call once, and refuses an SDK client past its token share before the tool runs', async () => {
    const address = '198.51.100.12';
    const headers = { authorization: `Bearer ${admin}`, 'x-forwarded-for': address };
    const mcp = new McpClient({ name: 'limits-test', version: '1.0.0' });
    // initialize and its notification: two of the token's four.
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers } }),
    );
    try {
      for (let i = 0; i < 2; i++) {
        const answer = (await mcp.callTool({ name: 'get_orders', arguments: {} })) as CallToolResult;
        assert.notEqual(answer.isError, true, JSON.stringify(answer.structuredContent));
      }
      const refused = await mcp.callTool({ name: 'get_orders', arguments: {} }).then(
        () => assert.fail('a fifth message went through'),
        (error: unknown) => error as Error & { code?: number },
      );
      assert.equal(refused.code, 429, refused.message);
      assert.match(refused.message, /RATE_LIMITED/);
    } finally {
      await mcp.close();
    }
  });
});
