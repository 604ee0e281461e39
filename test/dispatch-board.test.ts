import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'kysely';
import { MAX_STREAMS_PER_BUSINESS } from '../src/modules/dispatch/board-feed.ts';
import { signalBoard } from '../src/modules/dispatch/board-repository.ts';
import {
  createTenant,
  DROPOFF,
  issuedToken,
  login,
  signedInDriversAtDepot,
  type Tenant,
} from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

const DATE = '2026-11-02';
/** 08:00 in Shanghai, the tenant's time zone: before any route leaves. */
const MORNING = new Date('2026-11-02T00:00:00Z');
const BOARD = '/api/v1/client/dispatch/board';

// biome-ignore lint/suspicious/noExplicitAny: board answers are read field by field
type Json = Record<string, any>;

interface StreamMessage {
  event: string;
  id: string | undefined;
  data: Json;
}

/** A live board read with a real HTTP client, message by message, as server-sent events frame them. */
async function openBoard(baseUrl: string, token: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(baseUrl + BOARD, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, ...headers },
    signal: abort.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<StreamMessage> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map<string, string>();
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(': ');
          fields.set(line.slice(0, colon), line.slice(colon + 2));
        }
        if (!fields.has('event')) continue;
        return { event: fields.get('event')!, id: fields.get('id'), data: JSON.parse(fields.get('data')!) };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
  const until = async (wanted: (message: StreamMessage) => boolean) => {
    for (;;) {
      const message = await next();
      if (wanted(message)) return message;
    }
  };
  return { response, next, until, close: () => abort.abort() };
}

describe('the dispatch board', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let first: { id: number; token: string };
  let second: { id: number; token: string };
  const orders: Record<string, number> = {};
  const routes: Record<'first' | 'second', number> = { first: 0, second: 0 };
  let writes = 0;

  const board = async (query = '', token = admin) => {
    const answer = await api.get(`${BOARD}${query}`, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as Json;
  };
  /** A driver write, with the clock's time as its device time unless it sends positions (each has its own). */
  const drive = async (base: string, token: string, path: string, body: Json = {}) => {
    const time = 'positions' in body ? {} : { device_time: server.clock.now().toISOString() };
    const answer = await client(base).post(
      `/api/v1/driver/routes/${path}`,
      { client_id: `b-${++writes}`, ...time, ...body },
      { token },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const kinds = (answer: Json) => answer.exceptions.map((e: Json) => e.kind).sort();

  before(async () => {
    server = await startTestServer();
    server.clock.set(MORNING);
    await server.app.startBackground(server.pool);
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'board');
    admin = await login(api, tenant.emails.client_admin);
    [first, second] = (await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: { lat: 48.85, lng: 2.35 },
      names: ['first', 'second'],
      shift: { start: '08:00', end: '22:00' },
    })) as [typeof first, typeof first];
    const create = async (ref: string, dlat: number, window = { start: '08:00', end: '20:00' }) => {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        {
          order_ref: ref,
          scheduled_date: DATE,
          dropoff: { ...DROPOFF, lat: DROPOFF.lat + dlat },
          time_window: window,
          packages: [{ weight_grams: 1000 }],
        },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      orders[ref] = created.body.order_id;
    };
    const build = async (driverId: number) => {
      const built = await api.post(
        '/api/v3/client/build-route',
        { date: DATE, driver_ids: [driverId], time_limit_ms: 50 },
        { token: admin },
      );
      assert.equal(built.status, 200, JSON.stringify(built.body));
      assert.equal(built.body.unassigned.length, 0, JSON.stringify(built.body.unassigned));
      return built.body.routes[0].id as number;
    };
    await create('F1', 0, { start: '08:00', end: '09:00' });
    await create('F2', 0.01);
    await create('F3', 0.02);
    routes.first = await build(first.id);
    await create('S1', -0.01);
    await create('S2', -0.02);
    routes.second = await build(second.id);
    await create('H1', 0.03);
    const held = await api.post(`/api/v1/client/orders/${orders.H1}/hold`, {}, { token: admin });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    await create('U1', 0.04);
  });
  after(() => server.close());

  it("shows the day's routes with their drivers, stops and counts, and the orders waiting", async () => {
    const answer = await board();
    assert.equal(answer.date, DATE, "today in the business's time zone");
    assert.equal(typeof answer.version, 'number');
    assert.deepEqual(
      answer.routes.map((route: Json) => route.id),
      [routes.first, routes.second],
    );
    const mine = answer.routes[0];
    assert.deepEqual(mine.driver, { id: first.id, name: 'Driver first' });
    assert.equal(mine.status, 'planned');
    assert.equal(mine.vehicle_type, 'van');
    assert.deepEqual([mine.stops_done, mine.stops_failed, mine.stops_remaining], [0, 0, 3]);
    assert.equal(mine.position, null);
    const f1 = mine.stops.find((stop: Json) => stop.order_id === orders.F1);
    assert.deepEqual(
      { ref: f1.order_ref, leg: f1.leg, state: f1.state, window: f1.window, lat: f1.lat, lng: f1.lng },
      {
        ref: 'F1',
        leg: 'delivery',
        state: 'pending',
        window: { start: '08:00', end: '09:00' },
        lat: DROPOFF.lat,
        lng: DROPOFF.lng,
      },
    );
    assert.deepEqual(
      answer.routes[1].stops.map((stop: Json) => stop.order_id).sort(),
      [orders.S1, orders.S2].sort(),
    );
    assert.deepEqual(kinds(answer), ['order_held', 'order_unplanned']);
    const held = answer.exceptions.find((e: Json) => e.kind === 'order_held');
    assert.equal(held.order_id, orders.H1);
    assert.equal(held.order.lat, DROPOFF.lat + 0.03);
    assert.equal(answer.exceptions.find((e: Json) => e.kind === 'order_unplanned').order_id, orders.U1);
    assert.deepEqual(answer.totals, {
      routes: 2,
      stops_done: 0,
      stops_failed: 0,
      stops_remaining: 5,
      unplanned: 1,
      held: 1,
      exceptions: 2,
    });
    assert.ok(!JSON.stringify(answer).includes(DROPOFF.phone), 'no phone on the board');
  });

  it('observes each exception kind as the day goes, and nothing forecast', async () => {
    const morning = await board();
    await drive(server.baseUrl, first.token, `${routes.first}/start`);
    await drive(server.baseUrl, first.token, `${routes.first}/positions`, {
      positions: [
        { lat: 48.86, lng: 2.34, accuracy_meters: 5, device_time: server.clock.now().toISOString() },
      ],
    });
    await drive(server.baseUrl, first.token, `${routes.first}/stops/${orders.F2}/complete`, {
      outcome: 'delivered',
      recipient: 'Léa Martin',
    });
    await drive(server.baseUrl, first.token, `${routes.first}/stops/${orders.F3}/complete`, {
      outcome: 'failed',
      reason: { code: 'recipient_absent' },
    });
    const working = await board();
    assert.ok(working.version > morning.version, 'a later read has a greater version');
    const mine = working.routes[0];
    assert.equal(mine.status, 'started');
    assert.deepEqual([mine.stops_done, mine.stops_failed, mine.stops_remaining], [1, 1, 1]);
    const f2 = mine.stops.find((stop: Json) => stop.order_id === orders.F2);
    assert.deepEqual(
      [f2.state, f2.order_status, f2.completed_at],
      ['done', 'DELIVERED', MORNING.toISOString()],
    );
    assert.deepEqual(
      { lat: mine.position.lat, lng: mine.position.lng, age: mine.position.age_seconds },
      { lat: 48.86, lng: 2.34, age: 0 },
    );
    assert.deepEqual(kinds(working), ['failed_attempt', 'order_held', 'order_unplanned']);
    assert.equal(working.exceptions.find((e: Json) => e.kind === 'failed_attempt').order_id, orders.F3);

    // 09:20 in Shanghai: F1's window ended at 09:00, the second route should have left, and the
    // first driver has said nothing for 80 minutes.
    server.clock.set(new Date('2026-11-02T01:20:00Z'));
    const late = await board();
    assert.deepEqual(kinds(late), [
      'driver_silent',
      'failed_attempt',
      'order_held',
      'order_unplanned',
      'route_not_started',
      'stop_late',
    ]);
    const byKind = (kind: string) => late.exceptions.find((e: Json) => e.kind === kind);
    assert.deepEqual(
      { order: byKind('stop_late').order_id, since: byKind('stop_late').since },
      { order: orders.F1, since: '2026-11-02T01:00:00.000Z' },
    );
    assert.equal(byKind('route_not_started').route_id, routes.second);
    assert.equal(byKind('driver_silent').driver_id, first.id);
    assert.equal(late.routes[0].position.age_seconds, 80 * 60);
    // A longer silence allowed: the driver is not silent yet.
    const patient = await board('?silent_minutes=120');
    assert.ok(!kinds(patient).includes('driver_silent'));
    assert.equal(patient.silent_after_minutes, 120);
    assert.equal(
      (await api.get(`${BOARD}?silent_minutes=0`, { token: admin })).body.error_code,
      'VALIDATION_FAILED',
    );
    assert.ok(!/eta|estimated|forecast/i.test(JSON.stringify(Object.keys(late.routes[0]))));
  });

  it("is the caller's business only, for its staff only", async () => {
    const other = await createTenant(server.db, server.app.services, 'elsewhere');
    const outsider = await login(api, other.emails.client_admin);
    const theirs = await board('', outsider);
    assert.deepEqual(theirs.routes, []);
    assert.deepEqual(theirs.exceptions, []);
    const depots = await api.get('/api/v3/client/build-route/options?date=2026-11-02', { token: admin });
    const depotId = depots.body.depots[0].id;
    const foreign = await api.get(`${BOARD}?depot_id=${depotId}`, { token: outsider });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error_code, 'DEPOT_NOT_FOUND');
    assert.equal((await board(`?depot_id=${depotId}`)).routes.length, 2);
    const employee = await board('', await login(api, tenant.emails.employee));
    assert.equal(employee.routes.length, 2);
    const graphql = await api.post(
      '/api/graphql',
      {
        query:
          '{ dispatchBoard(silent_minutes: 30) { version routes { id stops_done } exceptions { kind key } } }',
      },
      { token: admin },
    );
    assert.equal(graphql.status, 200, JSON.stringify(graphql.body));
    const rest = await board('?silent_minutes=30');
    assert.deepEqual(
      graphql.body.data.dispatchBoard.routes,
      rest.routes.map((route: Json) => ({ id: route.id, stops_done: route.stops_done })),
    );
    assert.deepEqual(
      graphql.body.data.dispatchBoard.exceptions.map((e: Json) => e.key),
      rest.exceptions.map((e: Json) => e.key),
    );
    for (const token of [first.token, await login(api, tenant.emails.customer)]) {
      const refused = await api.get(BOARD, { token });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.result, false);
    }
    const stream = await fetch(server.baseUrl + BOARD, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${first.token}` },
    });
    assert.equal(stream.status, 403, 'the live board is refused alike');
    assert.equal(((await stream.json()) as Json).result, false);
  });

  it("counts its version per business: another business's writes leave it as it was", async () => {
    const neighbour = await createTenant(server.db, server.app.services, 'neighbour');
    const theirAdmin = await login(api, neighbour.emails.client_admin);
    const create = async (ref: string, token: string) => {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: ref, scheduled_date: DATE, dropoff: DROPOFF },
        { token },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
    };
    const ours = (await board()).version;
    const theirs = (await board('', theirAdmin)).version;
    await create('N1', theirAdmin);
    assert.ok((await board('', theirAdmin)).version > theirs, "the neighbour's own board moved");
    assert.equal((await board()).version, ours, "the neighbour's write is not seen in ours");
    await create('V1', admin);
    assert.ok((await board()).version > ours, 'a write of our own moves ours');
  });

  it('counts every change of writers committing at once, none lost, none twice', async () => {
    // Fewer than the pool's connections: each writer holds one until all have signalled.
    const writers = 6;
    const before = (await board()).version;
    let started = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    // Every writer signals, then waits until all have: their changes are in flight together, so
    // one of them folds while the others only note theirs.
    await Promise.all(
      Array.from({ length: writers }, () =>
        server.db.transaction().execute(async (trx) => {
          await signalBoard(trx, tenant.businessId, { orderIds: [] });
          if (++started === writers) release();
          await together;
        }),
      ),
    );
    assert.equal((await board()).version, before + writers);
    // A writer alone folds every committed change into the counter: only its own row is left.
    await server.db.transaction().execute((trx) => signalBoard(trx, tenant.businessId, { orderIds: [] }));
    assert.equal((await board()).version, before + writers + 1);
    const unfolded = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dispatch_board_changes
      WHERE business_id = ${tenant.businessId}`.execute(server.db);
    assert.equal(unfolded.rows[0]!.n, 1);
  });

  it('answers the same board to an agent through the MCP SDK client', async () => {
    const token = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'ops-readonly',
    });
    const mcp = new McpClient({ name: 'board-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const tools = await mcp.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === 'get_dispatch_board'));
      const answer = (await mcp.callTool({
        name: 'get_dispatch_board',
        arguments: { silent_minutes: 30 },
      })) as CallToolResult & { structuredContent: Json };
      assert.notEqual(answer.isError, true, JSON.stringify(answer.content));
      const rest = await board('?silent_minutes=30');
      assert.deepEqual(
        answer.structuredContent.routes.map((route: Json) => [
          route.id,
          route.stops_done,
          route.stops_failed,
        ]),
        rest.routes.map((route: Json) => [route.id, route.stops_done, route.stops_failed]),
      );
      assert.deepEqual(kinds(answer.structuredContent), kinds(rest));
    } finally {
      await mcp.close();
    }
  });

  it('streams a fresh snapshot, then the change another instance commits', { timeout: 60_000 }, async () => {
    let other: TestInstance | undefined;
    const live = await openBoard(server.baseUrl, admin);
    try {
      assert.equal(live.response.status, 200);
      assert.match(live.response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const snapshot = await live.next();
      assert.equal(snapshot.event, 'snapshot');
      assert.equal(snapshot.id, String(snapshot.data.version));
      assert.equal(snapshot.data.routes.length, 2);
      const late = snapshot.data.exceptions.find((e: Json) => e.kind === 'stop_late');
      assert.equal(late.order_id, orders.F1);

      // The driver's phone reaches another instance behind the load balancer.
      other = await startInstance(server);
      await drive(other.baseUrl, first.token, `${routes.first}/stops/${orders.F1}/complete`, {
        outcome: 'delivered',
        recipient: 'Léa Martin',
      });
      const stop = await live.until((m) => m.event === 'stop' && m.data.stop.order_id === orders.F1);
      assert.equal(stop.data.route_id, routes.first);
      assert.equal(stop.data.stop.state, 'done');
      assert.equal(stop.data.stop.order_status, 'DELIVERED');
      assert.ok(stop.data.version >= snapshot.data.version);
      const cleared = await live.until((m) => m.event === 'exception_cleared' && m.data.key === late.key);
      assert.equal(cleared.data.kind, 'stop_late');
    } finally {
      live.close();
      await other?.close();
    }

    // A client that comes back gets a whole board again, whatever it last saw.
    const again = await openBoard(server.baseUrl, admin, { 'last-event-id': '1' });
    try {
      const snapshot = await again.next();
      assert.equal(snapshot.event, 'snapshot');
      assert.equal(snapshot.data.routes[0].stops_done, 2);
    } finally {
      again.close();
    }
  });

  it('keeps a business to its share of live boards', { timeout: 60_000 }, async () => {
    const open = [];
    try {
      for (let n = 0; n < MAX_STREAMS_PER_BUSINESS; n++) {
        const live = await openBoard(server.baseUrl, admin);
        open.push(live);
        assert.equal((await live.next()).event, 'snapshot');
      }
      const refused = await api.get(BOARD, { token: admin, headers: { accept: 'text/event-stream' } });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error_code, 'TOO_MANY_STREAMS');
      assert.equal((await board()).result, true, 'the plain read is not counted');
    } finally {
      for (const live of open) live.close();
    }
  });

  it('ends its live boards when the instance shuts down', { timeout: 60_000 }, async () => {
    const instance = await startInstance(server);
    const live = await openBoard(instance.baseUrl, admin);
    assert.equal((await live.next()).event, 'snapshot');
    await instance.close();
    await assert.rejects(
      live.until(() => false),
      /the stream ended/,
    );
  });
});
