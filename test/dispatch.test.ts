import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { asDriverProfile, asOrder, generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const toSeconds = (time: string) => Number(time.slice(0, 2)) * 3600 + Number(time.slice(3, 5)) * 60;

describe('route building through the API', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'plan');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('plans a generated day of 200 orders on 10 drivers without breaking capacity, windows or shifts', async () => {
    const instance = generateInstance({ stops: 200, vehicles: 10, seed: 7 });
    const depotAt = instance.vehicles[0]!.start;
    const depot = await api.post('/api/v1/client/depots', { name: 'Main', ...depotAt }, { token: admin });
    const driverIds: number[] = [];
    for (const [index, vehicle] of instance.vehicles.entries()) {
      const driverId = await server.app.services.accounts.createUser(server.db, {
        kind: 'driver',
        email: `van-${index}@plan.test`,
        name: `Van ${index}`,
        password: null,
        businessId: tenant.businessId,
      });
      driverIds.push(driverId);
      const profile = await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
        token: admin,
        body: asDriverProfile(vehicle, depot.body.depot.id),
      });
      assert.equal(profile.status, 200, JSON.stringify(profile.body));
    }
    const byRef = new Map<string, (typeof instance.stops)[number]>();
    const orders = instance.stops.map((stop) => {
      byRef.set(`GEN-${stop.id}`, stop);
      return asOrder(stop, '2026-11-10');
    });
    orders.push({
      order_ref: 'NO-LOCATION',
      scheduled_date: '2026-11-10',
      dropoff: { line1: 'Somewhere' },
    } as never);
    for (let i = 0; i < orders.length; i += 100) {
      const bulk = await api.post(
        '/api/v1/client/orders/bulk',
        { orders: orders.slice(i, i + 100) },
        { token: admin },
      );
      assert.equal(
        bulk.body.failed,
        0,
        JSON.stringify(bulk.body.results.find((r: { success: boolean }) => !r.success)),
      );
    }

    const options = await api.get('/api/v3/client/build-route/options?date=2026-11-10', { token: admin });
    assert.deepEqual(options.body.pool, { orders: 201, without_location: 1 });
    assert.equal(options.body.drivers.length, 10);

    const built = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-10', time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 500));
    const reasons = Object.fromEntries(
      built.body.unassigned.map((u: { order_ref: string; reason: string }) => [u.order_ref, u.reason]),
    );
    assert.equal(reasons['NO-LOCATION'], 'no_location');
    const unplaced = built.body.unassigned.find((u: { order_ref: string }) => u.order_ref === 'NO-LOCATION');
    assert.deepEqual(unplaced.fix, {
      operation: 'set_order_location',
      method: 'PUT',
      path: `/api/v1/client/orders/${unplaced.order_id}/location`,
    });
    assert.ok(
      built.body.unassigned
        .filter((u: { reason: string }) => u.reason !== 'no_location')
        .every((u: { fix: unknown }) => u.fix === null),
    );
    for (const { stopId, reason } of instance.infeasible) assert.equal(reasons[`GEN-${stopId}`], reason);
    assert.equal(
      built.body.totals.assigned,
      200 - instance.infeasible.length,
      'every feasible order is planned',
    );

    const planned = await api.get('/api/v1/client/orders?status=PLANNED&per_page=200', { token: admin });
    const orderById = new Map(planned.body.orders.map((o: { id: number; order_ref: string }) => [o.id, o]));
    for (const route of built.body.routes) {
      const vehicle = instance.vehicles[driverIds.indexOf(route.driver.id)]!;
      const load = { weight: 0, count: 0 };
      assert.ok(
        toSeconds(route.departure) >= vehicle.shift.start - 60 &&
          toSeconds(route.return_time) <= vehicle.shift.end,
      );
      for (const stop of route.stops) {
        const order = orderById.get(stop.order_id) as { order_ref: string; route_id: number } | undefined;
        assert.ok(order, `order ${stop.order_id} is PLANNED`);
        assert.equal(order.route_id, route.id);
        const source = byRef.get(order.order_ref)!;
        load.weight += source.demand.weightGrams;
        load.count += source.demand.count;
        if (source.window)
          assert.ok(
            toSeconds(stop.planned_arrival) <= source.window.end,
            `${order.order_ref} arrives in its window`,
          );
        for (const skill of source.requiredSkills ?? []) assert.ok(vehicle.skills.includes(skill));
      }
      assert.ok(load.weight <= vehicle.capacity.weightGrams && load.count <= vehicle.capacity.count);
    }
    const today = await api.get(`/api/v1/client/drivers/${built.body.routes[0].driver.id}/routes/today`, {
      token: admin,
    });
    assert.equal(today.body.date, '2026-11-02');
    const detail = await api.get(`/api/v1/client/routes/${built.body.routes[0].id}`, { token: admin });
    assert.deepEqual(detail.body.route, built.body.routes[0]);

    // A rebuild replans the untouched routes with the pool: the same orders, each on one route.
    const again = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-10', time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(again.body.rebuild.replanned_routes, built.body.routes.length);
    assert.equal(again.body.totals.assigned, built.body.totals.assigned);
    const day = (await api.get('/api/v1/client/routes?date=2026-11-10', { token: admin })).body.routes;
    assert.equal(day.length, again.body.routes.length, 'the earlier routes are gone');
    const stops = day.flatMap((route: { stops: Array<{ order_id: number }> }) =>
      route.stops.map((s) => s.order_id),
    );
    assert.equal(new Set(stops).size, built.body.totals.assigned, 'each planned order on one route');
  });

  it('shows a re-planned order as a stop of its new route only', async () => {
    const replan = await createTenant(server.db, server.app.services, 'replan');
    const token = await login(api, replan.emails.client_admin);
    const depot = await api.post('/api/v1/client/depots', { name: 'Hub', lat: 48.85, lng: 2.35 }, { token });
    const [first, second] = await Promise.all(
      ['first', 'second'].map(async (name) => {
        const driverId = await server.app.services.accounts.createUser(server.db, {
          kind: 'driver',
          email: `${name}@replan.test`,
          name,
          password: null,
          businessId: replan.businessId,
        });
        const profile = await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
          token,
          body: {
            depot_id: depot.body.depot.id,
            capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 10 },
            shift: { start: '08:00', end: '18:00' },
          },
        });
        assert.equal(profile.status, 200, JSON.stringify(profile.body));
        return driverId;
      }),
    );
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        order_ref: 'REPLAN-1',
        scheduled_date: '2026-11-12',
        dropoff: { line1: 'Quai', lat: 48.86, lng: 2.34 },
      },
      { token },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const orderId: number = created.body.order_id;
    const buildWith = async (driverId: number) => {
      const built = await api.post(
        '/api/v3/client/build-route',
        { date: '2026-11-12', driver_ids: [driverId] },
        { token },
      );
      assert.equal(built.body.totals.assigned, 1, JSON.stringify(built.body));
      return built.body.routes[0].id as number;
    };

    const routeA = await buildWith(first!);
    const released = await api.post(`/api/v1/client/orders/${orderId}/release`, {}, { token });
    assert.equal(released.body.order.status, 'NEW_ORDER');
    const routeB = await buildWith(second!);

    const routes = (await api.get('/api/v1/client/routes?date=2026-11-12', { token })).body.routes;
    const stopsOf = (routeId: number) =>
      routes
        .find((route: { id: number }) => route.id === routeId)
        .stops.map((stop: { order_id: number }) => stop.order_id);
    assert.deepEqual(stopsOf(routeB), [orderId]);
    assert.deepEqual(stopsOf(routeA), [], 'the order left its first route when it was released');

    const rerouted = await api.post(
      `/api/v1/client/orders/${orderId}/reroute`,
      { dropoff: { line1: 'Rive gauche', lat: 48.85, lng: 2.33 } },
      { token },
    );
    assert.equal(rerouted.status, 200, JSON.stringify(rerouted.body));
    const routeAfter = (await api.get(`/api/v1/client/routes/${routeB}`, { token })).body.route;
    assert.deepEqual(routeAfter.stops, [], 'a rerouted order leaves its route with its original');
  });

  it('plans a P2P order as its pickup then its delivery on one route, beside P and D orders, within the budget', async () => {
    const mixed = await createTenant(server.db, server.app.services, 'p2p');
    const token = await login(api, mixed.emails.client_admin);
    const depot = await api.post('/api/v1/client/depots', { name: 'Hub', lat: 48.85, lng: 2.35 }, { token });
    const driverId = await server.app.services.accounts.createUser(server.db, {
      kind: 'driver',
      email: 'van@p2p.test',
      name: 'Van',
      password: null,
      businessId: mixed.businessId,
    });
    const profile = await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
      token,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 100_000, volume_cm3: 10_000_000, count: 10 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    // 60 kg each: the two P2P loads cannot ride together, nor the delivery with the pickup order's load.
    const heavy = [{ weight_grams: 60_000 }];
    const orders = [
      {
        order_ref: 'P2P-1',
        type: 'P2P',
        pickup: { line1: 'Shop 1', lat: 48.86, lng: 2.36 },
        dropoff: { line1: 'Home 1', lat: 48.87, lng: 2.38 },
      },
      {
        order_ref: 'P2P-2',
        type: 'P2P',
        pickup: { line1: 'Shop 2', lat: 48.861, lng: 2.361 },
        dropoff: { line1: 'Home 2', lat: 48.871, lng: 2.381 },
      },
      { order_ref: 'P-1', type: 'P', pickup: { line1: 'Return', lat: 48.84, lng: 2.34 } },
      { order_ref: 'D-1', type: 'D', dropoff: { line1: 'Door', lat: 48.845, lng: 2.33 } },
    ].map((order) => ({ ...order, scheduled_date: '2026-11-13', packages: heavy }));
    const bulk = await api.post('/api/v1/client/orders/bulk', { orders }, { token });
    assert.equal(bulk.body.failed, 0, JSON.stringify(bulk.body));

    const built = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-13', time_limit_ms: 500 },
      { token },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.assigned, 4, JSON.stringify(built.body.unassigned));
    assert.equal(built.body.search.time_limit_ms, 500);
    // How long it took is reported, never bounded here: a busy machine stretches any search.
    assert.ok(Number.isInteger(built.body.search.elapsed_ms) && built.body.search.elapsed_ms >= 0);
    const [route] = built.body.routes;
    const refs = new Map<number, string>(
      (await api.get('/api/v1/client/orders?date=2026-11-13&per_page=10', { token })).body.orders.map(
        (o: { id: number; order_ref: string }) => [o.id, o.order_ref],
      ),
    );
    const legs: string[] = route.stops.map(
      (stop: { order_id: number; leg: string }) => `${refs.get(stop.order_id)} ${stop.leg}`,
    );
    assert.equal(legs.length, 6, legs.join(', '));
    assert.ok(legs.includes('P-1 pickup') && legs.includes('D-1 delivery'), legs.join(', '));
    for (const ref of ['P2P-1', 'P2P-2']) {
      assert.ok(legs.indexOf(`${ref} pickup`) < legs.indexOf(`${ref} delivery`), legs.join(', '));
    }
    // Capacity along the route: one 60 kg load on board at a time.
    let onBoard = legs.includes('D-1 delivery') ? 60_000 : 0;
    for (const leg of legs) {
      onBoard += leg.endsWith('pickup') ? 60_000 : -60_000;
      assert.ok(onBoard <= 100_000, `overloaded at ${leg}: ${legs.join(', ')}`);
    }
    assert.deepEqual(
      route.stops.map((stop: { sequence: number }) => stop.sequence),
      [1, 2, 3, 4, 5, 6],
    );

    // Each order is PLANNED once, with its audit event, by the set-based save.
    const planned = await api.get('/api/v1/client/orders?status=PLANNED&per_page=10', { token });
    assert.equal(planned.body.orders.length, 4);
    const p2p = planned.body.orders.find((o: { order_ref: string }) => o.order_ref === 'P2P-1');
    assert.equal(p2p.route_id, route.id);
    const history = await api.post('/api/v1/tracking/operationevents', { order_ids: [p2p.id] }, { token });
    assert.equal(history.status, 200, JSON.stringify(history.body));
    const planning = history.body.events.filter(
      (event: { action: string; changes: { status?: { to: string } } }) =>
        event.action === 'status_changed' && event.changes.status?.to === 'PLANNED',
    );
    assert.equal(planning.length, 1, JSON.stringify(history.body.events));
    assert.equal(planning[0].changes.route_id.to, route.id);
    // The tracking timeline heard of it once too (the plan's events are stored in one batch).
    const detail = await api.get(`/api/v1/client/orders/${p2p.id}`, { token });
    const trackingNumber: string = detail.body.order.packages[0].tracking_number;
    const timeline = await api.get(`/api/v1/otep/trackings/${trackingNumber}`);
    const codes = timeline.body.data.events.map((event: { status_code: string }) => event.status_code);
    assert.equal(codes.filter((code: string) => code === 'awaiting_pickup').length, 1, codes.join(', '));

    // The same legs over GraphQL.
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const answer = await graphql.request<{
      route: { route: { stops: Array<{ order_id: number; leg: string }> } };
    }>(
      gql`
        query Route($id: Int!) {
          route(route_id: $id) {
            route {
              stops {
                order_id
                leg
              }
            }
          }
        }
      `,
      { id: route.id },
    );
    assert.deepEqual(
      answer.route.route.stops,
      route.stops.map(({ order_id, leg }: { order_id: number; leg: string }) => ({ order_id, leg })),
    );
  });

  it('refuses a time budget above the documented maximum, over REST and GraphQL', async () => {
    const options = await api.get('/api/v3/client/build-route/options?date=2026-11-13', { token: admin });
    const max = options.body.constraints.max_time_limit_ms;
    assert.equal(max, 10_000);
    assert.equal(options.body.constraints.default_time_limit_ms, 2000);
    const tooLong = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-13', time_limit_ms: max + 1 },
      { token: admin },
    );
    assert.equal(tooLong.status, 422);
    assert.equal(tooLong.body.result, false);
    assert.equal(tooLong.body.error_code, 'VALIDATION_FAILED');
    assert.equal(tooLong.body.details.fields[0].field, 'time_limit_ms');

    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const refused = await graphql
      .request(gql`
        mutation {
          clientBuildRoute(date: "2026-11-13", time_limit_ms: 10001) {
            totals {
              assigned
            }
          }
        }
      `)
      .then(
        () => assert.fail('accepted'),
        (error: unknown) => error as ClientError,
      );
    assert.ok(refused instanceof ClientError);
    assert.equal(refused.response.errors?.[0]?.extensions?.error_code, 'VALIDATION_FAILED');
  });
});
