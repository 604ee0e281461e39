import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { loadConfig } from '../src/config.ts';
import { discoveryPages } from './support/discovery.ts';
import { createTenant, DROPOFF, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './support/server.ts';

/** The developer tools of the interface ("Agent tool servers"): P public, A a token. */
const INTERFACE_DEVELOPER_TOOLS: Record<string, 'P' | 'A'> = {
  track_package: 'P',
  get_operation_events: 'A',
  get_shipping_methods: 'A',
  get_shipping_rate: 'A',
  create_shipping_label: 'A',
  get_shipping_label: 'A',
  create_order: 'A',
  build_route: 'A',
  get_build_route_options: 'A',
  get_api_endpoints: 'P',
  get_graphql_operations: 'P',
  run_graphql_query: 'A',
  get_otep_tracking: 'P',
  validate_otep_payload: 'P',
  check_skill_update: 'P',
  get_integration_guide: 'P',
  get_otep_guide: 'P',
  get_webhook_guide: 'P',
  verify_webhook_signature: 'P',
  test_webhook_delivery: 'A',
  get_webhook_settings: 'A',
  update_webhook_settings: 'A',
  get_order_audit_timeline: 'A',
  get_webhook_delivery_logs: 'A',
  replay_webhook_delivery: 'A',
};

// biome-ignore lint/suspicious/noExplicitAny: a structured tool answer, read as a test reads JSON
type Structured = Record<string, any>;

describe('the developer MCP server and discovery', () => {
  let server: TestServer;
  let api: Http;
  let tenant: Tenant;
  let admin: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const clients: Client[] = [];

  const connect = async (headers: Record<string, string> = {}) => {
    const mcp = new Client({ name: 'coding-agent', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp/developer`), {
        requestInit: { headers },
      }),
    );
    clients.push(mcp);
    return mcp;
  };
  const call = async (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Structured };
  const get = async (path: string) => {
    const answer = await fetch(server.baseUrl + path);
    assert.equal(answer.status, 200, path);
    return answer;
  };

  before(async () => {
    server = await startTestServer({ webhooks: loopbackWebhooks() });
    api = http(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'developer');
    admin = await login(api, tenant.emails.client_admin);
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    for (const mcp of clients) await mcp.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await server.close();
  });

  it('lists the 25 developer tools of the interface, the public ones to a connection without a token', async () => {
    const anonymous = await connect();
    const publicTools = (await anonymous.listTools()).tools.map((tool) => tool.name).sort();
    const expectedPublic = Object.entries(INTERFACE_DEVELOPER_TOOLS)
      .filter(([, auth]) => auth === 'P')
      .map(([name]) => name)
      .sort();
    assert.deepEqual(publicTools, expectedPublic);
    const all = (await (await connect({ authorization: `Bearer ${admin}` })).listTools()).tools;
    assert.deepEqual(all.map((tool) => tool.name).sort(), Object.keys(INTERFACE_DEVELOPER_TOOLS).sort());
    for (const tool of all) {
      const operation = server.app.catalog
        .list()
        .find((candidate) => candidate.tool?.developer === tool.name)!;
      assert.equal(operation.access.public ? 'P' : 'A', INTERFACE_DEVELOPER_TOOLS[tool.name], tool.name);
    }
  });

  it('answers the public tools without a token: endpoints, GraphQL operations, guides, validation', async () => {
    const mcp = await connect();
    const endpoints = await call(mcp, 'get_api_endpoints', { query: 'order create' });
    assert.ok(
      endpoints.structuredContent.endpoints.some(
        (endpoint: Structured) =>
          endpoint.path === '/api/v1/client/orderCreate' && endpoint.method === 'POST',
      ),
    );
    const byTag = await call(mcp, 'get_api_endpoints', { tag: 'Webhooks' });
    assert.ok(byTag.structuredContent.endpoints.every((endpoint: Structured) => endpoint.tag === 'Webhooks'));
    const operations = await call(mcp, 'get_graphql_operations', { query: 'order' });
    assert.ok(
      operations.structuredContent.operations.some((operation: Structured) => operation.field === 'orders'),
    );
    const guide = await call(mcp, 'get_integration_guide');
    const served = await (await get('/api/guides/integration.md')).text();
    assert.equal(guide.structuredContent.content, served);
    assert.equal(
      (await call(mcp, 'get_otep_guide')).structuredContent.content,
      await (await get('/api/otep-guide.md')).text(),
    );
    assert.match((await call(mcp, 'get_webhook_guide')).structuredContent.content, /# Webhooks/);
    const invalid = await call(mcp, 'validate_otep_payload', { timeline: { otep_version: '0.1' } });
    assert.equal(invalid.structuredContent.conformant, false);
    assert.ok(invalid.structuredContent.errors.length > 0);
  });

  it('runs GraphQL with the caller’s rights only', async () => {
    const order = (
      await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: DROPOFF, customer_id: tenant.userIds.customer },
        { token: admin },
      )
    ).body.orders[0];
    const other = (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body
      .orders[0];
    const customer = await connect({ authorization: `Bearer ${await login(api, tenant.emails.customer)}` });
    const query = 'query($id: Int!) { order(order_id: $id) { order { id order_ref } } }';
    const own = await call(customer, 'run_graphql_query', { query, variables: { id: order.id } });
    assert.equal(own.structuredContent.data.order.order.id, order.id);
    const foreign = await call(customer, 'run_graphql_query', { query, variables: { id: other.id } });
    assert.equal(foreign.structuredContent.errors[0].extensions.error_code, 'ORDER_NOT_FOUND');
    // A dry-run connection leaves nothing, even through a GraphQL mutation.
    const dry = await connect({ authorization: `Bearer ${admin}`, 'x-mcp-dry-run': '1' });
    const before = (await api.get('/api/v1/client/orders', { token: admin })).body.total;
    const created = await call(dry, 'run_graphql_query', {
      query: 'mutation($o: JSON) { clientOrderCreate(dropoff: $o) { orders { id } } }',
      variables: { o: DROPOFF },
    });
    assert.equal(created.structuredContent.dry_run, true, JSON.stringify(created.structuredContent));
    assert.equal((await api.get('/api/v1/client/orders', { token: admin })).body.total, before);
  });

  it('says whether the guidance file a client holds is the one served', async () => {
    const file = await get('/api/ai-skill');
    const bytes = Buffer.from(await file.arrayBuffer());
    const hash = createHash('md5').update(bytes).digest('hex');
    const version = (await (await get('/api/ai-skill/version')).json()) as Structured;
    assert.equal(version.hash, hash);
    assert.match(version.download_url, /\/api\/ai-skill$/);
    const mcp = await connect();
    const current = await call(mcp, 'check_skill_update', { current_hash: hash });
    assert.equal(current.structuredContent.update_available, false);
    const stale = await call(mcp, 'check_skill_update', { current_hash: 'a'.repeat(32) });
    assert.equal(stale.structuredContent.update_available, true);
    assert.equal(stale.structuredContent.version, version.version);
  });

  it('sends a real test webhook, and verifies the signature of what was received', async () => {
    const secret = (
      await api.call('PUT', '/api/v1/webhook-settings', { token: admin, body: { generate_secret: true } })
    ).body.secret;
    const mcp = await connect({ authorization: `Bearer ${admin}` });
    const sent = await call(mcp, 'test_webhook_delivery', { url: receiverUrl });
    assert.equal(sent.structuredContent.delivered, true, JSON.stringify(sent.structuredContent));
    const delivery = received.at(-1)!;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-webhook-signature'].map((name) => [
        name,
        String(delivery.headers[name]),
      ]),
    );
    const anonymous = await connect();
    const good = await call(anonymous, 'verify_webhook_signature', {
      payload: delivery.body,
      headers,
      secret,
    });
    assert.deepEqual([good.structuredContent.v1.valid, good.structuredContent.v2.valid], [true, true]);
    const forged = await call(anonymous, 'verify_webhook_signature', {
      payload: `${delivery.body} `,
      headers,
      secret,
    });
    assert.deepEqual([forged.structuredContent.v1.valid, forged.structuredContent.v2.valid], [false, false]);
  });

  it('takes a token in api_token with a notice until 2026-12-31, and refuses it after', async () => {
    // A personal token of a year, so that moving the clock tries the argument, not the token.
    const token = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'personal',
      ttlHours: 24 * 365,
    });
    const mcp = await connect();
    const early = await call(mcp, 'get_webhook_settings', { api_token: token });
    assert.equal(early.isError, undefined, JSON.stringify(early.structuredContent));
    assert.match(early.structuredContent.deprecation, /2026-12-31.*Authorization: Bearer/);
    server.clock.set(new Date('2026-12-31T23:59:00Z'));
    assert.equal((await call(mcp, 'get_webhook_settings', { api_token: token })).isError, undefined);
    server.clock.set(new Date('2027-01-01T00:00:00Z'));
    const late = await call(mcp, 'get_webhook_settings', { api_token: token });
    assert.equal(late.isError, true);
    assert.equal(late.structuredContent.error_code, 'API_TOKEN_ARGUMENT_REMOVED');
    assert.match(late.structuredContent.message, /Authorization: Bearer/);
    // The connection's Bearer is preferred, and still works.
    const bearer = await connect({ authorization: `Bearer ${token}` });
    assert.equal((await call(bearer, 'get_webhook_settings')).isError, undefined);
    server.clock.set(new Date('2026-11-02T09:30:00Z'));
  });

  it('lists the same tools with the same JSON schemas in the four formats, each loadable by its ecosystem', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const serverName of ['user', 'developer']) {
      // Every page of the format, as a client walks them.
      const fetchFormat = async (format: string) =>
        (await discoveryPages(server.baseUrl, `format=${format}&server=${serverName}`)).flatMap(
          (page) => page.entries,
        ) as Structured[];
      const first = (await (await get(`/api/ai/tools?format=mcp&server=${serverName}`)).json()) as Structured;
      assert.deepEqual(first._meta, { 'tms/server': serverName });
      const mcp = await fetchFormat('mcp');
      const openai = (await fetchFormat('openai')) as Structured[];
      const anthropic = (await fetchFormat('anthropic')) as Structured[];
      const langchain = (await fetchFormat('langchain')) as Structured[];
      const names = mcp.map((tool) => tool.name);
      assert.deepEqual(
        openai.map((tool) => tool.function.name),
        names,
      );
      assert.deepEqual(
        anthropic.map((tool) => tool.name),
        names,
      );
      assert.deepEqual(
        langchain.map((tool) => tool.name),
        names,
      );
      for (const [index, tool] of mcp.entries()) {
        assert.ok(ajv.compile(tool.inputSchema), `${tool.name}: a valid JSON Schema`);
        assert.deepEqual(openai[index]!.function.parameters, tool.inputSchema);
        assert.deepEqual(anthropic[index]!.input_schema, tool.inputSchema);
        assert.deepEqual(langchain[index]!.schema, tool.inputSchema);
        assert.deepEqual(Object.keys(tool._meta['tms/access']).sort(), ['auth', 'confirm', 'risk', 'scopes']);
        // LangChain builds a tool from the definition, and turns it into the OpenAI shape we serve.
        const structured = new DynamicStructuredTool({
          name: langchain[index]!.name,
          description: langchain[index]!.description,
          schema: langchain[index]!.schema,
          metadata: langchain[index]!.metadata,
          func: async () => '',
        });
        assert.deepEqual(
          convertToOpenAITool(structured).function.parameters,
          openai[index]!.function.parameters,
        );
      }
    }
  });

  it('is taken by the OpenAI and Anthropic SDKs as their own tool definitions', async () => {
    // Each SDK builds its request from our definitions (typed as its own tool types) and sends it
    // here: what reaches the wire is what the vendor's API would receive.
    const sent: Structured[] = [];
    const capture = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        sent.push(JSON.parse(body));
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"captured"}}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
    try {
      const openaiTools = (await (
        await get('/api/ai/tools?format=openai&server=developer')
      ).json()) as OpenAI.Chat.Completions.ChatCompletionTool[];
      const anthropicTools = (await (
        await get('/api/ai/tools?format=anthropic&server=developer')
      ).json()) as Anthropic.Messages.Tool[];
      const openai = new OpenAI({ apiKey: 'test', baseURL: base, maxRetries: 0 });
      await assert.rejects(
        openai.chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: 'hi' }],
          tools: openaiTools,
        }),
      );
      const anthropic = new Anthropic({ apiKey: 'test', baseURL: base, maxRetries: 0 });
      await assert.rejects(
        anthropic.messages.create({
          model: 'claude-test',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
          tools: anthropicTools,
        }),
      );
      assert.deepEqual(sent[0]!.tools, openaiTools);
      assert.deepEqual(sent[1]!.tools, anthropicTools);
      assert.equal(sent[1]!.tools.length, 25);
    } finally {
      await new Promise<void>((resolve) => capture.close(() => resolve()));
    }
  });

  it('serves discovery documents their own parsers accept, with ETags', async () => {
    const openapiText = await (await get('/api/ai/tools/openapi')).text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: openapiText, absoluteRef: 'tools-openapi.json', config });
    assert.deepEqual(
      problems.filter((problem) => problem.severity === 'error').map((problem) => problem.message),
      [],
    );
    assert.ok(Object.keys(JSON.parse(openapiText).paths).includes('/v1/client/orderCreate'));

    const manifest = (await (await get('/.well-known/ai-tools.json')).json()) as Structured;
    assert.equal(manifest.servers[1].url, `${loadConfig({}).publicBaseUrl}/mcp/developer`);
    assert.deepEqual(await (await get('/api/.well-known/ai-tools.json')).json(), manifest);

    // llms.txt: an H1, a blockquote summary, then H2 sections of Markdown links (llmstxt.org).
    const llms = await (await get('/llms.txt')).text();
    const lines = llms.split('\n');
    assert.match(lines[0]!, /^# \S/);
    assert.ok(lines.some((line) => line.startsWith('> ')));
    assert.ok(lines.some((line) => /^## /.test(line)));
    assert.ok(lines.filter((line) => /^- \[[^\]]+\]\(https?:\/\/[^)]+\)/.test(line)).length >= 5);

    const capabilities = (await (await get('/api/ai/capabilities')).json()) as Structured;
    assert.equal(capabilities.api_version, '1.0');
    assert.equal(capabilities.otep_version, '0.1');
    assert.deepEqual(capabilities.modules, { contractor_assignment: false });
    assert.equal(capabilities.tools.developer, 25);

    const graphqlTools = (await (await get('/api/ai/tools/graphql')).json()) as Structured;
    assert.ok(
      graphqlTools.operations.some((operation: Structured) => operation.field === 'clientOrderCreate'),
    );

    const first = await get('/api/ai/tools?format=openai');
    const again = await fetch(`${server.baseUrl}/api/ai/tools?format=openai`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${server.baseUrl}/api/ai/tools?format=yaml`)).status, 400);
  });
});
