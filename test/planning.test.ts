import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { haversineMeters } from '../src/modules/dispatch/solver/distance.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Tenants live in Asia/Shanghai (UTC+8): 12:20Z is 20:20 there.
const TODAY = '2026-11-02';
const AT_20_20 = new Date('2026-11-02T12:20:00Z');
const DEPOT = { lat: 31.23, lng: 121.47 };

/** A point `eastKm` east and `northKm` north of the depot. */
const near = (eastKm: number, northKm: number) => ({
  lat: DEPOT.lat + northKm / 111.32,
  lng: DEPOT.lng + eastKm / (111.32 * Math.cos((DEPOT.lat * Math.PI) / 180)),
});

interface Business {
  token: string;
  drivers: number[];
  order(ref: string, date: string, at: { lat: number; lng: number }): Promise<number>;
  build(body: Record<string, unknown>): Promise<Answer>;
}

/** A business with a depot and `drivers` vans working 08:00-23:00. */
async function business(server: TestServer, api: Client, code: string, drivers: number): Promise<Business> {
  const tenant = await createTenant(server.db, server.app.services, code);
  const token = await login(api, tenant.emails.client_admin);
  const depot = await api.post('/api/v1/client/depots', { name: 'Hub', ...DEPOT }, { token });
  const ids: number[] = [];
  for (let n = 0; n < drivers; n++) {
    const driverId = await server.app.services.accounts.createUser(server.db, {
      kind: 'driver',
      email: `van-${n}@${code}.test`,
      name: `Van ${n}`,
      password: null,
      businessId: tenant.businessId,
    });
    const profile = await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
      token,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 1_000_000, volume_cm3: 100_000_000, count: 100 },
        shift: { start: '08:00', end: '23:00' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    ids.push(driverId);
  }
  return {
    token,
    drivers: ids,
    async order(ref, date, at) {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: ref, scheduled_date: date, dropoff: { line1: ref, ...at } },
        { token },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body.order_id;
    },
    build: (body) => api.post('/api/v3/client/build-route', { time_limit_ms: 300, ...body }, { token }),
  };
}

const spread = (built: { routes: Array<{ duration_minutes: number }> }, drivers: number) => {
  const durations = built.routes.map((route) => route.duration_minutes);
  while (durations.length < drivers) durations.push(0);
  return Math.max(...durations) - Math.min(...durations);
};

describe('planning respects the clock, keeps what has begun, and follows its objective', () => {
  let server: TestServer;
  let api: Client;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
  });
  after(() => server.close());

  it('plans today from now plus the preparation time, and refuses a past date', async () => {
    server.clock.set(AT_20_20);
    const shop = await business(server, api, 'clock', 2);
    for (let n = 0; n < 4; n++) await shop.order(`TODAY-${n}`, TODAY, near(n, 1));
    await shop.order('YESTERDAY', '2026-11-01', near(1, 1));

    const settings = await api.get('/api/v1/client/dispatch-settings', { token: shop.token });
    assert.deepEqual(settings.body.settings, {
      preparation_minutes: 30,
      circuity_factor: 1.3,
      average_speed_kmh: 30,
      locker_reservation: 'drop_at_locker',
    });
    const options = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: shop.token });
    assert.equal(options.body.constraints.distance, 'straight_line');
    assert.equal(options.body.constraints.earliest_departure, '20:50');
    assert.equal(options.body.constraints.preparation_minutes, 30);

    const built = await shop.build({ date: TODAY });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.assigned, 4);
    assert.equal(built.body.earliest_departure, '20:50');
    for (const route of built.body.routes) {
      assert.ok(route.departure >= '20:50', `route leaves at ${route.departure}`);
      assert.ok(route.stops.every((stop: { planned_arrival: string }) => stop.planned_arrival > '20:50'));
      assert.equal(route.distance_source, 'straight_line');
      assert.equal(route.load.count, route.stops.length);
    }
    assert.equal(built.body.distance_source, 'straight_line');

    const past = await shop.build({ date: '2026-11-01' });
    assert.equal(past.status, 422);
    assert.equal(past.body.error_code, 'DATE_IN_PAST');
    assert.equal(past.body.result, false);
    const routes = await api.get('/api/v1/client/routes?date=2026-11-01', { token: shop.token });
    assert.deepEqual(routes.body.routes, [], 'nothing planned for the past date');
    const waiting = await api.get('/api/v1/client/orders?status=NEW_ORDER', { token: shop.token });
    assert.ok(waiting.body.orders.some((order: { order_ref: string }) => order.order_ref === 'YESTERDAY'));

    // A longer preparation pushes the earliest departure.
    const changed = await api.call('PUT', '/api/v1/client/dispatch-settings', {
      token: shop.token,
      body: { preparation_minutes: 45 },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.settings.preparation_minutes, 45);
    assert.equal(changed.body.settings.circuity_factor, 1.3);
    const later = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: shop.token });
    assert.equal(later.body.constraints.earliest_departure, '21:05');
    const tomorrow = await api.get('/api/v3/client/build-route/options?date=2026-11-03', {
      token: shop.token,
    });
    assert.equal(tomorrow.body.constraints.earliest_departure, null);
  });

  it('rebuilds only untouched routes: a locked and a started route stay, their drivers get no second one', async () => {
    server.clock.set(AT_20_20);
    const date = '2026-11-03';
    const shop = await business(server, api, 'rebuild', 3);
    for (let n = 0; n < 9; n++) await shop.order(`R-${n}`, date, near((n % 3) * 0.4, 1 + n * 0.2));
    const first = await shop.build({ date, objective: 'balanced' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.routes.length, 3, JSON.stringify(first.body.totals));
    const [locked, started, open] = first.body.routes;
    await server.db.updateTable('routes').set({ locked: true }).where('id', '=', locked.id).execute();
    await server.db.updateTable('routes').set({ status: 'started' }).where('id', '=', started.id).execute();
    // Every stop still pending: the route stays because it is started, not because of a stop.
    await shop.order('R-new', date, near(0.2, 2));

    const again = await shop.build({ date });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body.rebuild, {
      replanned_routes: 1,
      kept_route_ids: [locked.id, started.id].sort((a, b) => a - b),
    });
    assert.equal(again.body.totals.orders, open.stops.length + 1, 'the open route went back to the pool');
    assert.equal(again.body.totals.assigned, open.stops.length + 1);
    assert.deepEqual(
      again.body.routes.map((route: { driver: { id: number } }) => route.driver.id),
      [open.driver.id],
      'only the open route’s driver is planned again',
    );

    const day = (await api.get(`/api/v1/client/routes?date=${date}`, { token: shop.token })).body.routes;
    const byId = new Map(day.map((route: { id: number }) => [route.id, route]));
    assert.ok(!byId.has(open.id), 'the open route was dissolved');
    const stopsOf = (route: { stops: Array<{ order_id: number; status: string }> }) =>
      route.stops.map((stop) => [stop.order_id, stop.status]);
    assert.deepEqual(stopsOf(byId.get(locked.id) as never), stopsOf(locked));
    assert.deepEqual(stopsOf(byId.get(started.id) as never), stopsOf(started));
    assert.equal(day.length, 3);
    const perDriver = new Set(day.map((route: { driver: { id: number } }) => route.driver.id));
    assert.equal(perDriver.size, 3, 'one route per driver');
    // Every order of the date is on exactly one route, and PLANNED on it.
    const planned = await api.get(`/api/v1/client/orders?date=${date}&per_page=50`, { token: shop.token });
    for (const order of planned.body.orders) {
      assert.equal(order.status, 'PLANNED', order.order_ref);
      const holding = day.filter((route: { stops: Array<{ order_id: number }> }) =>
        route.stops.some((stop) => stop.order_id === order.id),
      );
      assert.equal(holding.length, 1, order.order_ref);
      assert.equal(holding[0].id, order.route_id);
    }
    // The open route's orders were planned again where they stood: a new route in their audit
    // trail, nothing in their customers' tracking (no "removed from route", no second planning).
    const replanned = open.stops[0].order_id;
    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [replanned] },
      { token: shop.token },
    );
    const actions = trail.body.events.map((event: { action: string }) => event.action);
    assert.ok(actions.includes('route_changed'), JSON.stringify(actions));
    assert.equal(actions.filter((action: string) => action === 'status_changed').length, 1, 'planned once');
    const number = planned.body.orders.find((order: { id: number }) => order.id === replanned).packages[0]
      .tracking_number;
    const codes = (
      await api.get(`/api/v1/otep/trackings/${number}`, { token: shop.token })
    ).body.data.events.map((event: { status_code: string }) => event.status_code);
    assert.ok(!codes.includes('removed_from_route'), JSON.stringify(codes));
    assert.equal(codes.filter((code: string) => code === 'awaiting_pickup').length, 1, JSON.stringify(codes));
  });

  it('balances durations or saves vehicles as asked, replanning the same day', async () => {
    server.clock.set(AT_20_20);
    const date = '2026-11-04';
    const shop = await business(server, api, 'objectives', 3);
    for (let n = 0; n < 13; n++) await shop.order(`O-${n}`, date, near(1 + (n % 4) * 0.3, 1 + n * 0.1));

    const shortest = await shop.build({ date });
    assert.equal(shortest.status, 200, JSON.stringify(shortest.body));
    assert.equal(shortest.body.objective, 'least_distance');
    assert.equal(shortest.body.routes.length, 1, 'the shortest plan loads one van');

    const balanced = await shop.build({ date, objective: 'balanced' });
    assert.equal(balanced.body.totals.assigned, 13);
    assert.equal(balanced.body.routes.length, 3);
    assert.equal(balanced.body.rebuild.replanned_routes, 1);
    assert.ok(
      spread(balanced.body, 3) < spread(shortest.body, 3),
      `${spread(balanced.body, 3)} min against ${spread(shortest.body, 3)} min`,
    );
    const { totals } = balanced.body;
    assert.equal(
      totals.duration_minutes,
      balanced.body.routes.reduce(
        (sum: number, route: { duration_minutes: number }) => sum + route.duration_minutes,
        0,
      ),
    );
    assert.equal(totals.load.count, 13);
    assert.equal(totals.longest_route_minutes - totals.shortest_route_minutes, spread(balanced.body, 3));

    const fewest = await shop.build({ date, objective: 'fewest_vehicles' });
    assert.equal(fewest.body.totals.assigned, 13);
    assert.equal(fewest.body.routes.length, 1);
    assert.equal(fewest.body.rebuild.replanned_routes, 3);
  });
});

describe('planning on a routing engine (an OSRM stand-in)', () => {
  let server: TestServer;
  let api: Client;
  let engine: http.Server;
  let calls: string[] = [];
  let failing = false;
  // Two doors side by side that no road joins directly: 50 km between them.
  const A = near(1, 1);
  const B = near(1.2, 1);
  const C = near(0, 2);
  const FAR = 50_000;
  const isAB = (p: number[], q: number[]) =>
    [A, B].some((x) => Math.abs(p[1]! - x.lat) < 1e-9 && Math.abs(p[0]! - x.lng) < 1e-9) &&
    [A, B].some((x) => Math.abs(q[1]! - x.lat) < 1e-9 && Math.abs(q[0]! - x.lng) < 1e-9) &&
    (p[0] !== q[0] || p[1] !== q[1]);
  const road = (p: number[], q: number[]) =>
    isAB(p, q)
      ? FAR
      : Math.round(haversineMeters({ lat: p[1]!, lng: p[0]! }, { lat: q[1]!, lng: q[0]! }) * 1.1);

  before(async () => {
    engine = http.createServer((request, response) => {
      calls.push(request.url ?? '');
      const match = /^\/table\/v1\/driving\/([^?]+)/.exec(request.url ?? '');
      if (failing || !match) {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"Error"}');
        return;
      }
      const coordinates = match[1]!.split(';').map((pair) => pair.split(',').map(Number));
      const query = new URL(request.url!, 'http://x').searchParams;
      const all = coordinates.map((_, index) => index);
      const indices = (name: string) => query.get(name)?.split(';').map(Number) ?? all;
      const sources = indices('sources');
      const destinations = indices('destinations');
      const distances = sources.map((s) => destinations.map((d) => road(coordinates[s]!, coordinates[d]!)));
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          code: 'Ok',
          distances,
          durations: distances.map((row) => row.map((meters) => meters / 10)),
        }),
      );
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    const { port } = engine.address() as AddressInfo;
    server = await startTestServer({
      osrm: {
        url: `http://127.0.0.1:${port}`,
        allow: { loopback: true, privateNetworks: false },
        timeoutMs: 10_000,
      },
    });
    api = client(server.baseUrl);
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => engine.close(resolve));
  });

  it('plans on the road matrix, keeps it for the day, and falls back to straight lines when the engine fails', async () => {
    server.clock.set(AT_20_20);
    const shop = await business(server, api, 'roads', 1);
    const date = '2026-11-05';
    const ids = [
      await shop.order('A', date, A),
      await shop.order('B', date, B),
      await shop.order('C', date, C),
    ];
    const options = await api.get(`/api/v3/client/build-route/options?date=${date}`, { token: shop.token });
    assert.equal(options.body.constraints.distance, 'osrm');

    const built = await shop.build({ date });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(calls.length, 1, 'one table request for four points');
    assert.match(calls[0]!, /annotations=duration,distance/);
    const [route] = built.body.routes;
    assert.equal(route.distance_source, 'osrm');
    assert.equal(built.body.distance_source, 'osrm');
    const order = route.stops.map((stop: { order_id: number }) => ids.indexOf(stop.order_id));
    assert.equal(order.length, 3);
    assert.notEqual(Math.abs(order.indexOf(0) - order.indexOf(1)), 1, `A and B apart: ${order}`);
    const at = [A, B, C];
    const path = [DEPOT, ...order.map((index: number) => at[index]!), DEPOT].map((p) => [p.lng, p.lat]);
    const expected = path.slice(1).reduce((sum, point, index) => sum + road(path[index]!, point), 0);
    assert.equal(route.distance_meters, expected, 'the distance is the road matrix’s');

    // The same day again: the rebuild replans the same places from the cache, without a call.
    const again = await shop.build({ date });
    assert.equal(again.body.routes[0].distance_source, 'osrm');
    assert.equal(calls.length, 1, 'the day’s matrix came from the cache');

    // Another day while the engine fails: straight lines, and the answer says so.
    failing = true;
    const other = '2026-11-06';
    await shop.order('D', other, A);
    await shop.order('E', other, B);
    const fallback = await shop.build({ date: other });
    assert.equal(fallback.status, 200, JSON.stringify(fallback.body));
    assert.equal(calls.length, 2);
    assert.equal(fallback.body.distance_source, 'straight_line');
    assert.equal(fallback.body.routes[0].distance_source, 'straight_line');
    assert.ok(fallback.body.routes[0].distance_meters < FAR, 'planned on straight lines');
    failing = false;
    calls = [];
  });
});
