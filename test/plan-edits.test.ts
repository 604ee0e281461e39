import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTenant, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DATE = '2026-11-10';
const DEPOT = { lat: 31.23, lng: 121.47 };

interface Stop {
  sequence: number;
  order_id: number;
  leg: string;
  planned_arrival: string;
  status: string;
}
interface Route {
  id: number;
  driver: { id: number };
  locked: boolean;
  distance_meters: number;
  return_time: string;
  stops: Stop[];
  vehicle: { id: number } | null;
  plan_version: number;
}

describe('plan edits through the API', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const drivers: number[] = [];
  /** Order ids by reference. */
  const orders = new Map<string, number>();
  let north: Route;
  let east: Route;

  const createOrder = async (ref: string, at: { lat: number; lng: number }, extra: object = {}) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: DATE, dropoff: { line1: ref, ...at }, ...extra },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orders.set(ref, created.body.orders[0].id);
    return created.body.orders[0].id as number;
  };
  const route = async (id: number): Promise<Route> =>
    (await api.get(`/api/v1/client/routes/${id}`, { token: admin })).body.route;
  const order = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order;
  const routesOfDay = async (): Promise<Route[]> =>
    (await api.get(`/api/v1/client/routes?date=${DATE}`, { token: admin })).body.routes;
  const ids = (r: Route) => r.stops.map((stop) => stop.order_id);

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'edits');
    admin = await login(api, tenant.emails.client_admin);
    const depot = await api.post('/api/v1/client/depots', { name: 'Main', ...DEPOT }, { token: admin });
    for (const name of ['North', 'East', 'Spare']) {
      const id = await server.app.services.accounts.createUser(server.db, {
        kind: 'driver',
        email: `${name.toLowerCase()}@edits.test`,
        name,
        password: null,
        businessId: tenant.businessId,
      });
      drivers.push(id);
    }
    /** Five parcels a van while building (one van per street), then room for the day's late orders. */
    const setCapacity = async (count: number) => {
      for (const id of drivers) {
        const profile = await api.call('PUT', `/api/v1/client/drivers/${id}/profile`, {
          token: admin,
          body: {
            depot_id: depot.body.depot.id,
            capacity: { weight_grams: 500_000, volume_cm3: 5_000_000, count },
            shift: { start: '08:00', end: '18:00' },
          },
        });
        assert.equal(profile.status, 200, JSON.stringify(profile.body));
      }
    };
    await setCapacity(5);
    // Five doors up a street north of the depot, five along one east of it.
    for (let i = 1; i <= 5; i++) await createOrder(`N${i}`, { lat: DEPOT.lat + i * 0.01, lng: DEPOT.lng });
    for (let i = 1; i <= 5; i++) await createOrder(`E${i}`, { lat: DEPOT.lat, lng: DEPOT.lng + i * 0.012 });
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DATE, driver_ids: drivers.slice(0, 2), time_limit_ms: 200 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.routes.length, 2);
    await setCapacity(20);
    const holding = (ref: string) =>
      built.body.routes.find((r: Route) => r.stops.some((stop) => stop.order_id === orders.get(ref)));
    north = await route(holding('N1').id);
    east = await route(holding('E1').id);
    assert.notEqual(north.id, east.id, 'one route per street');
  });
  after(() => server.close());

  it('adds a late order to the route passing next door, between its two nearest stops', async () => {
    const late = await createOrder('LATE', { lat: DEPOT.lat + 0.035, lng: DEPOT.lng });
    const before = await route(north.id);
    const assigned = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: late },
      { token: admin },
    );
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    const edited: Route = assigned.body.routes[0];
    const at = ids(edited).indexOf(late);
    assert.deepEqual(
      [ids(edited)[at - 1], ids(edited)[at + 1]].sort(),
      [orders.get('N3'), orders.get('N4')].sort(),
    );
    assert.equal(edited.stops.length, before.stops.length + 1);
    assert.ok(edited.return_time > before.return_time, 'the route comes back later');
    assert.deepEqual(assigned.body.violations, []);
    const { vehicle: _vehicle, ...saved } = edited;
    assert.deepEqual(await route(north.id), saved, 'as get_route_detail answers it');
    assert.equal((await routesOfDay()).length, 2, 'no new route');
    const planned = await order(late);
    assert.equal(planned.status, 'PLANNED');
    assert.equal(planned.route_id, north.id);
    assert.equal(planned.driver_id, north.driver.id);
  });

  it('adds an order at a given position', async () => {
    const late = await createOrder('FIRST', { lat: DEPOT.lat, lng: DEPOT.lng + 0.07 });
    const assigned = await api.post(
      `/api/v1/client/routes/${east.id}/stops`,
      { order_id: late, position: 1 },
      { token: admin },
    );
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.equal(assigned.body.routes[0].stops[0].order_id, late);
    const outOfRange = await api.post(
      `/api/v1/client/routes/${east.id}/stops`,
      { order_id: await createOrder('NOWHERE', DEPOT), position: 40 },
      { token: admin },
    );
    assert.equal(outOfRange.status, 422);
    assert.equal(outOfRange.body.error_code, 'SEQUENCE_INVALID');
  });

  it('refuses an edit that breaks a window until it is confirmed, and keeps the confirmation in the audit', async () => {
    const far = await createOrder(
      'FAR',
      { lat: DEPOT.lat + 0.2, lng: DEPOT.lng },
      {
        time_window: { start: '08:00', end: '08:10' },
      },
    );
    const before = await route(north.id);
    const refused = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: far },
      { token: admin },
    );
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'PLAN_VIOLATION');
    const [violation] = refused.body.details.violations;
    assert.equal(violation.kind, 'time_window');
    assert.equal(violation.order_id, far);
    assert.equal(violation.route_id, north.id);
    assert.deepEqual(violation.window, { start: '08:00', end: '08:10' });
    assert.ok(violation.late_minutes > 0);
    assert.deepEqual(await route(north.id), before, 'nothing changed');
    assert.equal((await order(far)).status, 'NEW_ORDER');

    const confirmed = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: far, confirm_violations: true },
      { token: admin },
    );
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.violations_confirmed[0].kind, 'time_window');
    assert.ok(confirmed.body.violations.some((v: { order_id?: number }) => v.order_id === far));
    const audit = await api.post('/api/v1/tracking/operationevents', { order_ids: [far] }, { token: admin });
    const edit = audit.body.events.find((event: { action: string }) => event.action === 'plan_edited');
    assert.equal(edit.changes.edit.to, 'assign_order_to_route');
    assert.equal(edit.changes.violations_confirmed.to[0].kind, 'time_window');
    const audited = await server.db
      .selectFrom('operation_audit')
      .select('operation')
      .where('operation', '=', 'assign_order_to_route')
      .execute();
    assert.ok(audited.length >= 3);
  });

  it("moves a stop to another route, where it takes that route's driver", async () => {
    const moved = orders.get('E5')!;
    const answer = await api.post(
      `/api/v1/client/routes/${east.id}/stops/${moved}/move`,
      { to_route_id: north.id, confirm_violations: true },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      answer.body.routes.map((r: Route) => r.id),
      [east.id, north.id],
    );
    assert.ok(!ids(await route(east.id)).includes(moved));
    assert.ok(ids(await route(north.id)).includes(moved));
    const after = await order(moved);
    assert.equal(after.route_id, north.id);
    assert.equal(after.driver_id, north.driver.id);
    // And back, within its new route's order of stops: to the front.
    const within = await api.post(
      `/api/v1/client/routes/${north.id}/stops/${moved}/move`,
      { position: 1, confirm_violations: true },
      { token: admin },
    );
    assert.equal(within.status, 200, JSON.stringify(within.body));
    assert.equal(within.body.routes[0].stops[0].order_id, moved);
  });

  it('refuses an edit that would run a route past midnight, even confirmed, and changes nothing', async () => {
    const before = await route(north.id);
    const answer = await api.post(
      `/api/v1/client/routes/${north.id}/sequence`,
      { optimize: true, service_minutes: 240, confirm_violations: true },
      { token: admin },
    );
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ROUTE_PAST_MIDNIGHT');
    assert.match(answer.body.details.return_time, /^\+\d\d:\d\d$/);
    assert.deepEqual(await route(north.id), before);
  });

  it('takes a stop off its route: the order is back in the pool, on no route', async () => {
    const taken = orders.get('E4')!;
    const answer = await api.call('DELETE', `/api/v1/client/routes/${east.id}/stops/${taken}`, {
      token: admin,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(!ids(answer.body.routes[0]).includes(taken));
    const back = await order(taken);
    assert.equal(back.status, 'NEW_ORDER');
    assert.equal(back.route_id, null);
    for (const r of await routesOfDay()) assert.ok(!ids(r).includes(taken));
    const again = await api.call('DELETE', `/api/v1/client/routes/${east.id}/stops/${taken}`, {
      token: admin,
    });
    assert.equal(again.status, 404);
    assert.equal(again.body.error_code, 'STOP_NOT_ON_ROUTE');
  });

  it("gives a route another driver, whose the route's orders become", async () => {
    const spare = drivers[2]!;
    const answer = await api.call('PUT', `/api/v1/client/routes/${east.id}/driver`, {
      token: admin,
      body: { driver_id: spare },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.routes[0].driver.id, spare);
    for (const id of ids(answer.body.routes[0])) assert.equal((await order(id)).driver_id, spare);
    east = answer.body.routes[0];
  });

  it('gives a route a smaller vehicle: its capacity is exceeded, refused until confirmed', async () => {
    const bike = await api.post(
      '/api/v1/client/vehicles',
      { name: 'Cargo bike', capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 2 } },
      { token: admin },
    );
    assert.equal(bike.status, 200, JSON.stringify(bike.body));
    const listed = await api.get('/api/v1/client/vehicles', { token: admin });
    assert.deepEqual(listed.body.vehicles, [bike.body.vehicle]);
    const refused = await api.call('PUT', `/api/v1/client/routes/${north.id}/vehicle`, {
      token: admin,
      body: { vehicle_id: bike.body.vehicle.id },
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'PLAN_VIOLATION');
    const capacity = refused.body.details.violations.find((v: { kind: string }) => v.kind === 'capacity');
    assert.equal(capacity.dimension, 'count');
    assert.equal(capacity.capacity, 2);
    const confirmed = await api.call('PUT', `/api/v1/client/routes/${north.id}/vehicle`, {
      token: admin,
      body: { vehicle_id: bike.body.vehicle.id, confirm_violations: true },
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.routes[0].vehicle.id, bike.body.vehicle.id);
    const own = await api.call('PUT', `/api/v1/client/routes/${north.id}/vehicle`, {
      token: admin,
      body: { vehicle_id: null },
    });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.routes[0].vehicle, null);
  });

  it('re-sequences a route as given, telling customers whose arrival moved, then optimizes it', async () => {
    const current = await route(north.id);
    const reversed = [...current.stops].reverse().map((stop) => ({ order_id: stop.order_id }));
    const given = await api.post(
      `/api/v1/client/routes/${north.id}/sequence`,
      { stops: reversed, confirm_violations: true },
      { token: admin },
    );
    assert.equal(given.status, 200, JSON.stringify(given.body));
    assert.deepEqual(
      ids(given.body.routes[0]),
      reversed.map((stop) => stop.order_id),
    );
    // The first door is now served last, after the far one: over half an hour later, its customer is told.
    const first = await order(current.stops[0]!.order_id);
    const timeline = await api.get(`/api/v1/client/trackings/${first.packages[0].tracking_number}`, {
      token: admin,
    });
    assert.ok(
      timeline.body.timeline.events.some(
        (event: { status_code: string }) => event.status_code === 'delivery_rescheduled',
      ),
    );
    const optimized = await api.post(
      `/api/v1/client/routes/${north.id}/sequence`,
      { optimize: true },
      { token: admin },
    );
    assert.equal(optimized.status, 200, JSON.stringify(optimized.body));
    assert.deepEqual(optimized.body.violations_confirmed, [], 'the best order breaks nothing more');
    // Lateness first: the far door with its early window goes first, late by less than before.
    const lateAtFar = (answer: typeof given) =>
      answer.body.violations.find((v: { order_id?: number }) => v.order_id === orders.get('FAR'))
        .late_minutes;
    assert.equal(optimized.body.routes[0].stops[0].order_id, orders.get('FAR'));
    assert.ok(lateAtFar(optimized) < lateAtFar(given));
    assert.equal(optimized.body.routes[0].stops.length, current.stops.length);
    const neither = await api.post(`/api/v1/client/routes/${north.id}/sequence`, {}, { token: admin });
    assert.equal(neither.body.error_code, 'SEQUENCE_INVALID');
  });

  it('locks and unlocks a route', async () => {
    const locked = await api.post(`/api/v1/client/routes/${east.id}/lock`, {}, { token: admin });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    assert.equal(locked.body.routes[0].locked, true);
    assert.equal((await route(east.id)).locked, true);
    const unlocked = await api.post(`/api/v1/client/routes/${east.id}/unlock`, {}, { token: admin });
    assert.equal(unlocked.body.routes[0].locked, false);
  });

  it('keeps a stop done where it is, and adds after it only', async () => {
    const current = await route(east.id);
    const done = current.stops[0]!;
    await server.db
      .updateTable('route_stops')
      .set({ status: 'done' })
      .where('route_id', '=', east.id)
      .where('sequence', '=', done.sequence)
      .execute();
    const moved = await api.post(
      `/api/v1/client/routes/${east.id}/stops/${done.order_id}/move`,
      { position: 2 },
      { token: admin },
    );
    assert.equal(moved.status, 409);
    assert.equal(moved.body.error_code, 'STOP_NOT_MOVABLE');
    const before = await api.post(
      `/api/v1/client/routes/${east.id}/stops`,
      { order_id: orders.get('E4'), position: 1 },
      { token: admin },
    );
    assert.equal(before.body.error_code, 'SEQUENCE_INVALID');
    const optimized = await api.post(
      `/api/v1/client/routes/${east.id}/sequence`,
      { optimize: true },
      { token: admin },
    );
    assert.equal(optimized.status, 200, JSON.stringify(optimized.body));
    assert.equal(optimized.body.routes[0].stops[0].order_id, done.order_id);
    assert.equal(optimized.body.routes[0].stops[0].status, 'done');
  });

  it("refuses a stop whose order needs a skill the route's driver lacks, as planning would", async () => {
    const skill = await api.call('PUT', '/api/v1/client/skills/refrigerated', {
      token: admin,
      body: { label: 'Refrigerated' },
    });
    assert.equal(skill.status, 200, JSON.stringify(skill.body));
    const chilled = await createOrder(
      'CHILLED',
      { lat: DEPOT.lat + 0.015, lng: DEPOT.lng },
      { required_skills: ['refrigerated'] },
    );
    const before = await route(north.id);
    const refused = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: chilled },
      { token: admin },
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'PLAN_VIOLATION');
    assert.deepEqual(
      refused.body.details.violations.filter((v: { kind: string }) => v.kind === 'skills'),
      [{ route_id: north.id, kind: 'skills', order_id: chilled, missing_skills: ['refrigerated'] }],
    );
    assert.deepEqual(await route(north.id), before, 'nothing changed');
    assert.equal((await order(chilled)).status, 'NEW_ORDER');
  });

  it('refuses an edit made on a stale view of a route (CONCURRENT_UPDATE), changing nothing; made on the current one', async () => {
    const stale = await createOrder('STALE', { lat: DEPOT.lat + 0.025, lng: DEPOT.lng });
    const seen = await route(north.id);
    const board = await api.get(`/api/v1/client/dispatch/board?date=${DATE}`, { token: admin });
    const onBoard = board.body.routes.find((r: { id: number }) => r.id === north.id);
    assert.equal(
      onBoard.plan_version,
      seen.plan_version,
      'the board shows the version get_route_detail does',
    );
    // Someone else locks the route: its plan version moves.
    const locked = await api.post(`/api/v1/client/routes/${north.id}/lock`, {}, { token: admin });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    const current = await route(north.id);
    assert.ok(current.plan_version > seen.plan_version, 'a lock moves the plan version');
    const expected = seen.plan_version;
    const first = seen.stops.find((stop) => stop.status === 'pending')!.order_id;
    const eastNow = await route(east.id);
    const edits: Array<[string, string, Record<string, unknown>]> = [
      [
        'POST',
        `/api/v1/client/routes/${north.id}/stops`,
        { order_id: stale, expected_plan_version: expected },
      ],
      [
        'POST',
        `/api/v1/client/routes/${north.id}/stops/${first}/move`,
        { position: 2, expected_plan_version: expected },
      ],
      [
        'POST',
        `/api/v1/client/routes/${north.id}/sequence`,
        { optimize: true, expected_plan_version: expected },
      ],
      [
        'PUT',
        `/api/v1/client/routes/${north.id}/driver`,
        { driver_id: drivers[2], expected_plan_version: expected },
      ],
      [
        'PUT',
        `/api/v1/client/routes/${north.id}/vehicle`,
        { vehicle_id: null, expected_plan_version: expected },
      ],
      ['POST', `/api/v1/client/routes/${north.id}/unlock`, { expected_plan_version: expected }],
      // A move checks both routes: the one it leaves is current here, the one it joins is not.
      [
        'POST',
        `/api/v1/client/routes/${east.id}/stops/${eastNow.stops.find((stop) => stop.status === 'pending')!.order_id}/move`,
        {
          to_route_id: north.id,
          expected_plan_version: eastNow.plan_version,
          expected_to_plan_version: expected,
          confirm_violations: true,
        },
      ],
    ];
    for (const [method, path, body] of edits) {
      const refused = await api.call(method, path, { token: admin, body });
      assert.equal(refused.status, 409, `${method} ${path}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error_code, 'CONCURRENT_UPDATE');
      assert.deepEqual(refused.body.details, {
        reason: 'plan_changed',
        route_id: north.id,
        expected_plan_version: expected,
        plan_version: current.plan_version,
      });
    }
    const removed = await api.call(
      'DELETE',
      `/api/v1/client/routes/${north.id}/stops/${first}?expected_plan_version=${expected}`,
      { token: admin },
    );
    assert.equal(removed.body.error_code, 'CONCURRENT_UPDATE', 'taking a stop off checks it too');
    assert.deepEqual(await route(north.id), current, 'nothing changed');
    assert.deepEqual(await route(east.id), eastNow, 'nor the other route of the move');
    assert.equal((await order(stale)).status, 'NEW_ORDER');
    assert.equal((await order(first)).route_id, north.id);

    // On the current view the edit is made, and moves the version again.
    const made = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: stale, expected_plan_version: current.plan_version, confirm_violations: true },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.ok(made.body.routes[0].plan_version > current.plan_version);
    assert.equal((await order(stale)).route_id, north.id);
    // An order leaving its route by another door (cancelled) moves its route's version too.
    const withStale = await route(north.id);
    const cancelled = await api.post(`/api/v1/client/orders/${stale}/cancel`, {}, { token: admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.ok((await route(north.id)).plan_version > withStale.plan_version);
    const unlocked = await api.post(
      `/api/v1/client/routes/${north.id}/unlock`,
      { expected_plan_version: (await route(north.id)).plan_version },
      { token: admin },
    );
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    assert.equal(unlocked.body.routes[0].locked, false);
  });

  it("answers 404 for another business's route", async () => {
    const other = await createTenant(server.db, server.app.services, 'other-edits');
    const stranger = await login(api, other.emails.client_admin);
    const answer = await api.post(
      `/api/v1/client/routes/${north.id}/stops`,
      { order_id: orders.get('E4') },
      { token: stranger },
    );
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    const lock = await api.post(`/api/v1/client/routes/${north.id}/lock`, {}, { token: stranger });
    assert.equal(lock.status, 404);
  });

  it('makes an agent confirm assign_order_to_route', async () => {
    const token = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'ops-write',
    });
    const mcp = new McpClient({ name: 'test-agent', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const waiting = orders.get('E4')!;
      const call = async (args: Record<string, unknown>) =>
        (await mcp.callTool({ name: 'assign_order_to_route', arguments: args })) as CallToolResult & {
          structuredContent: Record<string, unknown>;
        };
      const preview = await call({ route_id: north.id, order_id: waiting });
      assert.equal(preview.isError, true);
      assert.equal(preview.structuredContent.error_code, 'CONFIRMATION_REQUIRED');
      assert.equal((await order(waiting)).status, 'NEW_ORDER');
      const done = await call({
        route_id: north.id,
        order_id: waiting,
        confirm: true,
        confirm_violations: true,
      });
      assert.equal(done.isError, undefined, JSON.stringify(done.structuredContent));
      assert.equal((await order(waiting)).route_id, north.id);
    } finally {
      await mcp.close();
    }
  });
});
