import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ORDER_STATUSES,
  type OrderStatus,
  PROGRESS_STATUSES,
  TRANSITIONS,
} from '../src/modules/orders/statuses.ts';
import { createTenant, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The call that moves an order to each status. PLANNED is missing: only route planning plans an
 * order, and it takes orders of the planning pool only (src/modules/orders/statuses.test.ts checks
 * the lifecycle's every move, PLANNED's included).
 */
const DOORS = {
  NEW_ORDER: { action: 'release', body: {} },
  HOLD: { action: 'hold', body: {} },
  CANCELLED: { action: 'cancel', body: {} },
  ...Object.fromEntries(PROGRESS_STATUSES.map((status) => [status, { action: 'status', body: { status } }])),
} as Record<Exclude<OrderStatus, 'PLANNED'>, { action: string; body: object }>;
const TARGETS = Object.keys(DOORS) as Array<keyof typeof DOORS>;

/** Every move through the doors, generated from the lifecycle table: what it lists runs, the rest is refused. */
describe('order status moves through the doors, as the lifecycle table says', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let employee: string;

  /** A new order put straight into a status, as if it had got there. */
  const orderIn = async (status: OrderStatus) => {
    const made = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: `In ${status}` } },
      {
        token: employee,
      },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const id = made.body.order_id as number;
    await server.db.updateTable('orders').set({ status }).where('id', '=', id).execute();
    return id;
  };
  const move = (id: number, to: keyof typeof DOORS) =>
    api.post(`/api/v1/client/orders/${id}/${DOORS[to].action}`, DOORS[to].body, { token: employee });
  const statusOf = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: employee })).body.order.status as string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'moves');
    employee = await login(api, tenant.emails.employee);
  });
  after(() => server.close());

  it('refuses every move the table does not list with 409, naming both statuses, and the order stays', async () => {
    let refusals = 0;
    for (const from of ORDER_STATUSES) {
      const id = await orderIn(from);
      for (const to of TARGETS.filter((target) => !TRANSITIONS[from].includes(target))) {
        const answer = await move(id, to);
        assert.equal(answer.status, 409, `${from} -> ${to}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error_code, 'ILLEGAL_STATUS_TRANSITION');
        assert.deepEqual(answer.body.details, { from, to });
        refusals++;
      }
      assert.equal(await statusOf(id), from, `an order in ${from} stays there`);
    }
    const listed = ORDER_STATUSES.flatMap((from) => TRANSITIONS[from].filter((to) => to !== 'PLANNED'));
    assert.equal(refusals, ORDER_STATUSES.length * TARGETS.length - listed.length);
    assert.ok(refusals > 50, 'most moves are refused');
  });

  it('makes every move the table lists', async () => {
    for (const from of ORDER_STATUSES) {
      for (const to of TARGETS.filter((target) => TRANSITIONS[from].includes(target))) {
        const id = await orderIn(from);
        const answer = await move(id, to);
        assert.equal(answer.status, 200, `${from} -> ${to}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.order.status, to);
      }
    }
  });

  it('reroutes an order before pickup only: from NEW_ORDER, HOLD or PLANNED', async () => {
    for (const from of ORDER_STATUSES) {
      const id = await orderIn(from);
      const answer = await api.post(
        `/api/v1/client/orders/${id}/reroute`,
        { dropoff: { line1: 'Elsewhere' } },
        {
          token: employee,
        },
      );
      if (['NEW_ORDER', 'HOLD', 'PLANNED'].includes(from)) {
        assert.equal(answer.status, 200, `${from}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.cancelled_order_id, id);
      } else {
        assert.equal(answer.status, 409, `${from}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body.details, { from, to: 'CANCELLED' });
      }
    }
  });

  it('takes an order off its route when held, cancelled, returned or sent back to NEW_ORDER; progress keeps it on', async () => {
    const admin = await login(api, tenant.emails.client_admin);
    const [driver] = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: { lat: 48.85, lng: 2.35 },
      names: ['mover'],
      shift: { start: '08:00', end: '18:00' },
    });
    const names = ['held', 'cancelled', 'picked', 'returned', 'pooled'] as const;
    const ids = {} as Record<(typeof names)[number], number>;
    for (const [at, name] of names.entries()) {
      const made = await api.post(
        '/api/v1/client/orderCreate',
        { scheduled_date: '2026-11-05', dropoff: { line1: name, lat: 48.86 + at / 100, lng: 2.36 } },
        { token: admin },
      );
      ids[name] = made.body.order_id;
    }
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-05', driver_ids: [driver!.id] },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const routeId = built.body.routes[0].id as number;
    const stopsOn = async () =>
      (await api.get(`/api/v1/client/routes/${routeId}`, { token: admin })).body.route.stops.map(
        (stop: { order_id: number }) => stop.order_id,
      ) as number[];
    assert.deepEqual((await stopsOn()).sort(), Object.values(ids).sort());

    const steps: Array<[number, keyof typeof DOORS]> = [
      [ids.held, 'HOLD'],
      [ids.cancelled, 'CANCELLED'],
      [ids.picked, 'PICKED_UP'],
      [ids.returned, 'FAILED_ATTEMPT'],
      [ids.returned, 'RETURNED'],
      [ids.pooled, 'FAILED_ATTEMPT'],
      [ids.pooled, 'NEW_ORDER'],
    ];
    for (const [id, to] of steps) {
      const answer = await move(id, to);
      assert.equal(answer.status, 200, `${to}: ${JSON.stringify(answer.body)}`);
    }
    const placed = async (id: number) => {
      const { order } = (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body;
      return { route_id: order.route_id, driver_id: order.driver_id };
    };
    for (const id of [ids.held, ids.cancelled, ids.returned, ids.pooled]) {
      assert.deepEqual(await placed(id), { route_id: null, driver_id: null });
    }
    assert.deepEqual(await placed(ids.picked), { route_id: routeId, driver_id: driver!.id });
    assert.deepEqual(await stopsOn(), [ids.picked]);
  });
});
