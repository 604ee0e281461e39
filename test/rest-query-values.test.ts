import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Input schemas are plain JSON types; the REST door reads query strings and paths into them.

describe('query-string values read by the REST door', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const ids: number[] = [];

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'query');
    admin = await login(api, tenant.emails.client_admin);
    for (let n = 0; n < 3; n++) {
      const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
      ids.push(created.body.orders?.[0]?.id ?? created.body.order.id);
    }
    await api.post(`/api/v1/client/orders/${ids[0]}/hold`, {}, { token: admin });
    await api.post(`/api/v1/client/orders/${ids[1]}/cancel`, {}, { token: admin });
  });
  after(() => server.close());

  const listed = async (query: string) => {
    const answer = await api.get(`/api/v1/client/orders?${query}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body.orders as Array<{ id: number }>).map((order) => order.id).sort((a, b) => a - b);
  };

  it('reads a list from a comma-separated value or a repeated parameter', async () => {
    assert.deepEqual(await listed('status=HOLD,CANCELLED'), [ids[0], ids[1]]);
    assert.deepEqual(await listed('status=HOLD&status=CANCELLED'), [ids[0], ids[1]]);
    assert.deepEqual(await listed('status=NEW_ORDER'), [ids[2]]);
  });

  it('reads numbers, and refuses text that is none in the caller’s language, naming the field', async () => {
    const page = await api.get('/api/v1/client/orders?page=2&per_page=2', { token: admin });
    assert.equal(page.body.page, 2);
    assert.equal(page.body.orders.length, 1);
    const refused = await api.get('/api/v1/client/orders?per_page=many&status=LOST', {
      token: admin,
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error_code, 'VALIDATION_FAILED');
    const fields = (refused.body.details.fields as Array<{ field: string }>)
      .map((field) => field.field)
      .sort();
    assert.deepEqual(fields, ['per_page', 'status.0']);
    assert.match(refused.body.message, /per_page/);
  });

  it('refuses an empty status rather than listing nothing', async () => {
    for (const query of ['status=', 'status=HOLD,']) {
      const refused = await api.get(`/api/v1/client/orders?${query}`, { token: admin });
      assert.equal(refused.status, 422, query);
      assert.deepEqual(
        (refused.body.details.fields as Array<{ field: string }>).map((field) => field.field),
        [query === 'status=' ? 'status.0' : 'status.1'],
      );
    }
  });

  it('takes the same list as a GraphQL argument', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{ orders: { orders: Array<{ id: number }> } }>(
      gql`
        query {
          orders(status: [HOLD, CANCELLED]) {
            orders {
              id
            }
          }
        }
      `,
    );
    assert.deepEqual(
      answer.orders.orders.map((order) => order.id).sort((a, b) => a - b),
      [ids[0], ids[1]],
    );
  });
});
