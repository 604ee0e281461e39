import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { GraphQLClient, gql } from 'graphql-request';
import { client } from './support/http.ts';
import { type Running, startServe, stopServe } from './support/process.ts';

// `npm start` runs the service built from the sources (bin/run.mjs), not the sources themselves:
// some packages are built into its files, the packages only some settings use load at first use,
// the operations' schemas are converted by the build, and the demo is seeded on a thread of its
// own. What every other test checks from the sources, this one checks works once built.
describe('npm start: the built service', () => {
  let dataDir: string;
  let running: Running;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-built-'));
    running = await startServe({ TMS_DATA_DIR: dataDir }, 'built');
  });
  after(async () => {
    if (running) await stopServe(running);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('seeds the demo on a first start, and its accounts sign in', async () => {
    const api = client(running.baseUrl);
    assert.equal((await api.get('/api/health')).status, 200);
    const password = /Password for every demo account: (\S+)/.exec(running.output())?.[1];
    assert.ok(password, running.output());
    const saved = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    assert.equal(saved.password, password);
    const login = await api.post('/api/v1/user/login', { email: 'admin@demo.test', password });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const orders = await api.get('/api/v1/client/orders?per_page=5', { token: login.body.access_token });
    assert.equal(orders.status, 200, JSON.stringify(orders.body));
    assert.ok(orders.body.total > 0, 'the demo has orders');
  });

  it("publishes the same contract as the sources: the schemas the build converted are the operations' own", async () => {
    const live = (await client(running.baseUrl).get('/api/openapi.json')).body;
    const committed = JSON.parse(await readFile('openapi.json', 'utf8'));
    assert.deepEqual(live.paths, committed.paths);
    assert.deepEqual(live.components, committed.components);
  });

  it('answers GraphQL and MCP through the packages built into it', async () => {
    const api = client(running.baseUrl);
    const password = /Password for every demo account: (\S+)/.exec(running.output())![1];
    const token = (await api.post('/api/v1/user/login', { email: 'admin@demo.test', password })).body
      .access_token;
    const graphql = new GraphQLClient(`${running.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const health = await graphql.request<{ health: { status: string } }>(gql`{ health { status } }`);
    assert.equal(health.health.status, 'ok');

    const mcp = new McpClient({ name: 'built-service-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'get_orders'),
        tools.map((tool) => tool.name).join(', '),
      );
    } finally {
      await mcp.close();
    }
  });
});
