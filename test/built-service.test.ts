import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { GraphQLClient, gql } from 'graphql-request';
import { z } from 'zod';
import { createCatalog } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  CONVERTED_SCHEMAS_FILE,
  convertedSchemasOf,
  jsonSchemaOf,
  takeConvertedSchemas,
} from '../src/doors/json-schema.ts';
import { defineOperation } from '../src/platform/catalog/operation.ts';
import { systemClock } from '../src/platform/clock.ts';
import { createServices } from '../src/services.ts';
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

  it("was built with every operation's schemas converted, as the sources convert them", async () => {
    const checkout = createHash('sha256').update(realpathSync('.')).digest('hex').slice(0, 12);
    const file = path.join('node_modules', '.cache', 'tms', checkout, CONVERTED_SCHEMAS_FILE);
    const kept = JSON.parse(await readFile(file, 'utf8'));
    const catalog = createCatalog(createServices(loadConfig({}), systemClock));
    assert.deepEqual(
      Object.keys(kept).sort(),
      catalog
        .list()
        .map((operation) => operation.name)
        .sort(),
    );
    assert.deepEqual(kept, JSON.parse(JSON.stringify(convertedSchemasOf(catalog.list()))));
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

  it("serves the dispatch console's app, bundled from the sources it was started from", async () => {
    const password = /Password for every demo account: (\S+)/.exec(running.output())![1]!;
    const form = await fetch(`${running.baseUrl}/dispatch`);
    const csrfCookie = form.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedIn = await fetch(`${running.baseUrl}/dispatch/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      body: new URLSearchParams({ csrf, email: 'admin@demo.test', password }),
      redirect: 'manual',
    });
    assert.equal(signedIn.status, 303);
    const session = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const shell = await (await fetch(`${running.baseUrl}/dispatch`, { headers: { cookie: session } })).text();
    const script = /<script src="(\/assets\/web\/dispatch-[^"]+\.js)">/.exec(shell)?.[1];
    assert.ok(script, shell.slice(0, 500));
    const bundle = await fetch(`${running.baseUrl}${script}`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
    // The console follows the board through the public API's mount, as the session's person.
    const board = await fetch(`${running.baseUrl}/dispatch/api/v1/client/dispatch/board`, {
      headers: { cookie: session },
    });
    assert.equal(board.status, 200);
    assert.ok(((await board.json()) as { routes: unknown[] }).routes.length > 0, 'the demo day has routes');
  });
});

describe('the schemas a build converted', () => {
  const operation = defineOperation({
    name: 'kept_probe',
    summary: 'x',
    tag: 'Orders',
    kind: 'query',
    risk: 'low',
    access: { public: true },
    input: z.object({ n: z.int() }),
    output: z.object({ ok: z.boolean() }),
    handler: async () => ({ ok: true }),
  });

  it('are what the doors read, instead of converting again; an unreadable file converts as before', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tms-kept-'));
    try {
      const unreadable = path.join(dir, 'broken.json');
      await writeFile(unreadable, '{ not json');
      takeConvertedSchemas([operation], new URL(`file://${unreadable}`));
      assert.deepEqual(Object.keys(jsonSchemaOf(operation.input, 'input').properties as object), ['n']);

      // A marker no conversion would write: the doors see the kept schema, not a new conversion.
      const kept = path.join(dir, CONVERTED_SCHEMAS_FILE);
      const marked = { type: 'object', description: 'kept by the build' };
      await writeFile(kept, JSON.stringify({ kept_probe: { input: marked, output: marked } }));
      const fresh = defineOperation({ ...operation, input: z.object({ n: z.int() }) });
      takeConvertedSchemas([fresh], new URL(`file://${kept}`));
      assert.deepEqual(jsonSchemaOf(fresh.input, 'input'), marked);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
