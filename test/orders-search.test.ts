import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DAY = '2026-11-03';

/** get_orders' `search`: words in the reference, a tracking number, a name or an address line. */
describe('orders found by search', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let otherAdmin: string;
  const made: Record<string, { id: number; tracking: string }> = {};

  const create = async (token: string, ref: string, dropoff: Record<string, unknown>) => {
    const answer = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: DAY, dropoff: { ...DROPOFF, ...dropoff } },
      { token },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const order = answer.body.orders[0];
    return { id: order.id as number, tracking: order.packages[0].tracking_number as string };
  };
  const found = async (search: string, token = admin): Promise<string[]> => {
    const answer = await api.get(
      `/api/v1/client/orders?scheduled_date=${DAY}&search=${encodeURIComponent(search)}`,
      { token },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body.orders as Array<{ order_ref: string }>).map((order) => order.order_ref).sort();
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'search');
    const other = await createTenant(server.db, server.app.services, 'search-other');
    admin = await login(api, tenant.emails.client_admin);
    otherAdmin = await login(api, other.emails.client_admin);
    made.wang = await create(admin, 'SRCH-1', { name: 'Wang Fang', line1: '88 Century Avenue' });
    made.zhou = await create(admin, 'SRCH-2', { name: 'Zhou Min', line1: '3 Nanjing Road' });
    made.percent = await create(admin, 'SRCH_3', { name: '100% Fresh', line1: '7 Fuxing Road' });
    // Another business's order that every search below would match if tenancy were not kept.
    made.foreign = await create(otherAdmin, 'SRCH-9', {
      name: 'Wang Fang Zhou Min',
      line1: '88 Century Avenue',
    });
  });
  after(() => server?.close());

  it('finds by a part of the recipient’s name or address line, whatever the case', async () => {
    assert.deepEqual(await found('wang'), ['SRCH-1']);
    assert.deepEqual(await found('FANG'), ['SRCH-1']);
    assert.deepEqual(await found('nanjing'), ['SRCH-2']);
    assert.deepEqual(await found('road'), ['SRCH-2', 'SRCH_3']);
  });

  it('finds by a part of the reference or a tracking number', async () => {
    assert.deepEqual(await found('srch-2'), ['SRCH-2']);
    assert.deepEqual(await found(made.zhou!.tracking.slice(2).toLowerCase()), ['SRCH-2']);
    assert.deepEqual(await found('srch'), ['SRCH-1', 'SRCH-2', 'SRCH_3']);
  });

  it('matches % and _ as themselves, not as wildcards', async () => {
    assert.deepEqual(await found('100%'), ['SRCH_3']);
    assert.deepEqual(await found('%'), ['SRCH_3']);
    assert.deepEqual(await found('H_3'), ['SRCH_3']);
    assert.deepEqual(await found('_'), ['SRCH_3']);
    assert.deepEqual(await found('nothing like it'), []);
  });

  it('never finds another business’s order', async () => {
    assert.deepEqual(await found('Century'), ['SRCH-1']);
    assert.deepEqual(await found(made.foreign!.tracking), []);
    assert.deepEqual(await found('SRCH-9'), []);
    assert.deepEqual(await found('wang', otherAdmin), ['SRCH-9']);
  });

  it('refuses words longer than it takes', async () => {
    const answer = await api.get(`/api/v1/client/orders?search=${'x'.repeat(101)}`, { token: admin });
    assert.equal(answer.status, 422, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
  });
});
