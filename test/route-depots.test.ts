import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RawBuilder, sql } from 'kysely';
import { openDatabase } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { createEmptyDatabase, TEST_DATABASE_TIMEOUTS } from './support/database.ts';
import { createTenant, login, signedInDriversAtDepot } from './support/fixtures.ts';
import { fleetOf } from './support/fleets.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The test clock reads Monday 2 November 2026, 10:30 in the business's time zone (Europe/Paris):
// today's routes are what a custom map draws, and a shift at noon is still ahead.
const TODAY = '2026-11-02';
const HUB = { lat: 48.85, lng: 2.35 };
const EAST = { lat: 48.85, lng: 2.39 };
const near = (place: { lat: number; lng: number }, n: number) => ({
  lat: place.lat + 0.004 * (n + 1),
  lng: place.lng + 0.003 * n,
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

describe('a route carries its depot', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let eastDriver: { id: number; token: string };
  let hubDriver: { id: number; token: string };
  let hubDepot: number;
  let eastDepot: number;
  let fleet: number;
  let eastShift: number;
  let eastRoute: Json;
  let hubRoute: Json;

  const order = async (ref: string, at: { lat: number; lng: number }) => {
    const made = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: TODAY, dropoff: { line1: ref, ...at } },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
  };
  const build = async (driverId: number) => {
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: TODAY, driver_ids: [driverId], time_limit_ms: 200 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
    return built.body.routes[0];
  };
  const route = async (id: number) => {
    const read = await api.get(`/api/v1/client/routes/${id}`, { token: admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    return read.body.route;
  };
  /** Each route of the day on the board (filtered by a depot when given), with its depot. */
  const board = async (depot?: number) => {
    const read = await api.get(
      `/api/v1/client/dispatch/board?date=${TODAY}${depot ? `&depot_id=${depot}` : ''}`,
      { token: admin },
    );
    assert.equal(read.status, 200, JSON.stringify(read.body));
    return read.body.routes.map((one: Json) => [one.id, one.depot_id]).sort();
  };
  /** Where a custom map's line of each route starts and ends. */
  const mapLines = async () => {
    const made = await api.post(
      '/api/v1/client/maps',
      { name: `Day ${Date.now()}`, layers: [{ key: 'r', kind: 'routes', name: 'Routes' }] },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const read = await api.get(`/api/v1/client/maps/${made.body.map.id}`, { token: admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const layer = read.body.layers.find((one: Json) => one.key === 'r');
    return new Map<number, Json>(
      layer.geojson.features
        .filter((feature: Json) => feature.properties.feature === 'route')
        .map((feature: Json) => [
          feature.properties.route_id,
          [feature.geometry.coordinates[0], feature.geometry.coordinates.at(-1)],
        ]),
    );
  };
  const at = (place: { lat: number; lng: number }) => [place.lng, place.lat];

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'rdepot', { timeZone: 'Europe/Paris' });
    admin = await login(api, tenant.emails.client_admin);
    [eastDriver, hubDriver] = (await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: HUB,
      names: ['east', 'hub'],
      shift: { start: '08:00', end: '19:00' },
    })) as [{ id: number; token: string }, { id: number; token: string }];
    const depots = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: admin });
    hubDepot = depots.body.depots[0].id;
    const east = await api.post('/api/v1/client/depots', { name: 'East', ...EAST }, { token: admin });
    eastDepot = east.body.depot.id;
    // The east driver's shift today leaves from the east depot; its profile still names the hub.
    fleet = await fleetOf(api, admin, 'Vans', { drivers: [eastDriver, hubDriver] });
    const shift = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts`,
      { date: TODAY, start: '12:00', end: '18:00', depot_id: eastDepot, vehicle_kind: 'van', slots: 1 },
      { token: admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    eastShift = shift.body.shift.id;
    const signed = await api.call(
      'PUT',
      `/api/v1/client/fleets/${fleet}/shifts/${eastShift}/signups/${eastDriver.id}`,
      { token: admin },
    );
    assert.equal(signed.status, 200, JSON.stringify(signed.body));

    for (let n = 0; n < 3; n++) await order(`EAST-${n}`, near(EAST, n));
    eastRoute = await build(eastDriver.id);
    for (let n = 0; n < 2; n++) await order(`HUB-${n}`, near(HUB, n));
    hubRoute = await build(hubDriver.id);
  });
  after(() => server?.close());

  it("is built with its driver's shift depot when the shift names one, else the profile's", async () => {
    assert.equal(eastRoute.depot_id, eastDepot);
    assert.equal(hubRoute.depot_id, hubDepot);
    assert.equal((await route(eastRoute.id)).depot_id, eastDepot);
    const listed = await api.get(`/api/v1/client/routes?date=${TODAY}`, { token: admin });
    assert.deepEqual(
      listed.body.routes.map((one: Json) => [one.id, one.depot_id]).sort(),
      [
        [eastRoute.id, eastDepot],
        [hubRoute.id, hubDepot],
      ].sort(),
    );
  });

  it('is placed at its own depot by the board, its depot filter and a custom map', async () => {
    assert.deepEqual(
      await board(),
      [
        [eastRoute.id, eastDepot],
        [hubRoute.id, hubDepot],
      ].sort(),
    );
    assert.deepEqual(await board(eastDepot), [[eastRoute.id, eastDepot]]);
    assert.deepEqual(await board(hubDepot), [[hubRoute.id, hubDepot]]);
    const lines = await mapLines();
    assert.deepEqual(lines.get(eastRoute.id), [at(EAST), at(EAST)], 'from the east depot and back');
    assert.deepEqual(lines.get(hubRoute.id), [at(HUB), at(HUB)]);
  });

  it('keeps its depot when the shift changes after it was built, and plan edits time it from there', async () => {
    const cancelled = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts/${eastShift}/cancel`,
      {},
      { token: admin },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const options = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: admin });
    const driver = options.body.drivers.find((one: Json) => one.id === eastDriver.id);
    assert.equal(driver.profile.depot_id, hubDepot, 'the driver works from its profile again');

    const before = await route(eastRoute.id);
    assert.equal(before.depot_id, eastDepot);
    assert.deepEqual(await board(eastDepot), [[eastRoute.id, eastDepot]]);
    assert.deepEqual((await mapLines()).get(eastRoute.id), [at(EAST), at(EAST)]);
    // The same stops in the same order, timed again: from the east depot, the same distance.
    const resequenced = await api.post(
      `/api/v1/client/routes/${eastRoute.id}/sequence`,
      { stops: before.stops.map((stop: Json) => ({ order_id: stop.order_id })), confirm_violations: true },
      { token: admin },
    );
    assert.equal(resequenced.status, 200, JSON.stringify(resequenced.body));
    const [timed] = resequenced.body.routes;
    assert.equal(timed.depot_id, eastDepot);
    assert.equal(timed.distance_meters, before.distance_meters);
  });

  it("moves to the new driver's depot of the day on a change of driver", async () => {
    // The hub driver's shift today now names the east depot: its route built at the hub stays there.
    const shift = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts`,
      { date: TODAY, start: '12:00', end: '18:00', depot_id: eastDepot, vehicle_kind: 'van', slots: 1 },
      { token: admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    const signed = await api.call(
      'PUT',
      `/api/v1/client/fleets/${fleet}/shifts/${shift.body.shift.id}/signups/${hubDriver.id}`,
      { token: admin },
    );
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.equal((await route(hubRoute.id)).depot_id, hubDepot);

    const toEastDriver = await api.call('PUT', `/api/v1/client/routes/${hubRoute.id}/driver`, {
      token: admin,
      body: { driver_id: eastDriver.id, confirm_violations: true },
    });
    assert.equal(toEastDriver.status, 200, JSON.stringify(toEastDriver.body));
    assert.equal(toEastDriver.body.routes[0].depot_id, hubDepot, "the east driver's profile: the hub");
    const toHubDriver = await api.call('PUT', `/api/v1/client/routes/${eastRoute.id}/driver`, {
      token: admin,
      body: { driver_id: hubDriver.id, confirm_violations: true },
    });
    assert.equal(toHubDriver.status, 200, JSON.stringify(toHubDriver.body));
    assert.equal(toHubDriver.body.routes[0].depot_id, eastDepot, "the hub driver's shift: the east depot");
    assert.deepEqual(
      await board(),
      [
        [eastRoute.id, eastDepot],
        [hubRoute.id, hubDepot],
      ].sort(),
    );
  });
});

describe('migration 0066: routes built before take their driver profile’s depot', () => {
  it("backfills each route from its driver's profile; a route without a driver stays without", async () => {
    const database = await createEmptyDatabase();
    const handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      await migrateToLatest(handle.db, '0065_route_plan_versions');
      const one = async <T>(query: RawBuilder<T>) => (await query.execute(handle.db)).rows[0]!;
      const { id: business } = await one(sql<{ id: number }>`INSERT INTO businesses (code, name, created_at)
        VALUES ('backfill', 'Backfill', now()) RETURNING id`);
      const { id: depot } = await one(sql<{ id: number }>`INSERT INTO depots (business_id, name, lat, lng)
        VALUES (${business}, 'Hub', 48.85, 2.35) RETURNING id`);
      const driver = async (email: string) =>
        (
          await one(sql<{ id: number }>`INSERT INTO users (kind, business_id, email, name, created_at)
            VALUES ('driver', ${business}, ${email}, 'Driver', now()) RETURNING id`)
        ).id;
      const profiled = await driver('profiled@backfill.test');
      const bare = await driver('bare@backfill.test');
      await sql`INSERT INTO driver_profiles (user_id, business_id, depot_id, capacity_weight_grams,
          capacity_volume_cm3, capacity_count, shift_start, shift_end)
        VALUES (${profiled}, ${business}, ${depot}, 1000, 1000, 10, '08:00', '18:00')`.execute(handle.db);
      const routeOf = async (driverId: number | null) =>
        (
          await one(sql<{ id: number }>`INSERT INTO routes (business_id, driver_user_id, route_date,
              distance_meters, departure, return_time, created_at)
            VALUES (${business}, ${driverId}, '2026-11-02', 0, '08:00', '09:00', now()) RETURNING id`)
        ).id;
      const routes = [await routeOf(profiled), await routeOf(bare), await routeOf(null)];

      await migrateToLatest(handle.db);
      const { rows } = await sql<{ id: number; depot_id: number | null }>`
        SELECT id, depot_id FROM routes ORDER BY id`.execute(handle.db);
      assert.deepEqual(
        rows.map((row) => [Number(row.id), row.depot_id === null ? null : Number(row.depot_id)]),
        [
          [routes[0], depot],
          [routes[1], null],
          [routes[2], null],
        ],
      );
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
