import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedDemo } from '../src/demo/seed.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

interface Order {
  id: number;
  order_ref: string;
  family: string;
  status: string;
  type: string | null;
  postal?: string;
  time_window: { start: string; end: string } | null;
  dropoff: { postal_code?: string } | null;
  packages: Array<{ weight_grams: number | null }>;
}

describe('demo data', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let all: Order[];
  // The test clock is 2026-11-02T09:30Z: 10:30 in Paris.
  const TODAY = '2026-11-02';
  const TOMORROW = '2026-11-03';

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const credentials = await seedDemo(server.db, server.app.services, 'demo-pass', server.clock);
    assert.ok(credentials);
    admin = await login(api, 'admin@demo.test', 'demo-pass');
    all = (await api.get('/api/v1/client/orders?per_page=200', { token: admin })).body.orders;
  });
  after(() => server.close());

  it('holds orders of every family across the lifecycle', () => {
    assert.ok(all.length >= 36, `${all.length} orders`);
    assert.deepEqual([...new Set(all.map((o) => o.family))].sort(), [
      'device_order',
      'label_service',
      'local_delivery',
      'ltl_service',
      'moving_service',
      'shipping_service',
      'storage_service',
    ]);
    const statuses = new Set(all.map((o) => o.status));
    for (const status of ['NEW_ORDER', 'PLANNED', 'HOLD', 'CANCELLED', 'DELIVERED', 'FAILED_ATTEMPT']) {
      assert.ok(statuses.has(status), status);
    }
  });

  it('keeps an address book, points of interest and return reasons to work with', async () => {
    const found = await api.get('/api/v1/client/addresses/search?q=rivoli', { token: admin });
    assert.equal(found.body.matches[0]?.address.label, 'Head office', JSON.stringify(found.body));
    const places = await api.get('/api/v1/client/points-of-interest', { token: admin });
    assert.deepEqual(places.body.points.map((point: { category: string }) => point.category).sort(), [
      'depot',
      'locker',
    ]);
    const reasons = await api.get('/api/v1/client/return-reasons', { token: admin });
    assert.deepEqual(
      reasons.body.reasons.map((reason: { code: string }) => reason.code),
      ['damaged', 'refused'],
    );
  });

  it('assigns the customer app to the demo business, ready to bootstrap', async () => {
    const answer = await api.get(
      '/api/v1/apps/courier/clients/demo/bootstrap?platform=android&app_version=1.1.0',
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.client.display_name, 'Demo Deliveries');
    assert.deepEqual(answer.body.data.settings.home.quick_actions, ['send', 'return', 'wallet']);
    assert.equal(answer.body.data.version_policy.status, 'update_available');
  });

  it('plans every feasible order of today within capacity and time windows', async () => {
    const options = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: admin });
    assert.equal(options.body.pool.orders, 0, 'every plannable order of today is on a route');
    const drivers = new Map<
      number,
      { capacity: { weight_grams: number; count: number }; shift: { start: string; end: string } }
    >(
      (await api.get('/api/v1/client/drivers', { token: admin })).body.drivers.map(
        (d: { id: number; profile: unknown }) => [d.id, d.profile],
      ),
    );
    const routes = (await api.get(`/api/v1/client/routes?date=${TODAY}`, { token: admin })).body.routes;
    assert.ok(routes.length >= 1);
    const byId = new Map(all.map((o) => [o.id, o]));
    let planned = 0;
    for (const route of routes) {
      const profile = drivers.get(route.driver.id)!;
      // A P2P order is two stops (pickup, then delivery); its load counts once, and here it is on
      // board for part of the route only, so the sum over the route's orders bounds the peak.
      const orderIds = [
        ...new Set(route.stops.map((stop: { order_id: number }) => stop.order_id)),
      ] as number[];
      const load = orderIds.reduce(
        (sum: { weight: number; count: number }, orderId) => {
          const order = byId.get(orderId)!;
          return {
            weight: sum.weight + order.packages.reduce((w, p) => w + (p.weight_grams ?? 0), 0),
            count: sum.count + order.packages.length,
          };
        },
        { weight: 0, count: 0 },
      );
      assert.ok(load.weight <= profile.capacity.weight_grams);
      assert.ok(load.count <= profile.capacity.count);
      assert.ok(minutes(route.departure) >= minutes(profile.shift.start));
      assert.ok(minutes(route.return_time) <= minutes(profile.shift.end));
      for (const stop of route.stops) {
        const order = byId.get(stop.order_id)!;
        assert.equal(order.status, 'PLANNED');
        // The window is the customer's: the delivery's, or the pickup's of a pickup order.
        const windowed = order.type === 'P2P' ? stop.leg === 'delivery' : true;
        if (order.time_window && windowed) {
          assert.ok(minutes(stop.planned_arrival) <= minutes(order.time_window.end), order.order_ref);
          assert.ok(minutes(stop.planned_departure) >= minutes(order.time_window.start), order.order_ref);
        }
      }
      planned += orderIds.length;
    }
    assert.equal(planned, all.filter((o) => o.status === 'PLANNED').length);
  });

  it('takes a cancelled order off its route', async () => {
    const [route] = (await api.get(`/api/v1/client/routes?date=${TODAY}`, { token: admin })).body.routes;
    const orderId = route.stops[0].order_id;
    const cancelled = await api.post(`/api/v1/client/orders/${orderId}/cancel`, {}, { token: admin });
    assert.equal(cancelled.status, 200);
    const after = (await api.get(`/api/v1/client/routes/${route.id}`, { token: admin })).body.route;
    assert.equal(after.stops.length, route.stops.length - 1);
    assert.ok(after.stops.every((stop: { order_id: number }) => stop.order_id !== orderId));
  });

  it("leaves tomorrow's north of Paris and an assigned order to the contractor, who plans them with its own rider", async () => {
    const contractor = await login(api, 'contractor@demo.test', 'demo-pass');
    const visible: Order[] = (
      await api.get(`/api/v1/client/orders?scheduled_date=${TOMORROW}`, { token: contractor })
    ).body.orders;
    assert.ok(visible.length > 1);
    // The north by its rule, and the one order assigned to its dispatcher.
    const assignments = (await api.get('/api/v1/broker-order-assignments', { token: contractor })).body
      .assignments;
    assert.equal(assignments.length, 1);
    assert.ok(
      visible.every(
        (o) => ['75017', '75018'].includes(o.dropoff?.postal_code ?? '') || o.id === assignments[0].order_id,
      ),
    );
    assert.ok(visible.some((o) => o.id === assignments[0].order_id));
    const built = await api.post('/api/v3/client/build-route', { date: TOMORROW }, { token: contractor });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.assigned, visible.length);
    assert.deepEqual(
      built.body.routes.map((r: { driver: { name: string } }) => r.driver.name),
      ['Sam Swift'],
    );
  });
});
