import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { toolTables } from '../src/doors/mcp/tools.ts';
import { PROFILES } from '../src/modules/accounts/profiles.ts';
import { createTenant, DROPOFF, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The user tools of the interface's table ("Agent tool servers"): auth, risk, scopes, confirm.
 * Kept here, not read from the code: the catalog must match it.
 */
const INTERFACE_TOOLS: Record<string, { auth: 'P' | 'A'; risk: string; scopes: string[]; confirm?: true }> = {
  track_package: { auth: 'P', risk: 'low', scopes: [] },
  otep_tracking: { auth: 'P', risk: 'low', scopes: [] },
  get_capabilities: { auth: 'P', risk: 'low', scopes: [] },
  get_orders: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  get_order_detail: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  find_order: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  get_operation_events: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  create_order: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  cancel_order: { auth: 'A', risk: 'high', scopes: ['orders:write'], confirm: true },
  bulk_create_orders: { auth: 'A', risk: 'high', scopes: ['orders:write'], confirm: true },
  reroute_to_address: { auth: 'A', risk: 'high', scopes: ['orders:write'], confirm: true },
  set_order_location: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  get_orders_needing_location: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  update_delivery_instruction: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  update_order_note: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  update_time_window_by_refs: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  hold_order: { auth: 'A', risk: 'high', scopes: ['orders:write'], confirm: true },
  release_order: { auth: 'A', risk: 'high', scopes: ['orders:write'], confirm: true },
  propose_write: { auth: 'A', risk: 'low', scopes: ['approvals:read'] },
  list_pending_approvals: { auth: 'A', risk: 'low', scopes: ['approvals:read'] },
  approve_pending_write: { auth: 'A', risk: 'high', scopes: ['approvals:write'], confirm: true },
  reject_pending_write: { auth: 'A', risk: 'medium', scopes: ['approvals:write'] },
  get_routes: { auth: 'A', risk: 'low', scopes: ['routes:read'] },
  get_route_detail: { auth: 'A', risk: 'low', scopes: ['routes:read'] },
  get_dispatch_board: { auth: 'A', risk: 'low', scopes: ['routes:read'] },
  get_drivers: { auth: 'A', risk: 'low', scopes: ['drivers:read'] },
  get_driver_routes_today: { auth: 'A', risk: 'low', scopes: ['routes:read', 'drivers:read'] },
  get_build_route_options: { auth: 'A', risk: 'low', scopes: ['routes:read'] },
  build_route: { auth: 'A', risk: 'high', scopes: ['routes:write'], confirm: true },
  assign_order_to_route: { auth: 'A', risk: 'high', scopes: ['routes:write'], confirm: true },
  move_route_stop: { auth: 'A', risk: 'medium', scopes: ['routes:write'] },
  remove_route_stop: { auth: 'A', risk: 'medium', scopes: ['routes:write'] },
  resequence_route: { auth: 'A', risk: 'medium', scopes: ['routes:write'] },
  lock_route: { auth: 'A', risk: 'low', scopes: ['routes:write'] },
  unlock_route: { auth: 'A', risk: 'low', scopes: ['routes:write'] },
  order_snapshot: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  list_exceptions: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  get_shipping_methods: { auth: 'A', risk: 'low', scopes: ['labels:read'] },
  get_shipping_rate: { auth: 'A', risk: 'low', scopes: ['labels:read'] },
  create_shipping_label: { auth: 'A', risk: 'medium', scopes: ['labels:write'] },
  quote_and_ship: { auth: 'A', risk: 'medium', scopes: ['labels:write'] },
  compare_all_carriers: { auth: 'A', risk: 'low', scopes: ['labels:read'] },
  search_address: { auth: 'A', risk: 'low', scopes: ['address:read'] },
  daily_digest: { auth: 'A', risk: 'low', scopes: ['analytics:read'] },
  get_orders_summary: { auth: 'A', risk: 'low', scopes: ['analytics:read'] },
  get_account_credits: { auth: 'A', risk: 'low', scopes: ['analytics:read'] },
  get_warehouses: { auth: 'A', risk: 'low', scopes: ['wms:read'] },
  get_inventory: { auth: 'A', risk: 'low', scopes: ['wms:read'] },
  list_datasets: { auth: 'A', risk: 'low', scopes: ['datasets:read'] },
  get_dataset: { auth: 'A', risk: 'low', scopes: ['datasets:read'] },
  list_dataset_groups: { auth: 'A', risk: 'low', scopes: ['datasets:read'] },
  search_dataset_records: { auth: 'A', risk: 'low', scopes: ['datasets:read'] },
  // The service's own read tools of custom maps (docs/maps.md).
  list_maps: { auth: 'A', risk: 'low', scopes: ['maps:read'] },
  get_map: { auth: 'A', risk: 'low', scopes: ['maps:read'] },
  list_alliances: { auth: 'A', risk: 'low', scopes: ['alliance:read'] },
  get_alliance: { auth: 'A', risk: 'low', scopes: ['alliance:read'] },
  list_alliance_members: { auth: 'A', risk: 'low', scopes: ['alliance:read'] },
  list_accessible_clients: { auth: 'A', risk: 'low', scopes: ['alliance:read'] },
  list_skills: { auth: 'A', risk: 'low', scopes: ['drivers:read'] },
  get_driver_skills: { auth: 'A', risk: 'low', scopes: ['drivers:read'] },
  get_order_required_skills: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  set_order_required_skills: { auth: 'A', risk: 'medium', scopes: ['orders:write'] },
  // The service's own read tools of packing and loading (docs/packing.md, docs/loading.md).
  list_packaging: { auth: 'A', risk: 'low', scopes: ['packing:read'] },
  get_packing_plan: { auth: 'A', risk: 'low', scopes: ['packing:read'] },
  list_locker_sites: { auth: 'A', risk: 'low', scopes: ['lockers:read'] },
  list_locker_ledger: { auth: 'A', risk: 'low', scopes: ['lockers:read'] },
  list_inbound_parcels: { auth: 'A', risk: 'low', scopes: ['wms:read'] },
  list_reservations: { auth: 'A', risk: 'low', scopes: ['reservations:read'] },
  get_load_plan: { auth: 'A', risk: 'low', scopes: ['packing:read'] },
  list_third_party_orders: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
  list_sms_campaigns: { auth: 'A', risk: 'low', scopes: ['sms:read'] },
  get_sms_campaign_report: { auth: 'A', risk: 'low', scopes: ['sms:read'] },
  // Reading a shipping label changes nothing (docs/ocr.md).
  parse_label: { auth: 'A', risk: 'low', scopes: ['orders:read'] },
};

/**
 * The interface's profiles ("Profiles and scopes"), scope for scope. Kept here, not read from the
 * code: an agent given one of these reads exactly what its operator chose, no newer family besides.
 */
const INTERFACE_PROFILES: Record<string, string[]> = {
  'ops-readonly': [
    'orders:read',
    'labels:read',
    'routes:read',
    'drivers:read',
    'analytics:read',
    'address:read',
    'approvals:read',
  ],
  support: ['orders:read', 'analytics:read', 'address:read', 'approvals:read'],
  'ops-write': [
    'orders:read',
    'orders:write',
    'labels:read',
    'labels:write',
    'routes:read',
    'routes:write',
    'drivers:read',
    'analytics:read',
    'address:read',
    'approvals:read',
    'approvals:write',
  ],
  'wms-readonly': ['wms:read', 'orders:read'],
  'datasets-readonly': ['datasets:read'],
  'alliance-readonly': ['alliance:read'],
};

// Tool answers are read field by field; their shapes are checked by the output schemas.
// biome-ignore lint/suspicious/noExplicitAny: a structured tool answer, read as a test reads JSON
type Structured = Record<string, any>;

describe('the user MCP server', () => {
  let server: TestServer;
  let api: Http;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  const clients: Client[] = [];

  /** An SDK client over Streamable HTTP, with the connection's headers. */
  const connect = async (headers: Record<string, string> = {}) => {
    const mcp = new Client({ name: 'test-agent', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers } }),
    );
    clients.push(mcp);
    return mcp;
  };
  const bearer = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  const call = async (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Structured };
  const agentToken = async (profile?: string) =>
    await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      ...(profile ? { profile } : {}),
    });
  const newOrder = async () =>
    (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body.orders[0] as {
      id: number;
      status: string;
      packages: Array<{ tracking_number: string }>;
    };
  const statusOf = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order.status as string;
  const countOf = async (table: string) =>
    (
      await server.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
    ).count as number;

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'mcp');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
  });
  after(async () => {
    for (const mcp of clients) await mcp.close();
    await server.close();
  });

  it('initializes, and lists only the public tools to a connection without a token', async () => {
    const mcp = await connect();
    assert.equal(mcp.getServerVersion()?.name, 'tms-user');
    await mcp.ping();
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'get_capabilities',
      'otep_tracking',
      'track_package',
    ]);
    const order = await newOrder();
    const tracked = await call(mcp, 'track_package', { tracking_number: order.packages[0]!.tracking_number });
    assert.equal(tracked.isError, undefined);
    assert.equal(tracked.structuredContent.trackingNumber, order.packages[0]!.tracking_number);
    assert.equal(tracked.structuredContent.status, 'information_submitted');
    const refused = await call(mcp, 'get_orders');
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error_code, 'UNAUTHENTICATED');
  });

  it('lists every tool of the interface that exists, with its auth, risk, scopes and confirm', async () => {
    const mcp = await connect(bearer(admin));
    const { tools } = await mcp.listTools();
    const listed = new Map(tools.map((tool) => [tool.name, tool]));
    const declared = new Map(
      server.app.catalog
        .list()
        .flatMap((operation) => (operation.tool?.user ? [[operation.tool.user, operation]] : [])),
    );
    // Tools of the read models not built yet are absent from both; none is listed the table lacks.
    assert.deepEqual(
      [...listed.keys()].filter((name) => !INTERFACE_TOOLS[name]),
      [],
    );
    assert.ok(listed.size >= 33, `${listed.size} tools`);
    for (const [name, expected] of Object.entries(INTERFACE_TOOLS)) {
      const operation = declared.get(name);
      if (!operation) continue;
      const access = operation.access;
      // get_account_credits is the customer's own: a client admin's connection does not list it.
      if ('kinds' in access && access.kinds !== 'any' && !access.kinds.includes('client_admin')) continue;
      const tool = listed.get(name);
      assert.ok(tool, `${name} is listed`);
      assert.equal(access.public ? 'P' : 'A', expected.auth, name);
      assert.equal(operation.risk, expected.risk, name);
      assert.deepEqual(
        'kinds' in access ? [...(access.scopes ?? [])].sort() : [],
        [...expected.scopes].sort(),
        name,
      );
      assert.equal(operation.confirm === true, expected.confirm === true, name);
      // What the agent sees follows the catalog.
      assert.equal('confirm' in (tool.inputSchema.properties ?? {}), expected.confirm === true, name);
      assert.equal(tool.annotations?.readOnlyHint === true, operation.kind === 'query', name);
      assert.equal(tool.annotations?.destructiveHint === true, expected.risk === 'high', name);
      assert.equal(tool.annotations?.openWorldHint, false, name);
      const guide = tool.description ?? '';
      assert.ok(
        guide.length > 60,
        `${name}: its tool guide has ${guide.length} characters; write more than 60 for an agent (what it does, when to use it rather than its neighbours), see CONTRIBUTING.md`,
      );
    }
    assert.match(listed.get('build_route')!.description!, /get_build_route_options first/);
    assert.deepEqual(listed.get('track_package')!.inputSchema.required, ['tracking_number']);
  });

  it('has docs/mcp-tools.md in step with the catalog', async () => {
    const committed = await readFile(new URL('../docs/mcp-tools.md', import.meta.url), 'utf8');
    assert.equal(
      committed,
      toolTables(server.app.catalog),
      'docs/mcp-tools.md is out of date: npm run mcp:tools',
    );
  });

  it('shows and allows only what the profile or the scopes of the connection grant', async () => {
    for (const [profile, scopes] of Object.entries(PROFILES)) {
      const mcp = await connect(bearer(admin, { 'x-mcp-profile': profile }));
      const { tools } = await mcp.listTools();
      for (const tool of tools) {
        const needed = INTERFACE_TOOLS[tool.name]!.scopes;
        assert.ok(
          scopes === 'all' || needed.every((scope) => scopes.includes(scope as never)),
          `${profile}: ${tool.name}`,
        );
      }
      if (scopes !== 'all') {
        const hidden = Object.entries(INTERFACE_TOOLS).filter(
          ([name, tool]) =>
            tool.scopes.some((scope) => !scopes.includes(scope as never)) &&
            server.app.catalog.list().some((operation) => operation.tool?.user === name),
        );
        for (const [name] of hidden)
          assert.ok(!tools.some((tool) => tool.name === name), `${profile} hides ${name}`);
      }
    }
    const narrowed = await connect(bearer(admin, { 'x-mcp-scopes': 'orders:read' }));
    const refused = await call(narrowed, 'create_order', { dropoff: DROPOFF });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error_code, 'SCOPE_REQUIRED');
    assert.deepEqual(refused.structuredContent.details, { missing: ['orders:write'] });
    // Headers only narrow: an agent token's read-only profile is not widened by asking for more.
    const widened = await connect(bearer(await agentToken(), { 'x-mcp-profile': 'full' }));
    assert.equal(
      (await call(widened, 'create_order', { dropoff: DROPOFF })).structuredContent.error_code,
      'SCOPE_REQUIRED',
    );
    assert.equal((await call(widened, 'get_orders')).isError, undefined);
  });

  it('gives each profile of the interface exactly its scopes', () => {
    for (const [profile, scopes] of Object.entries(INTERFACE_PROFILES)) {
      const granted = PROFILES[profile];
      assert.ok(Array.isArray(granted), `${profile} is a list of scopes`);
      assert.deepEqual([...granted].sort(), [...scopes].sort(), profile);
    }
    assert.equal(PROFILES.full, 'all');
  });

  it('keeps the packing, lockers and reservations tools from an ops-readonly agent, listed or called', async () => {
    const newer = /^(packing|lockers|reservations):/;
    const familyTools = server.app.catalog.list().flatMap((operation) => {
      const scopes = 'kinds' in operation.access ? (operation.access.scopes ?? []) : [];
      return operation.tool?.user && scopes.some((scope) => newer.test(scope)) ? [operation.tool.user] : [];
    });
    assert.ok(familyTools.length >= 6, familyTools.join(', '));
    const agent = await connect(bearer(await agentToken('ops-readonly')));
    const listed = new Set((await agent.listTools()).tools.map((tool) => tool.name));
    assert.ok(listed.has('get_orders'), 'the profile still reads orders');
    for (const name of familyTools) {
      assert.ok(!listed.has(name), `ops-readonly lists ${name}`);
      const refused = await call(agent, name);
      assert.equal(refused.structuredContent.error_code, 'SCOPE_REQUIRED', name);
    }
    // The families reach an agent through their own profiles.
    const packing = await connect(bearer(admin, { 'x-mcp-profile': 'packing-readonly' }));
    const packingTools = new Set((await packing.listTools()).tools.map((tool) => tool.name));
    for (const name of ['list_packaging', 'get_packing_plan', 'get_load_plan'])
      assert.ok(packingTools.has(name), `packing-readonly lists ${name}`);
    assert.ok(!packingTools.has('get_orders'), 'packing-readonly reads no orders');
  });

  it('keeps account kinds: a customer cannot build routes', async () => {
    const customer = await login(api, tenant.emails.customer);
    const mcp = await connect(bearer(customer));
    const refused = await call(mcp, 'build_route', { date: '2026-11-03', confirm: true });
    assert.equal(refused.structuredContent.error_code, 'FORBIDDEN');
    assert.ok(!(await mcp.listTools()).tools.some((tool) => tool.name === 'build_route'));
  });

  it('previews an unconfirmed high-risk call, and runs it once confirmed', async () => {
    const order = await newOrder();
    const mcp = await connect(bearer(admin));
    const preview = await call(mcp, 'cancel_order', { order_id: order.id });
    assert.equal(preview.isError, true);
    assert.equal(preview.structuredContent.error_code, 'CONFIRMATION_REQUIRED');
    assert.equal(preview.structuredContent.preview.order.status, 'CANCELLED');
    assert.equal(preview.structuredContent.preview.dry_run, true);
    assert.equal(await statusOf(order.id), 'NEW_ORDER');
    const done = await call(mcp, 'cancel_order', { order_id: order.id, confirm: true });
    assert.equal(done.isError, undefined);
    assert.equal(done.structuredContent.order.status, 'CANCELLED');
    assert.equal(await statusOf(order.id), 'CANCELLED');
  });

  it('runs and rolls back every write of a dry-run connection, sending nothing out', async () => {
    const mcp = await connect(bearer(admin, { 'x-mcp-dry-run': '1' }));
    const [orders, outbox] = [await countOf('orders'), await countOf('outbox')];
    const created = await call(mcp, 'create_order', { dropoff: DROPOFF });
    assert.equal(created.structuredContent.dry_run, true);
    assert.ok(created.structuredContent.orders[0].id > 0);
    assert.equal(await countOf('orders'), orders);
    assert.equal(await countOf('outbox'), outbox);
  });

  it('queues a high-risk write for approval, which runs it as the approver', async () => {
    const order = await newOrder();
    const writer = await agentToken('ops-write');
    const agent = await connect(bearer(writer, { 'x-mcp-require-approval': '1' }));

    const queued = await call(agent, 'cancel_order', { order_id: order.id });
    assert.equal(queued.structuredContent.queued_for_approval, true);
    const proposal = queued.structuredContent.proposal;
    assert.equal(proposal.status, 'pending');
    assert.equal(proposal.preview.order.status, 'CANCELLED');
    assert.equal(await statusOf(order.id), 'NEW_ORDER');

    // The agent cannot wave its own proposal through (on a connection that does not queue it again).
    const sameToken = await connect(bearer(writer));
    const own = await call(sameToken, 'approve_pending_write', { proposal_id: proposal.id, confirm: true });
    assert.equal(own.structuredContent.error_code, 'OWN_PROPOSAL');

    const person = await connect(bearer(admin));
    const pending = await call(person, 'list_pending_approvals');
    assert.ok(pending.structuredContent.proposals.some((p: Structured) => p.id === proposal.id));
    const approved = await call(person, 'approve_pending_write', { proposal_id: proposal.id, confirm: true });
    assert.equal(approved.structuredContent.proposal.status, 'approved');
    assert.equal(approved.structuredContent.proposal.succeeded, true);
    assert.equal(approved.structuredContent.proposal.outcome.order.status, 'CANCELLED');
    assert.equal(await statusOf(order.id), 'CANCELLED');
  });

  it('rejects a proposal with a reason, and nothing runs', async () => {
    const order = await newOrder();
    const agent = await connect(bearer(await agentToken('ops-readonly')));
    const proposed = await call(agent, 'propose_write', {
      tool: 'hold_order',
      arguments: { order_id: order.id },
      reason: 'customer asked to wait',
    });
    const id = proposed.structuredContent.proposal.id;
    const person = await connect(bearer(admin));
    const rejected = await call(person, 'reject_pending_write', { proposal_id: id, reason: 'not today' });
    assert.equal(rejected.structuredContent.proposal.status, 'rejected');
    assert.equal(rejected.structuredContent.proposal.decision_reason, 'not today');
    const again = await call(person, 'approve_pending_write', { proposal_id: id, confirm: true });
    assert.equal(again.structuredContent.error_code, 'PROPOSAL_DECIDED');
    assert.equal(await statusOf(order.id), 'NEW_ORDER');
  });

  it('runs a proposal once when two approvers race', async () => {
    const order = await newOrder();
    const agent = await connect(bearer(await agentToken('ops-readonly')));
    const id = (
      await call(agent, 'propose_write', {
        tool: 'cancel_order',
        arguments: { order_id: order.id },
        reason: 'race',
      })
    ).structuredContent.proposal.id;
    const [one, two] = [await connect(bearer(admin)), await connect(bearer(employee))];
    const answers = await Promise.all(
      [one, two].map((mcp) => call(mcp, 'approve_pending_write', { proposal_id: id, confirm: true })),
    );
    const codes = answers.map((answer) => answer.structuredContent.error_code ?? 'approved').sort();
    assert.deepEqual(codes, ['PROPOSAL_DECIDED', 'approved']);
    const events = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [order.id] },
      { token: admin },
    );
    const cancellations = events.body.events.filter(
      (event: Structured) => event.action === 'status_changed' && event.changes.status?.to === 'CANCELLED',
    );
    assert.equal(cancellations.length, 1);
  });

  it('hides prices from a customer whose prices are hidden, as REST does', async () => {
    await api.call('PUT', `/api/v1/client/customers/${tenant.userIds.customer}/price-visibility`, {
      token: admin,
      body: { hidden: { local_delivery: true } },
    });
    const priced = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: DROPOFF, customer_id: tenant.userIds.customer, currency: 'EUR', shipping_price: '9.90' },
      { token: admin },
    );
    const customer = await connect(bearer(await login(api, tenant.emails.customer)));
    const detail = await call(customer, 'get_order_detail', { order_id: priced.body.orders[0].id });
    assert.equal(detail.structuredContent.order.price_hidden, true);
    assert.equal(detail.structuredContent.order.shipping_price, undefined);
    const staff = await connect(bearer(admin));
    assert.equal(
      (await call(staff, 'get_order_detail', { order_id: priced.body.orders[0].id })).structuredContent.order
        .shipping_price,
      9.9,
    );
  });

  it('answers refusals in the connection’s language, and protocol errors as JSON-RPC errors', async () => {
    const french = await connect({ 'accept-language': 'fr' });
    const german = await connect({ 'accept-language': 'de' });
    const fr = await call(french, 'track_package', { tracking_number: 'NOPE1' });
    const de = await call(german, 'track_package', { tracking_number: 'NOPE1' });
    assert.equal(fr.structuredContent.error_code, 'TRACKING_NOT_FOUND');
    assert.equal(de.structuredContent.error_code, 'TRACKING_NOT_FOUND');
    assert.notEqual(fr.structuredContent.message, de.structuredContent.message);
    await assert.rejects(french.callTool({ name: 'no_such_tool', arguments: {} }), (error) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32602);
      return true;
    });
    await assert.rejects(
      french.callTool({ name: 'track_package', arguments: { tracking_number: 42 } }),
      (error) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32602);
        assert.match(error.message, /tracking_number|trackingNumber/);
        return true;
      },
    );
  });

  it('answers GET and DELETE with 405, whatever content type they claim and whatever body they send', async () => {
    const requests: Array<[string, RequestInit]> = [
      ['DELETE', {}],
      ['DELETE', { headers: { 'content-type': 'application/json' } }],
      ['DELETE', { headers: { 'content-type': 'application/json' }, body: '{"jsonrpc": ' }],
      ['DELETE', { headers: { 'content-type': 'application/json', 'mcp-session-id': 'abc' }, body: '' }],
      ['GET', { headers: { 'content-type': 'application/json', accept: 'text/event-stream' } }],
    ];
    for (const path of ['/mcp', '/mcp/developer']) {
      for (const [method, init] of requests) {
        const answer = await fetch(`${server.baseUrl}${path}`, { method, ...init });
        const said = `${method} ${path} ${JSON.stringify(init)}`;
        assert.equal(answer.status, 405, said);
        assert.equal(answer.headers.get('allow'), 'POST', said);
        const body = (await answer.json()) as { jsonrpc: string; error: { message: string } };
        assert.equal(body.jsonrpc, '2.0', said);
        assert.match(body.error.message, /POST only/, said);
      }
    }
  });

  it('answers plain JSON-RPC clients in JSON, refuses GET, and refuses a foreign Origin or Host', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const plain = await post({ accept: 'application/json' }, { jsonrpc: '2.0', id: 7, method: 'tools/list' });
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type') ?? '', /application\/json/);
    const listed = (await plain.json()) as { id: number; result: { tools: unknown[] } };
    assert.equal(listed.id, 7);
    assert.equal(listed.result.tools.length, 3);
    assert.equal((await fetch(`${server.baseUrl}/mcp`)).status, 405);
    assert.equal(
      (await post({ origin: 'https://evil.example' }, { jsonrpc: '2.0', id: 1, method: 'ping' })).status,
      403,
    );
    // fetch sets Host itself: a raw request names another one, as a rebinding page's would.
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(server.baseUrl).port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json' },
        },
        (response) => resolve(response.statusCode ?? 0),
      );
      request.on('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    assert.equal(foreignHost, 403);
    assert.equal(
      (await post({ 'x-mcp-profile': 'everything' }, { jsonrpc: '2.0', id: 1, method: 'ping' })).status,
      400,
    );
  });
});
