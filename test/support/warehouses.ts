/**
 * The warehouse tests' world: a business with two staffed warehouses, nine orders of which four
 * are planned on one route, and another business with an order of its own. Each
 * test/warehouses-*.test.ts sets up one of its own.
 */
import assert from 'node:assert/strict';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import { startTestServer, type TestServer } from './server.ts';

export let server: TestServer;
export let api: Client;
export let tenant: Tenant;
export let other: Tenant;
export let admin: string;
export let employee: string;
export let driver: string;
export let otherAdmin: string;
export let north: number;
export let south: number;
export const lanes: Record<string, number> = {};
/** Tracking numbers by order ref. */
export const tn: Record<string, string> = {};
export const orderIds: Record<string, number> = {};
export let routeId: number;
export let otherNumber: string;
export const ROUTE_DATE = '2026-11-03';

export const post = (path: string, body: unknown, token = admin) => api.post(`/api${path}`, body, { token });
export const get = (path: string, token = admin) => api.get(`/api${path}`, { token });
export const receive = (numbers: string[], token = employee, at = north) =>
  post(`/v1/warehouse/${at}/receive`, { tracking_numbers: numbers }, token);
export const statusOf = async (ref: string) =>
  (await get(`/v1/client/orders/${orderIds[ref]}`)).body.order.status;
export const events = async (ref: string) =>
  (await api.get(`/api/v1/otep/trackings/${tn[ref]}`)).body.data.events as Array<{
    status_code: string;
    location?: { name?: string };
    description?: string;
  }>;
export const inventory = async (query: string) => (await get(`/v1/client/inventory?${query}`)).body;

/** Two businesses; two warehouses of the first with bins and lanes, its orders, and one route of them. */
export async function setUpWarehouses(): Promise<void> {
  server = await startTestServer();
  api = client(server.baseUrl);
  tenant = await createTenant(server.db, server.app.services, 'wms');
  other = await createTenant(server.db, server.app.services, 'wmsother');
  admin = await login(api, tenant.emails.client_admin);
  employee = await login(api, tenant.emails.employee);
  driver = await login(api, tenant.emails.driver);
  otherAdmin = await login(api, other.emails.client_admin);

  const depot = await post('/v1/client/depots', { name: 'Paris depot', lat: 48.86, lng: 2.34 });
  const warehouse = (code: string, prefixes: string[], lat: number, lng: number) =>
    post('/v1/client/warehouses', {
      code,
      name: `Warehouse ${code}`,
      line1: `1 Rue ${code}`,
      city: code === 'NORTH' ? 'Paris' : 'Lyon',
      country: 'FR',
      lat,
      lng,
      time_zone: 'Europe/Paris',
      opening_hours: { mon: [{ from: '06:00', to: '20:00' }] },
      depot_id: depot.body.depot.id,
      postal_prefixes: prefixes,
    });
  const n = await warehouse('NORTH', ['75'], 48.86, 2.34);
  assert.equal(n.status, 200, JSON.stringify(n.body));
  north = n.body.warehouse.id;
  south = (await warehouse('SOUTH', ['69'], 45.75, 4.85)).body.warehouse.id;
  for (const [code, kind, capacity] of [
    ['BIN-1', 'bin', 1],
    ['BIN-2', 'bin', 10],
    ['LANE-A', 'staging_lane', 50],
    ['LANE-B', 'staging_lane', 50],
  ] as const) {
    const made = await post(`/v1/client/warehouses/${north}/locations`, { code, kind, capacity });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    lanes[code] = made.body.location.id;
  }
  // The warehouse role: the employee at both warehouses, the driver at NORTH only.
  const staffed = await api.call('PUT', `/api/v1/client/warehouses/${north}/staff`, {
    token: admin,
    body: { user_ids: [tenant.userIds.employee, tenant.userIds.driver] },
  });
  assert.deepEqual(
    staffed.body.warehouse.staff_user_ids,
    [tenant.userIds.employee, tenant.userIds.driver].sort(),
  );
  await api.call('PUT', `/api/v1/client/warehouses/${south}/staff`, {
    token: admin,
    body: { user_ids: [tenant.userIds.employee] },
  });

  // Four Paris orders planned on one route, two Paris orders for later (no route), two for Lyon.
  const paris = (i: number) => ({
    line1: `${i} Rue de Rivoli`,
    city: 'Paris',
    postal_code: '75001',
    lat: 48.86 + i / 1000,
    lng: 2.34,
  });
  const lyon = (i: number) => ({
    line1: `${i} Quai Perrache`,
    city: 'Lyon',
    postal_code: '69002',
    lat: 45.75,
    lng: 4.82 + i / 1000,
  });
  const orders = [
    ...[1, 2, 3, 4, 5].map((i) => ({ order_ref: `R${i}`, scheduled_date: ROUTE_DATE, dropoff: paris(i) })),
    ...[5, 6].map((i) => ({ order_ref: `U${i}`, scheduled_date: '2026-11-04', dropoff: paris(i) })),
    ...[1, 2].map((i) => ({ order_ref: `L${i}`, scheduled_date: '2026-11-04', dropoff: lyon(i) })),
  ];
  for (const order of orders) {
    const made = await post('/v1/client/orderCreate', order);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    tn[order.order_ref] = made.body.tracking_number;
    orderIds[order.order_ref] = made.body.order_id;
  }
  const profile = await api.call('PUT', `/api/v1/client/drivers/${tenant.userIds.driver}/profile`, {
    token: admin,
    body: {
      depot_id: depot.body.depot.id,
      capacity: { weight_grams: 1_000_000, volume_cm3: 100_000_000, count: 100 },
      shift: { start: '06:00', end: '22:00' },
    },
  });
  assert.equal(profile.status, 200, JSON.stringify(profile.body));
  const built = await post('/v3/client/build-route', { date: ROUTE_DATE, time_limit_ms: 200 });
  assert.equal(built.status, 200, JSON.stringify(built.body));
  assert.equal(built.body.routes.length, 1);
  routeId = built.body.routes[0].id;

  const theirs = await post('/v1/client/orderCreate', { dropoff: paris(9) }, otherAdmin);
  otherNumber = theirs.body.tracking_number;
}
