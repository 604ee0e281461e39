import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ORDER_STATUSES,
  type OrderStatus,
  PROGRESS_STATUSES,
  TRANSITIONS,
} from '../src/modules/orders/statuses.ts';
import { createTenant, login } from './support/fixtures.ts';
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
    const tenant = await createTenant(server.db, server.app.services, 'moves');
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
});
