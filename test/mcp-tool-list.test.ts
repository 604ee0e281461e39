import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { DISCOVERY_PAGE_BUDGET_BYTES } from '../src/doors/discovery/tool-pages.ts';
import {
  ANSWER_CEILING_BYTES,
  budgetBreach,
  listSizes,
  withListSizes,
} from '../src/doors/mcp/list-budgets.ts';
import { TOOL_LIST_BUDGET_BYTES, toolListSizes } from '../src/doors/mcp/list-sizes.ts';
import { PROFILES } from '../src/modules/accounts/profiles.ts';
import { discoveryPages, entryName } from './support/discovery.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** What an agent's context pays for a tool list: the bytes of the answer on the wire. */
async function toolListBytes(baseUrl: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(response.status, 200);
  const body = await response.text();
  const tools = (JSON.parse(body) as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
  return { bytes: Buffer.byteLength(body), tools };
}

describe('the tool list an agent reads', () => {
  let server: TestServer;
  let api: Http;
  let tenant: Tenant;
  let admin: string;
  const clients: Client[] = [];

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'toollist');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(async () => {
    for (const mcp of clients) await mcp.close();
    await server.close();
  });

  it('stays within 64 KB under every profile, as docs/mcp.md says', async () => {
    const userList = (bytes: number, detail: string) =>
      budgetBreach({ list: 'MCP `tools/list`, user server', detail, bytes, kind: 'toolList' });
    const sizes = new Map<string, number>();
    for (const profile of Object.keys(PROFILES)) {
      const { bytes, tools } = await toolListBytes(server.baseUrl, '/mcp', {
        authorization: `Bearer ${admin}`,
        'x-mcp-profile': profile,
      });
      sizes.set(profile, bytes);
      assert.ok(
        bytes <= TOOL_LIST_BUDGET_BYTES,
        userList(bytes, `client_admin, profile ${profile}, ${tools.length} tools, on the wire`),
      );
    }
    // A login token without a profile lists as `full`, the widest.
    const unnarrowed = await toolListBytes(server.baseUrl, '/mcp', { authorization: `Bearer ${admin}` });
    assert.equal(unnarrowed.bytes, sizes.get('full'));
    assert.ok(unnarrowed.tools.length > 40, `${unnarrowed.tools.length} tools`);

    // The tables in docs/mcp.md are the catalog's, and the catalog's sizes are the wire's.
    const documented = await readFile(new URL('../docs/mcp.md', import.meta.url), 'utf8');
    assert.equal(
      documented,
      withListSizes(documented, server.app.catalog),
      'the sizes in docs/mcp.md are out of date: run npm run mcp:tools and commit docs/mcp.md',
    );
    const computed = toolListSizes(server.app.catalog, 'user').find(
      (size) => size.kind === 'client_admin' && size.profile === 'full',
    )!;
    assert.equal(computed.tools, unnarrowed.tools.length);
    // The wire adds only the JSON-RPC envelope around the same tools.
    assert.ok(Math.abs(unnarrowed.bytes - computed.bytes) < 64, `${unnarrowed.bytes} vs ${computed.bytes}`);
    for (const size of toolListSizes(server.app.catalog, 'user')) {
      const detail = `${size.kind}, profile ${size.profile}, ${size.tools} tools`;
      assert.ok(size.bytes <= TOOL_LIST_BUDGET_BYTES, userList(size.bytes, detail));
    }
    // Every budgeted list, the developer server's and discovery's pages included, at its largest.
    for (const size of listSizes(server.app.catalog)) assert.ok(size.room >= 0, budgetBreach(size));
    assert.ok(DISCOVERY_PAGE_BUDGET_BYTES <= ANSWER_CEILING_BYTES, 'a discovery page stays within 48 KB');
  });

  it('says each thing once: shared blocks in $defs, no output schemas, the common rules in the instructions', async () => {
    const { tools } = await toolListBytes(server.baseUrl, '/mcp', { authorization: `Bearer ${admin}` });
    const byName = new Map(tools.map((tool) => [tool.name as string, tool]));
    for (const tool of tools) {
      assert.equal(tool.outputSchema, undefined, `${tool.name} has no output schema`);
      const text = JSON.stringify(tool);
      // zod's date pattern spells out leap years in 300 characters; `format: date` says it.
      assert.doesNotMatch(text, /\[2468\]\[048\]/, `${tool.name} keeps no pattern beside a format`);
      assert.doesNotMatch(text, /9007199254740991/, `${tool.name} keeps no safe-integer bounds`);
    }
    // Paging is said once, in the instructions, not in each list's page and per_page.
    const warehouses = byName.get('get_warehouses') as {
      inputSchema: { properties: Record<string, { description?: string; maximum?: number }> };
    };
    assert.equal(warehouses.inputSchema.properties.page?.description, undefined);
    assert.equal(warehouses.inputSchema.properties.per_page?.maximum, 200);
    // create_order's pickup and dropoff are one address block, written once.
    const createOrder = byName.get('create_order') as {
      inputSchema: { $defs?: Record<string, { properties?: Record<string, unknown> }> };
    };
    const item = JSON.stringify(createOrder.inputSchema);
    const addressRefs = item.match(/"(pickup|dropoff)":\{"\$ref":"#\/\$defs\/[^"]+"\}/g) ?? [];
    assert.equal(addressRefs.length, 2, item.slice(0, 400));
    const shared = Object.values(createOrder.inputSchema.$defs ?? {}).find((def) => def.properties?.line1);
    assert.ok(shared, 'the address is a shared definition');
    assert.equal(item.split('"line1":{').length - 1, 1, 'the address fields are written once');
    // compare_all_carriers describes its two addresses apart (sender, recipient): still one block,
    // each use keeping its own description beside the reference.
    const compare = JSON.stringify(
      (byName.get('compare_all_carriers') as { inputSchema: unknown }).inputSchema,
    );
    assert.match(
      compare,
      /"pickup":\{"\$ref":"#\/\$defs\/[^"]+","description":"The sender"\}/,
      compare.slice(0, 400),
    );
    assert.match(compare, /"dropoff":\{"\$ref":"#\/\$defs\/[^"]+","description":"The recipient"\}/);
    assert.equal(compare.split('"line1":{').length - 1, 1, 'the address fields are written once');

    const mcp = new Client({ name: 'test-agent', version: '1.0.0' });
    clients.push(mcp);
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${admin}` } },
      }),
    );
    const instructions = mcp.getInstructions() ?? '';
    for (const rule of [
      'error_code',
      'CONFIRMATION_REQUIRED',
      'dry_run',
      'queued_for_approval',
      '/api/ai/tools/openapi',
      'per_page',
    ]) {
      assert.ok(instructions.includes(rule), `the instructions describe ${rule}`);
    }
    // A refusal still carries the error body as structured content, as the instructions say.
    const refused = await mcp.callTool({ name: 'find_order', arguments: { order_ref: 'NO-SUCH-ORDER' } });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error_code: string }).error_code, 'ORDER_NOT_FOUND');
  });

  it('keeps discovery in step: each format holds the same tools, a page within its budget', async () => {
    const { tools } = await toolListBytes(server.baseUrl, '/mcp', { authorization: `Bearer ${admin}` });
    const listed = new Map(tools.map((tool) => [tool.name as string, tool]));
    for (const format of ['mcp', 'openai', 'anthropic', 'langchain']) {
      const pages = await discoveryPages(server.baseUrl, `format=${format}`);
      for (const page of pages) {
        const list = `\`/api/ai/tools?format=${format}&server=user\``;
        const detail = `a page of ${page.entries.length} tools, on the wire`;
        const breach = budgetBreach({ list, detail, bytes: page.bytes, kind: 'discoveryPage' });
        assert.ok(page.bytes <= DISCOVERY_PAGE_BUDGET_BYTES, breach);
      }
      const entries = pages.flatMap((page) => page.entries);
      const schemaOf = (entry: Record<string, unknown>) =>
        entry.inputSchema ??
        entry.input_schema ??
        entry.schema ??
        (entry.function as { parameters: unknown } | undefined)?.parameters;
      // Discovery lists every tool of the server: each one a connection lists is there, alike.
      const discovered = new Map(entries.map((entry) => [entryName(entry), entry]));
      for (const [name, tool] of listed) {
        const entry = discovered.get(name);
        assert.ok(entry, `${format} lists ${name}`);
        assert.deepEqual(schemaOf(entry), tool.inputSchema, `${format} ${name}`);
      }
    }
  });

  it('names the tool’s own arguments in a validation error, with one MCP prefix', async () => {
    const mcp = new Client({ name: 'test-agent', version: '1.0.0' });
    clients.push(mcp);
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    await assert.rejects(
      mcp.callTool({ name: 'track_package', arguments: { tracking_number: 42 } }),
      (error) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32602);
        assert.equal(error.message.split('MCP error').length - 1, 1, error.message);
        assert.match(error.message, /tracking_number/);
        assert.doesNotMatch(error.message, /trackingNumber/);
        const data = error.data as { error_code: string; details: { fields: Array<{ field: string }> } };
        assert.equal(data.error_code, 'VALIDATION_FAILED');
        assert.deepEqual(
          data.details.fields.map((field) => field.field),
          ['tracking_number'],
        );
        return true;
      },
    );
    await assert.rejects(mcp.callTool({ name: 'no_such_tool', arguments: {} }), (error) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.message, 'MCP error -32602: Unknown tool: no_such_tool');
      return true;
    });
  });
});
