import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LockerSimulator } from '../src/modules/lockers/simulator.ts';
import { signedInDriversAtDepot } from './support/fixtures.ts';
import { COMPARTMENTS, eventually, type LockerWorld, lockerWorld, startDevice } from './support/lockers.ts';
import { DriverTopic } from './support/riders.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Lockers and routes agree, on a day the service's clock drives (Asia/Shanghai): a locker reserved
// for an order on a route sends its stop to the locker site (or off the route, as the business
// sets), the driver's phone hears it live, the deposit closes the drop, and the recipient's
// collection closes whatever stop of the order is still open.

const DAY = '2026-11-03';
const at = (time: string) => new Date(`${DAY}T${time}:00+08:00`);
const DEPOT = { lat: 45.75, lng: 4.84 };
/** The locker site of the test world (test/support/lockers.ts). */
const SITE = { name: 'Central Station', line1: '1 Station Square', lat: 45.76, lng: 4.86 };

interface Stop {
  order_id: number;
  leg: string;
  status: string;
  planned_arrival: string;
  completed_at: string | null;
  kind: string;
  locker: { site_id: number; booking_id: number; name: string; address: { lat: number; lng: number } } | null;
}

describe('a routed order sent to a parcel locker', () => {
  let server: TestServer;
  let world: LockerWorld;
  let driver: { id: number; token: string };
  let topic: DriverTopic;
  let routeId: number;
  let unplacedSiteId: number;
  const devices: LockerSimulator[] = [];
  /** The day's orders by letter: A and D go out for delivery, B is reserved before planning, C and E leave. */
  const orders: Record<string, number> = {};
  const codes: Record<string, { booking: number; reference: string; drop: string; pickup: string }> = {};
  let writes = 0;

  const admin = () => world.admin;
  const stopsOfRoute = async (): Promise<{ plan_version: number; stops: Stop[] }> => {
    const read = await world.api.get(`/api/v1/client/routes/${routeId}`, { token: admin() });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    return read.body.route;
  };
  const stopOf = async (letter: string) =>
    (await stopsOfRoute()).stops.find((stop) => stop.order_id === orders[letter]);
  const statusOf = async (letter: string): Promise<string> =>
    (await world.api.get(`/api/v1/client/orders/${orders[letter]}`, { token: admin() })).body.order.status;
  const setRule = async (rule: 'drop_at_locker' | 'take_off_route') => {
    const saved = await world.api.call('PUT', '/api/v1/client/dispatch-settings', {
      token: admin(),
      body: { locker_reservation: rule },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.settings.locker_reservation, rule);
  };
  const reserve = (letter: string, siteId = world.siteId, language = 'en') =>
    world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: siteId, order_id: orders[letter] },
      { token: admin(), headers: { 'accept-language': language } },
    );
  const reserved = async (letter: string) => {
    const answer = await reserve(letter);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    codes[letter] = {
      booking: answer.body.booking.id,
      reference: answer.body.booking.reference,
      drop: answer.body.codes.drop_code,
      pickup: answer.body.codes.pickup_code,
    };
    return codes[letter]!;
  };
  const bookingsOf = async (letter: string) =>
    (await world.api.get(`/api/v1/lockers/bookings?order_id=${orders[letter]}`, { token: admin() })).body
      .bookings as unknown[];
  /** The day moves on: the lockers heartbeat at the new time, so they are still online. */
  const clockAt = async (time: string) => {
    server.clock.set(at(time));
    for (const device of devices) await device.heartbeat();
    await eventually(async () => {
      const site = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: admin() });
      return site.body.site.devices[0].online ? true : undefined;
    }, 'the locker heard at the new time');
  };
  /** A code typed at the locker, carried through until the device answered. */
  const open = async (reference: string, code: string) => {
    const opened = await world.api.post('/api/v1/lockers/open', { reference, code });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    return eventually(async () => {
      const now = await world.api.get(`/api/v1/lockers/open/${reference}`);
      return now.body.command?.status === 'acked' ? now.body.booking : undefined;
    }, 'the locker opening');
  };
  const routeChanged = (letter: string, change: string) =>
    topic.next(
      (push) => push.type === 'route_changed' && push.order_id === orders[letter] && push.change === change,
    );

  before(async () => {
    server = await startTestServer();
    server.clock.set(at('07:00'));
    await server.app.startBackground(server.pool);
    world = await lockerWorld(server, 'lockroute');
    devices.push(world.device);
    const drivers = await signedInDriversAtDepot(server, world.api, world.operator, admin(), {
      depot: DEPOT,
      names: ['ana'],
      shift: { start: '08:00', end: '18:00' },
    });
    driver = drivers[0]!;
    topic = await DriverTopic.open(server, world.operator.businessId, driver);
    const letters = ['A', 'B', 'C', 'D', 'E'];
    const bulk = await world.api.post(
      '/api/v1/client/orders/bulk',
      {
        orders: letters.map((letter, n) => ({
          order_ref: `LOCK-${letter}`,
          scheduled_date: DAY,
          dropoff: {
            name: `Customer ${letter}`,
            line1: `${n + 1} Rue de la République`,
            city: 'Lyon',
            country: 'FR',
            lat: DEPOT.lat + 0.004 * (n + 1),
            lng: DEPOT.lng - 0.003 * (n + 1),
          },
          packages: [{ length_mm: 200, width_mm: 150, height_mm: 80, weight_grams: 1000 }],
        })),
      },
      { token: admin() },
    );
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    for (const [n, result] of bulk.body.results.entries()) orders[letters[n]!] = result.order_id;
    // A second site, saved without coordinates, with a locker of its own online.
    const site = await world.api.post(
      '/api/v1/lockers/sites',
      { name: 'Old Market', address: { line1: '3 Market Lane', city: 'Lyon' } },
      { token: admin() },
    );
    unplacedSiteId = site.body.site.id;
    const device = await world.api.post(
      '/api/v1/lockers/devices',
      { site_id: unplacedSiteId, kind: 'locker', name: 'Bank B', compartments: COMPARTMENTS },
      { token: admin() },
    );
    devices.push(await startDevice(server, world.brokerUrl, device.body.device.id, device.body.credential));
  });

  after(async () => {
    await topic?.close();
    for (const device of devices) await device.stop().catch(() => {});
    await server?.close();
  });

  it('changes no route for an order on none: B is reserved before the day is planned, then planned to its door', async () => {
    await reserved('B');
    const built = await world.api.post(
      '/api/v3/client/build-route',
      { date: DAY, time_limit_ms: 300 },
      { token: admin() },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.routes.length, 1);
    routeId = built.body.routes[0].id;
    const { stops } = await stopsOfRoute();
    assert.equal(stops.length, 5);
    assert.ok(stops.every((stop) => stop.kind === 'door' && stop.locker === null));
  });

  it('takes C off its planned route when the business says so: back in the pool, and the driver told', async () => {
    await setRule('take_off_route');
    const { plan_version: before } = await stopsOfRoute();
    await reserved('C');
    assert.equal(await statusOf('C'), 'NEW_ORDER');
    const route = await stopsOfRoute();
    assert.equal(await stopOf('C'), undefined);
    assert.ok(route.plan_version > before, 'the route moved on to another plan');
    const push = await routeChanged('C', 'taken_off');
    assert.equal(push.route_id, routeId);
  });

  it('refuses a drop at a site without coordinates, in the caller’s language, and reserves nothing', async () => {
    await setRule('drop_at_locker');
    const refused = await reserve('E', unplacedSiteId, 'es');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'LOCKER_SITE_NOT_PLACED');
    assert.match(refused.body.message, /Old Market.*coordenadas/);
    assert.deepEqual(await bookingsOf('E'), []);
    assert.equal((await stopOf('E'))?.kind, 'door');
  });

  it('sends E to the locker site and, the reservation cancelled, back to its door', async () => {
    const booking = await reserved('E');
    const drop = (await stopOf('E'))!;
    assert.equal(drop.kind, 'locker');
    assert.deepEqual(drop.locker, {
      site_id: world.siteId,
      booking_id: booking.booking,
      name: SITE.name,
      address: { line1: SITE.line1, city: 'Lyon', country: 'FR', lat: SITE.lat, lng: SITE.lng },
    });
    await routeChanged('E', 'locker_drop');
    const cancelled = await world.api.post(
      `/api/v1/lockers/bookings/${booking.booking}/cancel`,
      {},
      {
        token: admin(),
      },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const back = (await stopOf('E'))!;
    assert.equal(back.kind, 'door');
    assert.equal(back.locker, null);
    await routeChanged('E', 'door');
  });

  it('refuses to take an order out for delivery off its route, in German, and reserves nothing', async () => {
    await clockAt('08:30');
    const started = await world.api.post(
      `/api/v1/driver/routes/${routeId}/start`,
      { client_id: `lock-${++writes}`, device_time: server.clock.now().toISOString() },
      { token: driver.token },
    );
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(await statusOf('D'), 'OUT_FOR_DELIVERY');
    await setRule('take_off_route');
    const refused = await reserve('D', world.siteId, 'de');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'LOCKER_ORDER_ON_BOARD');
    assert.match(refused.body.message, /OUT_FOR_DELIVERY.*Planungspool/);
    assert.deepEqual(await bookingsOf('D'), []);
    assert.equal((await stopOf('D'))?.status, 'pending');
    await setRule('drop_at_locker');
  });

  it('sends A, out for delivery, to the locker site: the route, the board and the driver’s screen all say so', async () => {
    await clockAt('10:00');
    const { plan_version: before } = await stopsOfRoute();
    const door = (await stopOf('A'))!;
    const booking = await reserved('A');
    const route = await stopsOfRoute();
    const drop = route.stops.find((stop) => stop.order_id === orders.A)!;
    assert.equal(drop.kind, 'locker');
    assert.equal(drop.status, 'pending');
    assert.deepEqual(drop.locker?.address, {
      line1: SITE.line1,
      city: 'Lyon',
      country: 'FR',
      lat: SITE.lat,
      lng: SITE.lng,
    });
    assert.equal(drop.locker?.booking_id, booking.booking);
    assert.ok(route.plan_version > before);
    // Re-timed for the road to the locker rather than to the door, from now on (a route under way).
    assert.notEqual(drop.planned_arrival, door.planned_arrival);
    assert.ok(drop.planned_arrival >= '10:00', drop.planned_arrival);

    const push = await routeChanged('A', 'locker_drop');
    assert.equal(push.route_id, routeId);
    const mine = await world.api.get(`/api/v1/driver/routes?date=${DAY}`, { token: driver.token });
    const shown = mine.body.routes[0].stops.find((stop: { order_id: number }) => stop.order_id === orders.A);
    assert.equal(shown.kind, 'locker');
    assert.equal(shown.address.line1, SITE.line1);
    assert.deepEqual([shown.address.lat, shown.address.lng], [SITE.lat, SITE.lng]);
    assert.deepEqual(shown.contact, { name: SITE.name, phone: null });
    const board = await world.api.get(`/api/v1/client/dispatch/board?date=${DAY}`, { token: admin() });
    const drawn = board.body.routes[0].stops.find((stop: { order_id: number }) => stop.order_id === orders.A);
    assert.deepEqual([drawn.kind, drawn.lat, drawn.lng], ['locker', SITE.lat, SITE.lng]);
  });

  it('does not let the driver mark a locker drop delivered: the refusal is in French', async () => {
    const refused = await world.api.post(
      `/api/v1/driver/routes/${routeId}/stops/${orders.A}/complete`,
      { client_id: `lock-${++writes}`, device_time: server.clock.now().toISOString(), outcome: 'delivered' },
      { token: driver.token, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'STOP_IS_LOCKER_DROP');
    assert.match(refused.body.message, /consigne Central Station/);
    assert.equal(refused.body.details.booking_id, codes.A!.booking);
    assert.equal(await statusOf('A'), 'OUT_FOR_DELIVERY');
  });

  it('closes the drop when the parcel is in the locker, and delivers A when its recipient collects it', async () => {
    await clockAt('10:40');
    const deposited = await open(codes.A!.reference, codes.A!.drop);
    assert.equal(deposited.state, 'occupied');
    const drop = (await stopOf('A'))!;
    assert.equal(drop.status, 'done');
    assert.equal(drop.completed_at, at('10:40').toISOString());
    await routeChanged('A', 'stop_closed');
    // In the locker, not yet in its recipient's hands.
    assert.equal(await statusOf('A'), 'OUT_FOR_DELIVERY');
    await clockAt('14:00');
    const collected = await open(codes.A!.reference, codes.A!.pickup);
    assert.equal(collected.state, 'collected');
    assert.equal(await statusOf('A'), 'DELIVERED');
    assert.equal((await stopOf('A'))?.completed_at, at('10:40').toISOString(), 'closed once, at the deposit');
  });

  it('closes B’s door stop, still pending, when B is collected from the locker: no driver goes to the door', async () => {
    await clockAt('11:00');
    await open(codes.B!.reference, codes.B!.drop);
    // Its stop is the door's, not a drop for this booking: the deposit leaves it to the collection.
    assert.equal((await stopOf('B'))?.status, 'pending');
    await clockAt('15:00');
    await open(codes.B!.reference, codes.B!.pickup);
    assert.equal(await statusOf('B'), 'DELIVERED');
    const closed = (await stopOf('B'))!;
    assert.equal(closed.status, 'done');
    assert.equal(closed.completed_at, at('15:00').toISOString());
    await routeChanged('B', 'stop_closed');
    const mine = await world.api.get(`/api/v1/driver/routes?date=${DAY}`, { token: driver.token });
    const open_ = mine.body.routes[0].stops
      .filter((stop: Stop) => stop.status === 'pending' || stop.status === 'arrived')
      .map((stop: Stop) => stop.order_id)
      .sort();
    assert.deepEqual(open_, [orders.D, orders.E].sort(), 'only D and E are left for the driver');
  });
});
