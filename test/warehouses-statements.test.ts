import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './support/server.ts';

/**
 * What a receiving scan costs the database, counted on the service's own connections: the most
 * a scan may send is 20 statements a parcel (the receiving target, bench/README.md), and a batch
 * costs about what one parcel does, since its writes are set-based. The counts include the
 * token's look-up, BEGIN and COMMIT; the test server runs no background work (no outbox worker),
 * so every statement counted is the scan's.
 */
const MOST_PER_PARCEL = 20;

describe('warehouse receiving statements', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  let north: number;
  let counted: string[] | undefined;

  before(async () => {
    server = await startTestServer({ webhooks: loopbackWebhooks() });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'wmscount');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
    const made = await api.post(
      '/api/v1/client/warehouses',
      {
        code: 'NORTH',
        name: 'Warehouse NORTH',
        line1: '1 Rue du Nord',
        city: 'Paris',
        country: 'FR',
        lat: 48.86,
        lng: 2.34,
        time_zone: 'Europe/Paris',
        postal_prefixes: ['75'],
      },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    north = made.body.warehouse.id;
    // The scans are an employee's with the warehouse role: one more read than an admin's.
    const staffed = await api.call('PUT', `/api/v1/client/warehouses/${north}/staff`, {
      token: admin,
      body: { user_ids: [tenant.userIds.employee] },
    });
    assert.equal(staffed.status, 200, JSON.stringify(staffed.body));
    // Webhooks on for orders and tracking: each step of a scan is also an outbox row (nothing is
    // delivered: no worker runs).
    const hooks = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: {
        urls: {
          'order.status_changed': 'http://127.0.0.1:9/status',
          'tracking.event': 'http://127.0.0.1:9/tracking',
        },
        generate_secret: true,
      },
    });
    assert.equal(hooks.status, 200, JSON.stringify(hooks.body));

    // Every statement the service's pool sends, while a scan is counted.
    const pool = server.pool;
    const connect = pool.connect.bind(pool) as () => Promise<{ query: (...args: unknown[]) => unknown }>;
    const watched = new WeakSet<object>();
    (pool as unknown as { connect: typeof connect }).connect = async () => {
      const connection = await connect();
      if (!watched.has(connection)) {
        watched.add(connection);
        const query = connection.query.bind(connection);
        connection.query = (...args: unknown[]) => {
          const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
          counted?.push(text);
          return query(...args);
        };
      }
      return connection;
    };
  });
  after(() => server.close());

  /** New orders of one package each, to the warehouse's postal area. */
  const newOrders = async (n: number) => {
    const made = await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: Array.from({ length: n }, (_, i) => ({
          dropoff: {
            line1: `${i + 1} Rue de Rivoli`,
            city: 'Paris',
            postal_code: '75001',
            lat: 48.86,
            lng: 2.34,
          },
        })),
      },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return (made.body.orders as Array<{ id: number; packages: Array<{ tracking_number: string }> }>).map(
      (order) => ({ id: order.id, number: order.packages[0]!.tracking_number }),
    );
  };

  /** A receiving scan of these numbers, with the statements it sent. */
  const receive = async (numbers: string[]) => {
    counted = [];
    const answer = await api.post(
      `/api/v1/warehouse/${north}/receive`,
      { tracking_numbers: numbers },
      { token: employee },
    );
    const statements = counted;
    counted = undefined;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return { body: answer.body, statements };
  };

  const statusOf = async (orderId: number) =>
    (await api.get(`/api/v1/client/orders/${orderId}`, { token: admin })).body.order.status;
  const codesOf = async (number: string) =>
    (
      (await api.get(`/api/v1/otep/trackings/${number}`)).body.data.events as Array<{ status_code: string }>
    ).map((event) => event.status_code);
  const outboxRows = async () =>
    Number(
      (
        await server.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('receives a parcel straight from its sender in fewer than 20 statements, both steps in one change', async () => {
    const [order] = await newOrders(1);
    const outboxBefore = await outboxRows();
    const { body, statements } = await receive([order!.number]);
    assert.equal(body.received, 1);
    assert.ok(
      statements.length < MOST_PER_PARCEL,
      `${statements.length} statements for one parcel:\n${statements.join('\n')}`,
    );
    // Both steps happened, each told: the order at the warehouse, the timeline with both events,
    // the audit trail with both changes, a webhook for each step and each event.
    assert.equal(await statusOf(order!.id), 'AT_WAREHOUSE');
    assert.deepEqual((await codesOf(order!.number)).slice(-2).sort(), ['picked_up', 'received']);
    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [order!.id] },
      { token: admin },
    );
    assert.deepEqual(
      (trail.body.events as Array<{ action: string; changes: { status?: { to: string } } }>)
        .filter((event) => event.action === 'status_changed')
        .map((event) => event.changes.status?.to),
      ['PICKED_UP', 'AT_WAREHOUSE'],
    );
    assert.equal((await outboxRows()) - outboxBefore, 4);
  });

  it('receives 20 parcels in one scan in fewer statements than the target allows one parcel', async () => {
    const orders = await newOrders(20);
    // One of them picked up already: its order takes one step, the others two.
    const picked = await api.post(
      `/api/v1/client/orders/${orders[0]!.id}/status`,
      { status: 'PICKED_UP' },
      { token: admin },
    );
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    const { body, statements } = await receive(orders.map((order) => order.number));
    assert.equal(body.received, 20);
    assert.ok(
      statements.length < MOST_PER_PARCEL,
      `${statements.length} statements for 20 parcels:\n${statements.join('\n')}`,
    );
    for (const order of orders) assert.equal(await statusOf(order.id), 'AT_WAREHOUSE');
    assert.deepEqual((await codesOf(orders[0]!.number)).filter((code) => code === 'received').length, 1);
    assert.deepEqual((await codesOf(orders[19]!.number)).slice(-2).sort(), ['picked_up', 'received']);
    const held = await api.get(`/api/v1/client/inventory?warehouse_id=${north}&per_page=50`, {
      token: admin,
    });
    assert.equal(held.body.total, 21);

    // Scanned again: each already received, nothing written.
    const again = await receive(orders.map((order) => order.number));
    assert.deepEqual(
      new Set(again.body.results.map((result: { outcome: string }) => result.outcome)),
      new Set(['already_received']),
    );
    assert.ok(again.statements.length < MOST_PER_PARCEL);
  });
});
