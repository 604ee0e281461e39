import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { createTenant, login, signedInDriversAtDepot } from './support/fixtures.ts';
import { fleetOf } from './support/fleets.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The test clock reads Monday 2 November 2026, 17:30 in the business's time zone (Asia/Shanghai).
const TOMORROW = '2026-11-03';
const DEPOT = { lat: 31.23, lng: 121.47 };
const near = (eastKm: number) => ({ lat: DEPOT.lat + 0.01, lng: DEPOT.lng + eastKm / 95 });

interface PlannedRoute {
  id: number;
  driver: { id: number };
  departure: string;
  return_time: string;
  stops: Array<{ order_id: number }>;
}

describe('shifts are the working windows of route building', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let shifted: { id: number; token: string };
  let unshifted: { id: number; token: string };
  let eastDepot: number;
  let fleet: number;
  let shiftId: number;
  let tenantId: number;
  const orders: Record<string, number> = {};

  const order = async (
    ref: string,
    at: { lat: number; lng: number },
    window?: { start: string; end: string },
  ) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: TOMORROW, dropoff: { line1: ref, ...at }, time_window: window },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orders[ref] = created.body.order_id;
  };
  /** How get_build_route_options sees each driver's working window on the date. */
  const options = async () => {
    const answer = await api.get(`/api/v3/client/build-route/options?date=${TOMORROW}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const seen = (
      driverId: number,
    ): { from: string; shift: { start: string; end: string }; depot: number } => {
      const driver = answer.body.drivers.find((one: { id: number }) => one.id === driverId);
      return { from: driver.shift_from, shift: driver.profile.shift, depot: driver.profile.depot_id };
    };
    return { shifted: seen(shifted.id), unshifted: seen(unshifted.id) };
  };

  before(async () => {
    server = await startTestServer();
    // The outbox worker and the embedded broker: a shift's changes reach its drivers' topics.
    await server.app.startBackground(server.pool);
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'calr');
    tenantId = tenant.businessId;
    admin = await login(api, tenant.emails.client_admin);
    const drivers = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: DEPOT,
      names: ['afternoon', 'allday'],
      shift: { start: '08:00', end: '18:00' },
    });
    shifted = drivers[0]!;
    unshifted = drivers[1]!;
    const east = await api.post('/api/v1/client/depots', { name: 'East', ...near(3) }, { token: admin });
    eastDepot = east.body.depot.id;
    fleet = await fleetOf(api, admin, 'Vans', { drivers: [shifted, unshifted] });
    const shift = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts`,
      { date: TOMORROW, start: '13:00', end: '17:00', vehicle_kind: 'van', slots: 1 },
      { token: admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    shiftId = shift.body.shift.id;
    const signed = await api.call(
      'PUT',
      `/api/v1/client/fleets/${fleet}/shifts/${shiftId}/signups/${shifted.id}`,
      {
        token: shifted.token,
      },
    );
    assert.equal(signed.status, 200, JSON.stringify(signed.body));

    await order('MORNING', near(1), { start: '09:00', end: '10:00' });
    for (let n = 0; n < 3; n++) await order(`AFTERNOON-${n}`, near(n + 1));
    await order('EVENING', near(2), { start: '17:30', end: '17:55' });
  });
  after(() => server?.close());

  it("plans a signed-up driver within its shift, and a driver without one within its profile's hours", async () => {
    const before = await options();
    assert.deepEqual(before.shifted, {
      from: 'calendar',
      shift: { start: '13:00', end: '17:00' },
      depot: before.shifted.depot,
    });
    assert.equal(before.unshifted.from, 'profile');
    assert.deepEqual(before.unshifted.shift, { start: '08:00', end: '18:00' });

    const built = await api.post(
      '/api/v3/client/build-route',
      { date: TOMORROW, driver_ids: [shifted.id], time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const [route] = built.body.routes as PlannedRoute[];
    assert.ok(route, 'the signed-up driver has a route');
    assert.ok(route.departure >= '13:00', `leaves at ${route.departure}`);
    assert.ok(route.return_time <= '17:00', `back at ${route.return_time}`);
    assert.deepEqual(
      route.stops.map((stop) => stop.order_id).sort(),
      [0, 1, 2].map((n) => orders[`AFTERNOON-${n}`]).sort(),
    );
    assert.deepEqual(
      built.body.unassigned
        .map((left: { order_id: number; reason: string }) => [left.order_id, left.reason])
        .sort(),
      [
        [orders.MORNING, 'time_window'],
        [orders.EVENING, 'time_window'],
      ].sort(),
      'the morning and the evening are outside its shift',
    );

    // A plan edit times the route with the shift too: the morning order no longer fits it.
    const edit = await api.post(
      `/api/v1/client/routes/${route.id}/stops`,
      { order_id: orders.MORNING },
      { token: admin },
    );
    assert.equal(edit.status, 409, JSON.stringify(edit.body));
    assert.equal(edit.body.error_code, 'PLAN_VIOLATION');

    const other = await api.post(
      '/api/v3/client/build-route',
      { date: TOMORROW, driver_ids: [unshifted.id], time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(other.status, 200, JSON.stringify(other.body));
    const [allDay] = other.body.routes as PlannedRoute[];
    assert.deepEqual(
      allDay!.stops.map((stop) => stop.order_id).sort(),
      [orders.MORNING, orders.EVENING].sort(),
    );
    assert.ok(allDay!.departure < '10:00', `leaves at ${allDay!.departure}`);
    assert.ok(allDay!.return_time > '17:30', `back at ${allDay!.return_time}`);
  });

  it("takes the shift's depot when it names one, forgets a cancelled shift, and tells its driver both", async () => {
    const brokerUrl = `mqtt://127.0.0.1:${(server.app.mqtt as unknown as { port: number }).port}`;
    const phone = await mqtt.connectAsync(brokerUrl, {
      username: 'tms',
      password: shifted.token,
      reconnectPeriod: 0,
    });
    const pushes: Array<{ type: string; shift: { id: number; depot_id: number; cancelled: boolean } }> = [];
    phone.on('message', (_topic, payload) => pushes.push(JSON.parse(payload.toString())));
    await phone.subscribeAsync(`tms/drivers/${tenantId}/${shifted.id}`, { qos: 1 });
    const told = async (count: number) => {
      for (let wait = 0; pushes.length < count && wait < 600; wait++)
        await new Promise((r) => setTimeout(r, 100));
      return pushes.map((push) => [push.type, push.shift.id, push.shift.depot_id, push.shift.cancelled]);
    };

    const moved = await api.call('PATCH', `/api/v1/client/fleets/${fleet}/shifts/${shiftId}`, {
      token: admin,
      body: { depot_id: eastDepot },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await options()).shifted.depot, eastDepot);

    const cancelled = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts/${shiftId}/cancel`,
      {},
      { token: admin },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const after = await options();
    assert.equal(after.shifted.from, 'profile');
    assert.deepEqual(after.shifted.shift, { start: '08:00', end: '18:00' });
    assert.notEqual(after.shifted.depot, eastDepot);

    assert.deepEqual(await told(2), [
      ['shift_changed', shiftId, eastDepot, false],
      ['shift_cancelled', shiftId, eastDepot, true],
    ]);
    await phone.endAsync(true);
  });
});
