import assert from 'node:assert/strict';
import { createTenant, login, signedInDriversAtDepot, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import type { TestServer } from './server.ts';

/** The day the boards are for: the day after the test clock's (2026-11-02 17:30 in Shanghai). */
export const BOARD_DATE = '2026-11-03';
const DEPOT = { lat: 31.23, lng: 121.47 };

export interface Driver {
  id: number;
  token: string;
}

export interface BoardRoute {
  route_id: number;
  state: 'open' | 'claimed';
  window: { start: string; end: string };
  stops: number;
  distance_meters: number;
  area: { south: number; west: number; north: number; east: number } | null;
  pay: { amount: number; amount_minor: number; currency: string } | null;
  claimant: { id: number; name: string } | null;
  standby: { length: number; my_position: number | null };
  queue?: Array<{ position: number; driver: { id: number } }>;
  history?: Array<{ action: string; driver: { id: number } | null; details: Record<string, unknown> }>;
}

/**
 * A business with a fleet "North" (a captain and `racers` drivers) and a fleet "South" (a captain
 * and a driver), all at one depot working 07:00-19:00; three built routes of BOARD_DATE, one order
 * each, made for three builders outside the fleets: two leaving in the morning, one (its order's
 * window 14:00-15:00) in the afternoon.
 */
export async function boardWorld(server: TestServer, code: string, racers: number) {
  const api: Client = client(server.baseUrl);
  const tenant: Tenant = await createTenant(server.db, server.app.services, code);
  const admin = await login(api, tenant.emails.client_admin);
  const racerNames = Array.from({ length: racers }, (_, at) => `racer${at + 1}`);
  const names = [
    'builder1',
    'builder2',
    'builder3',
    'captain',
    'south-captain',
    'south-driver',
    ...racerNames,
  ];
  const made = await signedInDriversAtDepot(server, api, tenant, admin, {
    depot: DEPOT,
    names,
    shift: { start: '07:00', end: '19:00' },
  });
  const drivers = Object.fromEntries(names.map((name, at) => [name, made[at]!])) as Record<string, Driver>;
  const builders = [drivers.builder1!, drivers.builder2!, drivers.builder3!];
  // One parcel a van: each order on a route of its own.
  for (const builder of builders) {
    const profile = await api.call('PUT', `/api/v1/client/drivers/${builder.id}/profile`, {
      token: admin,
      body: {
        depot_id: (await api.get('/api/v1/client/drivers', { token: admin })).body.drivers.find(
          (d: { id: number }) => d.id === builder.id,
        ).profile.depot_id,
        capacity: { weight_grams: 500_000, volume_cm3: 5_000_000, count: 1 },
        shift: { start: '07:00', end: '19:00' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
  }
  const orders: Record<'morning1' | 'morning2' | 'afternoon', number> = {
    morning1: 0,
    morning2: 0,
    afternoon: 0,
  };
  const places = {
    morning1: { lat: 31.24, lng: 121.48 },
    morning2: { lat: 31.22, lng: 121.46 },
    afternoon: { lat: 31.25, lng: 121.45 },
  };
  for (const ref of Object.keys(orders) as Array<keyof typeof orders>) {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        order_ref: ref,
        scheduled_date: BOARD_DATE,
        dropoff: { line1: ref, ...places[ref] },
        ...(ref === 'afternoon' ? { time_window: { start: '14:00', end: '15:00' } } : {}),
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orders[ref] = created.body.orders[0].id;
  }
  const built = await api.post(
    '/api/v3/client/build-route',
    { date: BOARD_DATE, driver_ids: builders.map((builder) => builder.id) },
    { token: admin },
  );
  assert.equal(built.status, 200, JSON.stringify(built.body));
  assert.equal(built.body.routes.length, 3, JSON.stringify(built.body));
  const routeOf = (orderId: number): { id: number; driver: { id: number } } =>
    built.body.routes.find((route: { stops: Array<{ order_id: number }> }) =>
      route.stops.some((stop) => stop.order_id === orderId),
    );
  const routes = {
    morning1: routeOf(orders.morning1),
    morning2: routeOf(orders.morning2),
    afternoon: routeOf(orders.afternoon),
  };

  const fleet = async (name: string, members: Array<[Driver, 'driver' | 'captain']>) => {
    const made = await api.post('/api/v1/client/fleets', { name }, { token: admin });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (const [driver, role] of members) {
      const put = await api.call('PUT', `/api/v1/client/fleets/${made.body.fleet.id}/members/${driver.id}`, {
        token: admin,
        body: { role },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
    }
    return made.body.fleet.id as number;
  };
  const north = await fleet('North', [
    [drivers.captain!, 'captain'],
    ...racerNames.map((name): [Driver, 'driver'] => [drivers[name]!, 'driver']),
  ]);
  const south = await fleet('South', [
    [drivers['south-captain']!, 'captain'],
    [drivers['south-driver']!, 'driver'],
  ]);
  const racerList = racerNames.map((name) => drivers[name]!);
  return { api, tenant, admin, drivers, racers: racerList, orders, routes, fleets: { north, south } };
}

export type BoardWorld = Awaited<ReturnType<typeof boardWorld>>;

/** The board's calls, as each kind of caller makes them. */
export function boardCalls(world: Pick<BoardWorld, 'api' | 'admin' | 'fleets'>) {
  const { api, admin, fleets } = world;
  const fleetPath = (routeId?: number, fleetId = fleets.north) =>
    `/api/v1/client/fleets/${fleetId}/board${routeId === undefined ? '' : `/routes/${routeId}`}`;
  return {
    publish: (routeId: number, extra: object = {}, token = admin, fleetId = fleets.north) =>
      api.post(`${fleetPath(undefined, fleetId)}/routes`, { route_id: routeId, ...extra }, { token }),
    board: (token = admin, fleetId = fleets.north) =>
      api.get(`${fleetPath(undefined, fleetId)}?date=${BOARD_DATE}`, { token }),
    entry: async (routeId: number, token = admin): Promise<BoardRoute> => {
      const answer = await api.get(fleetPath(routeId), { token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.route;
    },
    driverEntry: (routeId: number, driver: Driver) =>
      api.get(`/api/v1/driver/board/routes/${routeId}`, { token: driver.token }),
    claim: (routeId: number, driver: Driver) =>
      api.post(`/api/v1/driver/board/routes/${routeId}/claim`, {}, { token: driver.token }),
    join: (routeId: number, driver: Driver) =>
      api.post(`/api/v1/driver/board/routes/${routeId}/standby`, {}, { token: driver.token }),
    leave: (routeId: number, driver: Driver) =>
      api.call('DELETE', `/api/v1/driver/board/routes/${routeId}/standby`, { token: driver.token }),
    withdraw: (routeId: number, driver: Driver) =>
      api.post(`/api/v1/driver/board/routes/${routeId}/withdraw`, {}, { token: driver.token }),
    release: (routeId: number, token = admin, fleetId = fleets.north) =>
      api.post(`${fleetPath(routeId, fleetId)}/release`, {}, { token }),
    pullBack: (routeId: number, body: object = {}, token = admin) =>
      api.post(`${fleetPath(routeId)}/pull-back`, body, { token }),
    reassign: (routeId: number, driverId: number, token = admin) =>
      api.post(`${fleetPath(routeId)}/reassign`, { driver_id: driverId }, { token }),
    clearQueue: (routeId: number, token = admin) =>
      api.call('DELETE', `${fleetPath(routeId)}/standby`, { token }),
  };
}
