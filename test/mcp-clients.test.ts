import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTenant, DROPOFF, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The SDK client snippet of docs/mcp.md ("Clients that work"), as the page shows it. */
async function documentedSnippet(): Promise<string> {
  const doc = await readFile(resolve(ROOT, 'docs/mcp.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Clients that work'));
  const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(snippet, 'docs/mcp.md has no SDK client snippet under "Clients that work"');
  return snippet;
}

describe('the clients docs/mcp.md names', () => {
  let server: TestServer;
  let tenant: Tenant;
  let agent: string;
  let orderRef: string;

  before(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.db, server.app.services, 'mcp-clients');
    const api = client(server.baseUrl);
    const admin = await login(api, tenant.emails.client_admin);
    orderRef = (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body
      .orders[0].order_ref;
    agent = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'ops-write',
    });
  });
  after(async () => {
    await server.close();
  });

  it('runs the SDK snippet as written: its headers reach the server, the profile narrowing the tools', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '--eval', await documentedSnippet()],
      { cwd: ROOT, env: { ...process.env, TMS_URL: server.baseUrl, TMS_TOKEN: agent } },
    );
    const printed = JSON.parse(stdout) as {
      tools: string[];
      orders: { orders: Array<{ order_ref: string }> };
    };
    // The token may write; the X-MCP-Profile header narrows the connection to reads.
    assert.ok(printed.tools.includes('get_orders'));
    assert.ok(!printed.tools.includes('cancel_order'));
    assert.ok(printed.orders.orders.some((order) => order.order_ref === orderRef));
  });
});
