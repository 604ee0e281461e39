import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Business A's data must be out of reach of every token of business B. Each operation that needs
 * a token has a check here; a new operation without one fails the coverage test below.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  let api: Client;
  let a: Tenant;
  let b: Tenant;
  const tokensOfB: Record<string, string> = {};

  let orderOfA: { id: number; order_ref: string; tracking_number: string };
  const adminOfB = () => tokensOfB.client_admin!;
  /** A's order, as its own admin sees it; must be unchanged by anything B does. */
  const orderAsA = async () =>
    (await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: tokenOfA })).body.order;
  let tokenOfA: string;
  let routeOfA: number;
  const refusedById =
    (path: string, body: unknown = {}) =>
    async () => {
      const before = await orderAsA();
      const answer = await api.post(`/api/v1/client/orders/${orderOfA.id}/${path}`, body, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
      assert.deepEqual(await orderAsA(), before);
    };

  const checks: Record<string, () => Promise<void>> = {
    create_order: async () => {
      const answer = await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: '1 B street' }, customer_id: a.userIds.customer },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    bulk_create_orders: async () => {
      const answer = await api.post(
        '/api/v1/client/orders/bulk',
        {
          orders: [
            { dropoff: { line1: 'x' }, customer_id: a.userIds.customer },
            { order_ref: orderOfA.order_ref, dropoff: { line1: 'y' } },
          ],
        },
        { token: adminOfB() },
      );
      assert.equal(answer.body.results[0].error_code, 'CUSTOMER_NOT_FOUND');
      // References are per business: B may reuse A's reference without touching A's order.
      assert.equal(answer.body.results[1].success, true);
      assert.equal((await orderAsA()).dropoff.line1, '1 A street');
    },
    get_orders: async () => {
      const all = await api.get('/api/v1/client/orders', { token: adminOfB() });
      assert.ok(all.body.orders.every((order: { id: number }) => order.id !== orderOfA.id));
      const byNumber = await api.get(`/api/v1/client/orders?tracking_number=${orderOfA.tracking_number}`, {
        token: adminOfB(),
      });
      assert.equal(byNumber.body.total, 0);
    },
    find_order: async () => {
      // A reference only A uses (B reuses 'only-in-a' on purpose in bulk_create_orders).
      const own = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: 'find-me-in-a', dropoff: { line1: 'x' } },
        { token: tokenOfA },
      );
      assert.equal(own.status, 200);
      assert.equal(
        (await api.get('/api/v1/client/orders/find?order_ref=find-me-in-a', { token: tokenOfA })).status,
        200,
      );
      for (const query of ['order_ref=find-me-in-a', `tracking_number=${orderOfA.tracking_number}`]) {
        assert.equal(
          (await api.get(`/api/v1/client/orders/find?${query}`, { token: adminOfB() })).status,
          404,
        );
      }
    },
    get_order_detail: async () => {
      assert.equal(
        (await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: adminOfB() })).status,
        404,
      );
    },
    cancel_order: refusedById('cancel'),
    hold_order: refusedById('hold'),
    release_order: refusedById('release'),
    update_order_status: refusedById('status', { status: 'PICKED_UP' }),
    reroute_to_address: refusedById('reroute', { dropoff: { line1: 'Elsewhere' } }),
    update_delivery_instruction: refusedById('delivery-instruction', { delivery_instruction: 'leave it' }),
    update_order_note: refusedById('note', { note: 'mine now' }),
    update_time_window_by_refs: async () => {
      const before = await orderAsA();
      const answer = await api.post(
        '/api/v1/client/orders/time-window',
        { order_refs: ['only-in-a'], time_window: { start: '08:00', end: '09:00' } },
        { token: adminOfB() },
      );
      // B has an order with the same reference (see bulk_create_orders); only B's may change.
      assert.equal(answer.status, 200);
      assert.deepEqual(await orderAsA(), before);
    },
    order_snapshot: async () => {
      const answer = await api.get('/api/v1/client/orders/snapshot?date=2026-11-03', { token: adminOfB() });
      assert.equal(answer.body.total, 0);
    },
    list_exceptions: async () => {
      const answer = await api.get('/api/v1/client/orders/exceptions', { token: adminOfB() });
      assert.ok(answer.body.exceptions.every((e: { order: { id: number } }) => e.order.id !== orderOfA.id));
    },
    create_depot: async () => {
      const answer = await api.post(
        '/api/v1/client/depots',
        { name: 'B depot', lat: 1, lng: 1 },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v3/client/build-route/options?date=2026-11-03', { token: tokenOfA });
      assert.ok(asA.body.depots.every((d: { name: string }) => d.name !== 'B depot'));
    },
    set_driver_profile: async () => {
      const answer = await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
        token: adminOfB(),
        body: {
          capacity: { weight_grams: 1, volume_cm3: 1, count: 1 },
          shift: { start: '08:00', end: '09:00' },
        },
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DRIVER_NOT_FOUND');
    },
    get_drivers: async () => {
      const answer = await api.get('/api/v1/client/drivers', { token: adminOfB() });
      assert.deepEqual(
        answer.body.drivers.map((d: { id: number }) => d.id),
        [b.userIds.driver],
      );
    },
    get_driver_routes_today: async () => {
      const answer = await api.get(`/api/v1/client/drivers/${a.userIds.driver}/routes/today`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404);
    },
    get_routes: async () => {
      const answer = await api.get('/api/v1/client/routes', { token: adminOfB() });
      assert.ok(
        answer.body.routes.every((r: { driver: { id: number } }) => r.driver.id !== a.userIds.driver),
      );
    },
    get_route_detail: async () => {
      const answer = await api.get(`/api/v1/client/routes/${routeOfA}`, { token: adminOfB() });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    },
    get_build_route_options: async () => {
      const answer = await api.get('/api/v3/client/build-route/options?date=2026-11-03', {
        token: adminOfB(),
      });
      assert.equal(answer.body.pool.orders, 0);
      assert.ok(answer.body.drivers.every((d: { id: number }) => d.id !== a.userIds.driver));
    },
    build_route: async () => {
      const answer = await api.post(
        '/api/v3/client/build-route',
        { date: '2026-11-04' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      assert.equal(answer.body.totals.orders, 0);
      assert.equal((await orderAsA()).status, 'HOLD');
    },
    get_operation_events: async () => {
      const answer = await api.post(
        '/api/v1/tracking/operationevents',
        { order_ids: [orderOfA.id] },
        { token: adminOfB() },
      );
      assert.deepEqual(answer.body.events, []);
    },
    get_me: async () => {
      for (const kind of ACCOUNT_KINDS) {
        const me = await api.get('/api/v1/user/me', { token: tokensOfB[kind] });
        assert.equal(me.status, 200);
        assert.equal(me.body.user.id, b.userIds[kind]);
        const text = JSON.stringify(me.body);
        assert.ok(!text.includes(a.code), `${kind} of B sees business A: ${text}`);
        assert.ok(!text.includes(`@${a.code}.test`), `${kind} of B sees an account of A`);
      }
    },
    logout: async () => {
      const tokenOfA = await login(api, a.emails.client_admin);
      const spare = await login(api, b.emails.client_admin);
      assert.equal((await api.post('/api/v1/user/logout', {}, { token: spare })).status, 200);
      assert.equal((await api.get('/api/v1/user/me', { token: tokenOfA })).status, 200);
    },
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    a = await createTenant(server.db, server.app.services, 'alpha');
    b = await createTenant(server.db, server.app.services, 'bravo');
    for (const kind of ACCOUNT_KINDS) tokensOfB[kind] = await login(api, b.emails[kind]);
    tokenOfA = await login(api, a.emails.client_admin);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'only-in-a', scheduled_date: '2026-11-03', dropoff: { line1: '1 A street' } },
      { token: tokenOfA },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orderOfA = {
      id: created.body.order_id,
      order_ref: 'only-in-a',
      tracking_number: created.body.tracking_number,
    };
    // A route of A's, planned from one located order on a driver with a depot.
    const depot = await api.post(
      '/api/v1/client/depots',
      { name: 'A depot', lat: 48.85, lng: 2.35 },
      { token: tokenOfA },
    );
    await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
      token: tokenOfA,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 50 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    await api.post(
      '/api/v1/client/orderCreate',
      { scheduled_date: '2026-11-04', dropoff: { line1: 'x', lat: 48.86, lng: 2.36 } },
      { token: tokenOfA },
    );
    const built = await api.post('/api/v3/client/build-route', { date: '2026-11-04' }, { token: tokenOfA });
    assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
    routeOfA = built.body.routes[0].id;
    // Held, so it shows among A's exceptions and must not among B's.
    await api.post(`/api/v1/client/orders/${orderOfA.id}/hold`, {}, { token: tokenOfA });
  });
  after(() => server.close());

  it('has a cross-tenant check for every operation that needs a token', () => {
    const guarded = server.app.catalog.list().filter((operation) => !operation.access.public);
    const unchecked = guarded.map((operation) => operation.name).filter((name) => !(name in checks));
    assert.deepEqual(unchecked, []);
  });

  for (const [name, check] of Object.entries(checks)) {
    it(`keeps ${name} inside the caller's business`, check);
  }
});
