import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { createTenant, DROPOFF, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DATE = '2026-11-02'; // the test clock's day in the tenant's time zone (Asia/Shanghai)

/** The fields a VALIDATION_FAILED answer names, in its order. */
const fieldsOf = (answer: Answer) =>
  (answer.body.details.fields as Array<{ field: string }>).map((problem) => problem.field);

/** What every door checks of a call's input before it runs, whichever door it came through. */
describe('input checks', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'checks');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  describe('a write with a field it does not know', () => {
    let driver: { id: number; token: string };
    let orderId: number;
    let routeId: number;
    let writes = 0;
    const drive = (path: string, body: Record<string, unknown>) =>
      api.post(
        `/api/v1/driver/routes/${routeId}/${path}`,
        { client_id: `c-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
        { token: driver.token },
      );
    const statusOf = async (id: number) =>
      (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order.status as string;
    const ordersCount = async () =>
      (await api.get('/api/v1/client/orders?per_page=1', { token: admin })).body.total as number;

    before(async () => {
      [driver] = (await signedInDriversAtDepot(server, api, tenant, admin, {
        depot: { lat: 48.85, lng: 2.35 },
        names: ['rider'],
        shift: { start: '08:00', end: '22:00' },
      })) as [typeof driver];
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: 'U1', scheduled_date: DATE, dropoff: DROPOFF },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      orderId = created.body.order_id;
      const built = await api.post(
        '/api/v3/client/build-route',
        { date: DATE, driver_ids: [driver.id], time_limit_ms: 100 },
        { token: admin },
      );
      assert.equal(built.status, 200, JSON.stringify(built.body));
      routeId = built.body.routes[0].id;
      const started = await drive('start', {});
      assert.equal(started.status, 200, JSON.stringify(started.body));
    });

    it('refuses complete_stop with a proof object it does not know, and records no delivery', async () => {
      const before = await statusOf(orderId);
      assert.equal(before, 'OUT_FOR_DELIVERY');
      const refused = await drive(`stops/${orderId}/complete`, {
        outcome: 'delivered',
        proof_of_delivery: { recipient: 'Léa Martin', photo: 'front-door.jpg' },
      });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(fieldsOf(refused), ['proof_of_delivery']);
      assert.equal(refused.body.details.fields[0].code, 'unrecognized_keys');
      assert.match(refused.body.message, /proof_of_delivery/);
      assert.equal(await statusOf(orderId), before);

      // Deeper down, the unknown field is named at its path.
      const nested = await drive(`stops/${orderId}/complete`, {
        outcome: 'delivered',
        position: { lat: 48.86, lng: 2.34, altitude_meters: 35 },
      });
      assert.equal(nested.status, 422, JSON.stringify(nested.body));
      assert.deepEqual(fieldsOf(nested), ['position.altitude_meters']);
      assert.equal(await statusOf(orderId), before);

      // The same call with the fields the operation knows goes through.
      const delivered = await drive(`stops/${orderId}/complete`, {
        outcome: 'delivered',
        recipient: 'Léa Martin',
        position: { lat: 48.86, lng: 2.34 },
      });
      assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
      assert.equal(await statusOf(orderId), 'DELIVERED');
    });

    it('refuses an unknown top-level field over REST and MCP, and a nested one in GraphQL JSON', async () => {
      const count = await ordersCount();
      const rest = await api.post(
        '/api/v1/client/orderCreate',
        { scheduled_date: DATE, dropoff: DROPOFF, delivery_note: 'Ring twice' },
        { token: admin, headers: { 'accept-language': 'fr' } },
      );
      assert.equal(rest.status, 422, JSON.stringify(rest.body));
      assert.deepEqual(fieldsOf(rest), ['delivery_note']);
      assert.match(rest.body.details.fields[0].message, /non reconnue/, 'in the caller’s language');

      const mcp = new McpClient({ name: 'input-checks', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${admin}` } },
        }),
      );
      try {
        await assert.rejects(
          mcp.callTool({
            name: 'create_order',
            arguments: { scheduled_date: DATE, dropoff: { ...DROPOFF, floor: 3 } },
          }),
          (error) => {
            assert.ok(error instanceof McpError);
            assert.equal(error.code, -32602);
            const data = error.data as { error_code: string; details: { fields: Array<{ field: string }> } };
            assert.equal(data.error_code, 'VALIDATION_FAILED');
            assert.deepEqual(
              data.details.fields.map((problem) => problem.field),
              ['dropoff.floor'],
            );
            return true;
          },
        );
      } finally {
        await mcp.close();
      }
      assert.equal(await ordersCount(), count, 'no order was created');

      // GraphQL types refuse unknown arguments themselves; a JSON argument reaches the same check.
      const graphql = await api.post(
        '/api/graphql',
        {
          query: 'mutation ($layers: [JSON!]) { createMap(name: "Zones", layers: $layers) { map { id } } }',
          variables: { layers: [{ key: 'book', kind: 'address_book', name: 'Book', color: '#ff0000' }] },
        },
        { token: admin },
      );
      const error = graphql.body.errors?.[0];
      assert.equal(error?.extensions?.error_code, 'VALIDATION_FAILED', JSON.stringify(graphql.body));
      assert.deepEqual(
        error.extensions.details.fields.map((problem: { field: string }) => problem.field),
        ['layers.0.color'],
      );
      const maps = await api.get('/api/v1/client/maps', { token: admin });
      assert.equal(maps.body.total, 0, 'no map was created');
    });

    it('lets a read ignore query parameters it does not know', async () => {
      const read = await api.get('/api/v1/client/orders?per_page=1&_=1730540000', { token: admin });
      assert.equal(read.status, 200, JSON.stringify(read.body));
    });
  });

  describe('a list longer than its bound', () => {
    const batch = (items: unknown[]) =>
      api.call('POST', '/api/v1/otep/trackings/batch', { body: JSON.stringify({ tracking_numbers: items }) });

    it('refuses 140,000 items in the error shape, its bound named and no item read', async () => {
      const answer = await batch(Array.from({ length: 140_000 }, () => 1));
      assert.equal(answer.status, 422, JSON.stringify(answer.body).slice(0, 300));
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(answer.body.details.fields.length, 1);
      const [problem] = answer.body.details.fields;
      assert.equal(problem.field, 'tracking_numbers');
      assert.equal(problem.code, 'too_big');
      assert.match(problem.message, /100/);
    });

    it('answers 100,000 wrong items with a small refusal', async () => {
      const answer = await batch(Array.from({ length: 100_000 }, () => 1));
      const bytes = Buffer.byteLength(JSON.stringify(answer.body));
      assert.equal(answer.status, 422);
      assert.ok(bytes < 10_000, `${bytes} bytes`);
      assert.ok(answer.body.details.fields.length <= 20);
    });

    it('lists the first 20 problems of a list within its bound, and how many there are', async () => {
      const answer = await batch(Array.from({ length: 100 }, () => 1));
      assert.equal(answer.status, 422);
      assert.equal(answer.body.details.fields.length, 20);
      assert.equal(answer.body.details.fields[19].field, 'tracking_numbers.19');
      assert.equal(answer.body.details.problem_count, 100);
      assert.match(answer.body.message, /tracking_numbers\.19, …/);
    });

    it('checks lists deeper down against their bound before their items', async () => {
      const answer = await api.post(
        '/api/v1/client/orderCreate',
        { orders: [{ dropoff: DROPOFF, packages: Array.from({ length: 50_000 }, () => 'parcel') }] },
        { token: admin },
      );
      assert.equal(answer.status, 422, JSON.stringify(answer.body).slice(0, 300));
      assert.deepEqual(fieldsOf(answer), ['orders.0.packages']);
      assert.equal(answer.body.details.fields[0].code, 'too_big');
    });

    it('refuses a body over the service’s limit before reading it, with 413', async () => {
      const answer = await batch(Array.from({ length: 300_000 }, () => 'AB'));
      assert.equal(answer.status, 413);
      assert.equal(answer.body.error_code, 'PAYLOAD_TOO_LARGE');
      assert.equal(answer.body.details.limit_bytes, server.config.bodyLimitBytes);
    });
  });
});
