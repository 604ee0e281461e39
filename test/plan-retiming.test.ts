import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriversAtDepot } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DATE = '2026-11-10';
const DEPOT = { lat: 31.23, lng: 121.47 };
/** A local time of DATE in the tenant's time zone (Asia/Shanghai, UTC+8) as the service's clock reads it. */
const at = (time: string) => new Date(`${DATE}T${time}:00+08:00`);

interface Stop {
  order_id: number;
  planned_arrival: string;
  status: string;
}
interface Route {
  id: number;
  status: string;
  departure: string;
  stops: Stop[];
}
interface Violation {
  route_id: number;
  kind: string;
  order_id?: number;
  window?: { start: string; end: string };
  planned_arrival?: string;
}

/**
 * A day driven by the service's clock: routes planned for the morning are edited in the
 * afternoon, and every edit times their pending stops from now, not from the morning's plan.
 */
describe('plan edits re-time the day from now', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let going: { id: number; token: string };
  let late: Route;
  let underWay: Route;
  const places = new Map<number, { lat: number; lng: number }>();
  const morning: number[] = [];
  let writes = 0;

  const createOrder = async (ref: string, place: { lat: number; lng: number }, extra: object = {}) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: DATE, dropoff: { line1: ref, ...place }, ...extra },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: number = created.body.orders[0].id;
    places.set(id, place);
    return id;
  };
  const route = async (id: number): Promise<Route> =>
    (await api.get(`/api/v1/client/routes/${id}`, { token: admin })).body.route;
  const build = async (driverId: number): Promise<Route> => {
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DATE, driver_ids: [driverId], time_limit_ms: 100 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    return route(built.body.routes[0].id);
  };
  const drive = (path: string, body: Record<string, unknown> = {}) =>
    api.post(
      `/api/v1/driver/routes/${underWay.id}/${path}`,
      { client_id: `retime-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
      { token: going.token },
    );
  const addAtEnd = (target: Route, orderId: number, extra: object = {}) =>
    api.post(
      `/api/v1/client/routes/${target.id}/stops`,
      { order_id: orderId, position: target.stops.length + 1, ...extra },
      { token: admin },
    );
  const orderIds = (violations: Violation[]) => violations.map((v) => v.order_id).sort((a, b) => a! - b!);

  before(async () => {
    server = await startTestServer();
    // Planned the evening before (the tokens signed in now last into the day).
    server.clock.set(new Date('2026-11-09T12:00:00Z'));
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'retime');
    admin = await login(api, tenant.emails.client_admin);
    const [waiting, driving] = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: DEPOT,
      names: ['waiting', 'going'],
      shift: { start: '08:00', end: '20:00' },
    });
    going = driving!;
    // Four doors up a street north, each wanting its parcel by 10:00.
    for (let i = 1; i <= 4; i++) {
      const place = { lat: DEPOT.lat + i * 0.01, lng: DEPOT.lng };
      morning.push(await createOrder(`M${i}`, place, { time_window: { start: '09:00', end: '10:00' } }));
    }
    late = await build(waiting!.id);
    // Three doors along a street east, for the driver who does set off.
    for (let i = 1; i <= 3; i++) await createOrder(`S${i}`, { lat: DEPOT.lat, lng: DEPOT.lng + i * 0.012 });
    underWay = await build(going.id);
  });
  after(() => server.close());

  it('times a morning route still at its depot at 14:50 from now, and answers its lost windows apart', async () => {
    assert.equal(late.status, 'planned');
    assert.ok(late.stops[0]!.planned_arrival < '10:00', 'planned for the morning');
    server.clock.set(at('14:50'));
    const extra = await createOrder('X1', { lat: DEPOT.lat + 0.045, lng: DEPOT.lng });
    const added = await addAtEnd(late, extra);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const edited: Route = added.body.routes[0];
    assert.equal(edited.departure, '14:50', 'it leaves now, not at its morning departure');
    for (const stop of edited.stops) assert.ok(stop.planned_arrival >= '14:50', JSON.stringify(stop));
    assert.deepEqual(added.body.violations_confirmed, [], 'the edit itself broke nothing');
    assert.deepEqual(orderIds(added.body.lost_windows), morning, 'the four morning windows are lost');
    for (const lost of added.body.lost_windows as Violation[]) {
      assert.equal(lost.kind, 'time_window');
      assert.deepEqual(lost.window, { start: '09:00', end: '10:00' });
      assert.ok(lost.planned_arrival! > '14:50');
    }
    assert.deepEqual(
      orderIds((added.body.violations as Violation[]).filter((v) => v.kind === 'time_window')),
      morning,
      'every rule broken now, the lost windows among them',
    );
    const { vehicle: _vehicle, ...saved } = edited as Route & { vehicle: unknown };
    assert.deepEqual(await route(late.id), saved, 'saved as answered');
    late = edited;
  });

  it('moves a stop on it re-timed from now, the closed windows lost wherever the stop goes', async () => {
    server.clock.set(at('15:00'));
    const last = late.stops.at(-1)!.order_id;
    const moved = await api.post(
      `/api/v1/client/routes/${late.id}/stops/${morning[3]}/move`,
      { position: 1 },
      { token: admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const edited: Route = moved.body.routes[0];
    assert.equal(edited.stops[0]!.order_id, morning[3]);
    assert.equal(edited.stops.at(-1)!.order_id, last);
    assert.equal(edited.departure, '15:00');
    assert.ok(edited.stops[0]!.planned_arrival > '15:00');
    assert.deepEqual(moved.body.violations_confirmed, []);
    assert.deepEqual(orderIds(moved.body.lost_windows), morning);
    late = edited;
  });

  it('refuses what the edit itself would break, listing the windows already lost apart', async () => {
    const tight = await createOrder(
      'Y1',
      { lat: DEPOT.lat + 0.05, lng: DEPOT.lng },
      {
        time_window: { start: '15:00', end: '15:10' },
      },
    );
    const refused = await addAtEnd(late, tight);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'PLAN_VIOLATION');
    assert.deepEqual(
      (refused.body.details.violations as Violation[]).map((v) => [v.kind, v.order_id]),
      [['time_window', tight]],
      'only the window this edit misses',
    );
    assert.deepEqual(orderIds(refused.body.details.lost_windows), morning);
    assert.deepEqual((await route(late.id)).stops, late.stops, 'nothing changed');

    const confirmed = await addAtEnd(late, tight, { confirm_violations: true });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.deepEqual(
      (confirmed.body.violations_confirmed as Violation[]).map((v) => v.order_id),
      [tight],
    );
    assert.deepEqual(orderIds(confirmed.body.lost_windows), morning);
  });

  it('times a route under way from its last stop done, at now', async () => {
    server.clock.set(at('13:00'));
    assert.equal((await drive('start')).status, 200);
    server.clock.set(at('13:20'));
    const first = underWay.stops[0]!;
    const done = await drive(`stops/${first.order_id}/complete`, {
      outcome: 'delivered',
      recipient: 'Front desk',
      position: places.get(first.order_id),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    server.clock.set(at('14:30'));
    const added = await addAtEnd(
      underWay,
      await createOrder('X2', { lat: DEPOT.lat, lng: DEPOT.lng + 0.05 }),
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const edited: Route = added.body.routes[0];
    assert.equal(edited.stops[0]!.planned_arrival, first.planned_arrival, 'a stop done keeps its time');
    const next = edited.stops[1]!.planned_arrival;
    assert.ok(next > '14:30' && next < '14:35', `driven from the stop done, at now: ${next}`);
    assert.deepEqual(added.body.lost_windows, []);
    underWay = edited;
  });

  it('times it from where its driver last reported being, when that is newer than its last stop', async () => {
    const second = underWay.stops[1]!;
    server.clock.set(at('14:40'));
    const reported = await drive('positions', {
      device_time: undefined,
      positions: [{ ...places.get(second.order_id)!, device_time: server.clock.now().toISOString() }],
    });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    server.clock.set(at('14:50'));
    const added = await addAtEnd(
      underWay,
      await createOrder('X3', { lat: DEPOT.lat, lng: DEPOT.lng + 0.06 }),
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const edited: Route = added.body.routes[0];
    assert.equal(edited.stops[1]!.order_id, second.order_id);
    assert.equal(edited.stops[1]!.planned_arrival, '14:50', 'the driver is at its door now');
  });
});
