import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLClient, gql } from 'graphql-request';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import {
  STAND_IN_MAPPING,
  type StandInOrder,
  type StandInProvider,
  startStandInProvider,
} from '../src/demo/third-party.ts';
import { createTenant, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const CREDENTIAL = 'provider-secret-credential';
/** Central Paris, where the business delivers. */
const PARIS = { min_lat: 48.815, min_lng: 2.224, max_lat: 48.902, max_lng: 2.47 };

describe('third-party delivery', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const providers: StandInProvider[] = [];
  let serial = 0;

  /** A provider order due `minutes` from the test clock, at Paris (or at Lyon). */
  const offer = (
    provider: StandInProvider,
    options: { minutes?: number; lyon?: boolean } = {},
  ): StandInOrder => {
    serial++;
    const order: StandInOrder = {
      ref: `P-${serial}`,
      respond_by: new Date(server.clock.now().getTime() + (options.minutes ?? 15) * 60_000).toISOString(),
      customer: { name: `Customer ${serial}`, phone: '+33100000000' },
      destination: options.lyon
        ? {
            street: '1 Place Bellecour',
            city: 'Lyon',
            zip: '69002',
            country: 'FR',
            geo: { lat: 45.7578, lon: 4.832 },
          }
        : {
            street: '10 Rue de Rivoli',
            city: 'Paris',
            zip: '75004',
            country: 'FR',
            geo: { lat: 48.8556, lon: 2.3585 },
          },
      remarks: 'ring twice',
    };
    provider.orders.push(order);
    return order;
  };

  const newProvider = async () => {
    const provider = await startStandInProvider({ credential: CREDENTIAL });
    providers.push(provider);
    return provider;
  };

  const connect = async (provider: StandInProvider, extra: Record<string, unknown> = {}) => {
    const made = await api.post(
      '/api/v1/third-party/connections',
      {
        name: `Stand-in ${providers.length}`,
        base_url: provider.url,
        credential: CREDENTIAL,
        mapping: STAND_IN_MAPPING,
        poll_seconds: 60,
        ...extra,
      },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return made.body as { connection: { id: number; push_url: string }; push_token: string };
  };

  const pull = async (connectionId: number) => {
    const pulled = await api.post(
      `/api/v1/third-party/connections/${connectionId}/pull`,
      {},
      { token: admin },
    );
    assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
    return pulled.body;
  };

  const providerOrders = async (connectionId: number) => {
    const listed = await api.get(`/api/v1/third-party/orders?connection_id=${connectionId}`, {
      token: admin,
    });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    // Providers send without end: the same list, by cursor a row at a time, newest first.
    const walked: number[] = [];
    let page = await api.get(`/api/v1/third-party/orders?connection_id=${connectionId}&per_page=1`, {
      token: admin,
    });
    // Bounded: a cursor that went nowhere would otherwise walk until the test timed out.
    for (let pages = 0; pages < listed.body.total && page.body.provider_orders.length > 0; pages++) {
      walked.push(page.body.provider_orders[0].id);
      if (page.body.next_cursor === null) break;
      page = await api.get(
        `/api/v1/third-party/orders?connection_id=${connectionId}&per_page=1&cursor=${page.body.next_cursor}`,
        { token: admin },
      );
    }
    assert.deepEqual(
      walked,
      listed.body.provider_orders.map((order: { id: number }) => order.id),
    );
    return listed.body.provider_orders as Array<{
      id: number;
      provider_order_id: string;
      state: string;
      order_id: number | null;
      decision_reason: string | null;
    }>;
  };

  const localOrdersOf = async (connectionId: number) => {
    const counted = await sql<{
      n: string;
    }>`select count(*) as n from orders where order_ref like ${`tp${connectionId}-%`}`.execute(server.db);
    return Number(counted.rows[0]!.n);
  };

  before(async () => {
    const defaults = loadConfig({ LOG_LEVEL: 'silent' }).thirdParty;
    server = await startTestServer({
      // The stand-in providers listen on loopback: allowed here as the webhooks tests allow theirs.
      thirdParty: {
        ...defaults,
        allow: { ...defaults.allow, loopback: true },
        credentialKey: 'k'.repeat(40),
      },
    });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'fleet', { timeZone: 'Europe/Paris' });
    admin = await login(api, tenant.emails.client_admin);
  });
  after(async () => {
    for (const provider of providers) await provider.close();
    await server.close();
  });

  it('creates a provider order pulled twice once, and keeps its credential sealed', async () => {
    const provider = await newProvider();
    const order = offer(provider);
    const { connection } = await connect(provider, { rules: { area: { bbox: PARIS } } });
    const first = await pull(connection.id);
    assert.deepEqual([first.received, first.repeated, first.accepted, first.failed], [1, 0, 1, null]);
    // The cursor back to the start: the provider hands the same order again.
    const rewound = await api.call('PATCH', `/api/v1/third-party/connections/${connection.id}`, {
      token: admin,
      body: { cursor: null },
    });
    assert.equal(rewound.status, 200, JSON.stringify(rewound.body));
    const second = await pull(connection.id);
    assert.deepEqual([second.received, second.repeated, second.accepted], [0, 1, 0]);

    const listed = await providerOrders(connection.id);
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.provider_order_id, order.ref);
    assert.equal(listed[0]!.state, 'accepted');
    assert.equal(await localOrdersOf(connection.id), 1, 'one local order');
    assert.equal(provider.answered('accept').length, 1, 'the provider was told once');
    const local = await api.get(`/api/v1/client/orders/${listed[0]!.order_id}`, { token: admin });
    assert.equal(local.status, 200, JSON.stringify(local.body));
    assert.equal(local.body.order.dropoff.line1, '10 Rue de Rivoli');

    // Sent as a bearer token, kept sealed: the stored row never holds it in clear.
    assert.ok(
      provider.calls.length > 0 &&
        provider.answered('pull').length === provider.calls.filter((c) => c.method === 'GET').length,
      'every pull carried the credential',
    );
    const stored = await sql<{
      credential_sealed: string;
    }>`select credential_sealed from third_party_connections where id = ${connection.id}`.execute(server.db);
    assert.ok(!stored.rows[0]!.credential_sealed.includes(CREDENTIAL), 'sealed at rest');
    const shown = await api.get(`/api/v1/third-party/connections/${connection.id}`, { token: admin });
    assert.equal(shown.body.connection.credential_hint, `…${CREDENTIAL.slice(-4)}`);
    assert.ok(!JSON.stringify(shown.body).includes(CREDENTIAL), 'never shown');
  });

  it('takes pushed orders with the push token, once, and refuses a wrong token', async () => {
    const provider = await newProvider();
    const { connection, push_token } = await connect(provider);
    const pushed = offer(provider);
    const path = new URL(connection.push_url).pathname;
    const refused = await api.post(path, { token: 'tpp_wrong', orders: [pushed] });
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'THIRD_PARTY_PUSH_REFUSED');
    const taken = await api.post(path, { token: push_token, orders: [pushed] });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.received, 1);
    // The same order pulled after its push: known already.
    const pulled = await pull(connection.id);
    assert.deepEqual([pulled.received, pulled.repeated], [0, 1]);
    assert.equal((await providerOrders(connection.id)).length, 1);
  });

  it('refuses an accept after the deadline clearly, and accepts one before it', async () => {
    const provider = await newProvider();
    const late = offer(provider, { minutes: 10 });
    const inTime = offer(provider, { minutes: 60 });
    const { connection } = await connect(provider);
    await pull(connection.id);
    const byRef = new Map((await providerOrders(connection.id)).map((row) => [row.provider_order_id, row]));
    assert.equal(byRef.get(late.ref)!.state, 'pending', 'no rules: a dispatcher decides');

    server.clock.advance(11 * 60_000);
    const refused = await api.post(
      `/api/v1/third-party/orders/${byRef.get(late.ref)!.id}/accept`,
      {},
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.result, false);
    assert.equal(refused.body.error_code, 'THIRD_PARTY_DEADLINE_PASSED');
    assert.equal(refused.body.details.accept_by, late.respond_by);
    assert.match(refused.body.message, /trop tard/);
    const after = await api.get(`/api/v1/third-party/orders/${byRef.get(late.ref)!.id}`, { token: admin });
    assert.equal(after.body.provider_order.state, 'expired');
    assert.equal(provider.answered('accept').length, 0, 'the provider heard nothing');

    const accepted = await api.post(
      `/api/v1/third-party/orders/${byRef.get(inTime.ref)!.id}/accept`,
      {},
      { token: admin },
    );
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.provider_order.state, 'accepted');
    assert.equal(accepted.body.provider_order.decided_by, 'dispatcher');
    assert.ok(accepted.body.provider_order.order_id, 'a local order');
    const again = await api.post(
      `/api/v1/third-party/orders/${byRef.get(inTime.ref)!.id}/reject`,
      { reason: 'x' },
      { token: admin },
    );
    assert.equal(again.status, 409);
    assert.equal(again.body.error_code, 'THIRD_PARTY_ORDER_DECIDED');
  });

  it('previews an accept as a dry run: the provider hears nothing and the order stays pending', async () => {
    const provider = await newProvider();
    offer(provider);
    const { connection } = await connect(provider);
    await pull(connection.id);
    const [pending] = await providerOrders(connection.id);
    const preview = await api.post(
      `/api/v1/third-party/orders/${pending!.id}/accept`,
      {},
      { token: admin, headers: { 'x-dry-run': '1' } },
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.dry_run, true);
    assert.equal(preview.body.provider_order.state, 'accepted', 'what would happen');
    assert.match(JSON.stringify(preview.body.skipped_effects), /accept P-\d+ at Stand-in/);
    assert.equal(provider.answered('accept').length, 0, 'the provider heard nothing');
    assert.equal((await providerOrders(connection.id))[0]!.state, 'pending');
    assert.equal(await localOrdersOf(connection.id), 0, 'no local order kept');
  });

  it('accepts an in-area order and rejects an out-of-area one by the rules, within daily capacity', async () => {
    const provider = await newProvider();
    const paris = offer(provider);
    const lyon = offer(provider, { lyon: true });
    const overCapacity = offer(provider);
    const { connection } = await connect(provider, {
      rules: { area: { bbox: PARIS }, daily_capacity: 1, otherwise: 'reject' },
    });
    const pulled = await pull(connection.id);
    assert.deepEqual([pulled.received, pulled.accepted, pulled.rejected], [3, 1, 2]);
    const byRef = new Map((await providerOrders(connection.id)).map((row) => [row.provider_order_id, row]));
    assert.equal(byRef.get(paris.ref)!.state, 'accepted');
    assert.equal(byRef.get(lyon.ref)!.state, 'rejected');
    assert.equal(byRef.get(lyon.ref)!.decision_reason, 'outside_area');
    assert.equal(byRef.get(overCapacity.ref)!.decision_reason, 'daily_capacity_reached');
    assert.deepEqual(
      provider.answered('accept').map((call) => call.path),
      [`/orders/${paris.ref}/accept`],
    );
    assert.deepEqual(
      provider.answered('reject').map((call) => [call.path, (call.body as { reason: string }).reason]),
      [
        [`/orders/${lyon.ref}/reject`, 'outside_area'],
        [`/orders/${overCapacity.ref}/reject`, 'daily_capacity_reached'],
      ],
    );

    // A radius around the Eiffel Tower, leaving out-of-area orders to a dispatcher.
    const around = await newProvider();
    const near = offer(around);
    const far = offer(around, { lyon: true });
    const radius = await connect(around, {
      rules: { area: { center: { lat: 48.8584, lng: 2.2945 }, radius_km: 10 }, otherwise: 'manual' },
    });
    await pull(radius.connection.id);
    const states = new Map(
      (await providerOrders(radius.connection.id)).map((row) => [row.provider_order_id, row.state]),
    );
    assert.deepEqual([states.get(near.ref), states.get(far.ref)], ['accepted', 'pending']);
  });

  it('sends status changes back in order, through a provider outage', async () => {
    const provider = await newProvider();
    offer(provider);
    const { connection } = await connect(provider, { rules: { area: { bbox: PARIS } } });
    await pull(connection.id);
    const [accepted] = await providerOrders(connection.id);
    assert.ok(accepted?.order_id, 'accepted into a local order');

    provider.fail('status', 503);
    for (const status of ['PICKED_UP', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
      const changed = await api.post(
        `/api/v1/client/orders/${accepted.order_id}/status`,
        { status },
        { token: admin },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
    }
    await server.app.outbox.drainOnce();
    const during = await api.get(`/api/v1/third-party/orders/${accepted.id}`, { token: admin });
    assert.deepEqual(
      during.body.status_pushes.map((push: { sequence: number; status: string; sent_at: string | null }) => [
        push.sequence,
        push.status,
        push.sent_at,
      ]),
      [
        [1, 'PICKED_UP', null],
        [2, 'OUT_FOR_DELIVERY', null],
        [3, 'DELIVERED', null],
      ],
    );
    assert.match(during.body.status_pushes[0].last_error, /503/);
    assert.equal(provider.answered('status').length, 0);
    // Later changes never overtook the first: nothing after it was even tried.
    assert.ok(
      provider.calls
        .filter((call) => call.path.endsWith('/status'))
        .every((call) => (call.body as { sequence: number }).sequence === 1),
      'only the first change was tried while it failed',
    );

    // Still down at the first retry, then back.
    server.clock.advance(10 * 60_000);
    await server.app.outbox.drainOnce();
    provider.heal();
    for (let round = 0; round < 5 && provider.answered('status').length < 3; round++) {
      server.clock.advance(10 * 60_000);
      await server.app.outbox.drainOnce();
    }
    assert.deepEqual(
      provider.answered('status').map((call) => {
        const body = call.body as { status: string; sequence: number };
        return [body.sequence, body.status];
      }),
      [
        [1, 'PICKED_UP'],
        [2, 'OUT_FOR_DELIVERY'],
        [3, 'DELIVERED'],
      ],
    );
    const done = await api.get(`/api/v1/third-party/orders/${accepted.id}`, { token: admin });
    assert.ok(
      done.body.status_pushes.every((push: { sent_at: string | null }) => push.sent_at !== null),
      'every change reached the provider',
    );
  });

  it('backs off from a provider that is down, shows its last error, and never holds up the others', async () => {
    const down = await newProvider();
    const healthy = await newProvider();
    down.fail('*', 503);
    offer(healthy);
    const broken = await connect(down, { poll_seconds: 600 });
    const fine = await connect(healthy, { poll_seconds: 600 });
    const connectionOf = async (id: number) =>
      (await api.get(`/api/v1/third-party/connections/${id}`, { token: admin })).body.connection;
    const pullsOf = () => down.calls.filter((call) => call.method === 'GET').length;

    await server.app.services.thirdParty.intake.pullDue(server.db);
    const start = server.clock.now().getTime();
    let shown = await connectionOf(broken.connection.id);
    assert.equal(shown.failures, 1);
    assert.match(shown.last_error, /HTTP 503/);
    assert.equal(shown.last_error_at, new Date(start).toISOString());
    assert.equal(shown.last_success_at, null);
    assert.equal(shown.next_pull_at, new Date(start + 1200_000).toISOString(), 'twice the poll interval');
    assert.equal(
      (await providerOrders(fine.connection.id)).length,
      1,
      'the healthy provider was pulled in the same tick',
    );
    assert.ok((await connectionOf(fine.connection.id)).last_success_at, 'and shows its success');

    // Not due yet: not called again.
    const calls = pullsOf();
    server.clock.advance(600_000);
    await server.app.services.thirdParty.intake.pullDue(server.db);
    assert.equal(pullsOf(), calls, 'no pull before the backoff ends');

    server.clock.advance(600_000);
    await server.app.services.thirdParty.intake.pullDue(server.db);
    shown = await connectionOf(broken.connection.id);
    assert.equal(shown.failures, 2);
    assert.equal(
      shown.next_pull_at,
      new Date(server.clock.now().getTime() + 1800_000).toISOString(),
      'doubled again, capped at 30 minutes',
    );

    down.heal();
    server.clock.advance(1800_000);
    await server.app.services.thirdParty.intake.pullDue(server.db);
    shown = await connectionOf(broken.connection.id);
    assert.equal(shown.failures, 0);
    assert.equal(shown.last_success_at, server.clock.now().toISOString());
    assert.match(shown.last_error, /HTTP 503/, 'the last error stays shown');
  });

  it('refuses a provider URL on a metadata address, and a mapping with an unknown field', async () => {
    const metadata = await api.post(
      '/api/v1/third-party/connections',
      { name: 'x', base_url: 'http://169.254.169.254/latest', mapping: STAND_IN_MAPPING },
      { token: admin },
    );
    assert.equal(metadata.status, 422, JSON.stringify(metadata.body));
    assert.equal(metadata.body.error_code, 'THIRD_PARTY_URL_REFUSED');
    assert.equal(metadata.body.details.field, 'base_url');
    const typo = await api.post(
      '/api/v1/third-party/connections',
      {
        name: 'x',
        base_url: 'https://provider.example',
        mapping: { fields: { ...STAND_IN_MAPPING.fields, 'dropoff.street': '/x' } },
      },
      { token: admin },
    );
    assert.equal(typo.status, 422, JSON.stringify(typo.body));
    assert.match(JSON.stringify(typo.body), /mapping/);
  });

  it("keeps the demo's in-process marketplace to the seed: the API can neither choose nor see it", async () => {
    const chosen = await api.post(
      '/api/v1/third-party/connections',
      {
        name: 'x',
        adapter: 'demo_marketplace',
        base_url: 'https://provider.example',
        mapping: STAND_IN_MAPPING,
      },
      { token: admin },
    );
    assert.equal(chosen.status, 422, JSON.stringify(chosen.body));
    assert.equal(chosen.body.error_code, 'THIRD_PARTY_ADAPTER_UNKNOWN');
    assert.deepEqual(chosen.body.details.adapters, ['generic_json']);
    const [some] = (await api.get('/api/v1/third-party/connections', { token: admin })).body.connections;
    const changed = await api.call('PATCH', `/api/v1/third-party/connections/${some.id}`, {
      token: admin,
      body: { adapter: 'demo_marketplace' },
    });
    assert.equal(changed.status, 422, JSON.stringify(changed.body));
    assert.equal(changed.body.error_code, 'THIRD_PARTY_ADAPTER_UNKNOWN');
  });

  it('reads provider orders through GraphQL and the agent read tool', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{
      thirdPartyOrders: {
        total: number;
        provider_orders: Array<{ provider_order_id: string; state: string }>;
      };
      thirdPartyConnections: { connections: Array<{ id: number; failures: number }> };
    }>(gql`
      {
        thirdPartyOrders(state: accepted) {
          total
          provider_orders {
            provider_order_id
            state
            accept_by
          }
        }
        thirdPartyConnections {
          connections {
            id
            failures
          }
        }
      }
    `);
    const rest = await api.get('/api/v1/third-party/orders?state=accepted', { token: admin });
    assert.equal(answer.thirdPartyOrders.total, rest.body.total);
    assert.ok(answer.thirdPartyOrders.total > 0, 'accepted orders exist by now');
    assert.ok(
      answer.thirdPartyOrders.provider_orders.every((row) => row.state === 'accepted'),
      'filtered',
    );
    assert.ok(answer.thirdPartyConnections.connections.length >= 5, 'the connections made above');

    const token = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'ops-readonly',
    });
    const mcp = new McpClient({ name: 'third-party-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const tools = await mcp.listTools();
      const tool = tools.tools.find((one) => one.name === 'list_third_party_orders');
      assert.ok(tool, 'listed for an ops-readonly agent');
      assert.ok((tool.description ?? '').length < 400, 'a short description');
      const called = (await mcp.callTool({
        name: 'list_third_party_orders',
        arguments: { state: 'accepted' },
      })) as CallToolResult & { structuredContent: { total: number } };
      assert.notEqual(called.isError, true, JSON.stringify(called.content));
      assert.equal(called.structuredContent.total, rest.body.total);
    } finally {
      await mcp.close();
    }
  });

  it('pulls due connections in the background work the service starts', async () => {
    const provider = await newProvider();
    const order = offer(provider);
    const { connection } = await connect(provider);
    await server.app.startBackground(server.pool);
    try {
      for (let tries = 0; tries < 100; tries++) {
        if ((await providerOrders(connection.id)).length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const listed = await providerOrders(connection.id);
      assert.deepEqual(
        listed.map((row) => row.provider_order_id),
        [order.ref],
      );
    } finally {
      await server.app.stopBackground();
    }
  });
});
