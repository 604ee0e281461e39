import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLClient, gql } from 'graphql-request';
import { REPACK_ALLOWANCE_GRAMS, stacked } from '../src/modules/consolidation/consolidations.ts';
import { PUSH_WINDOW_SECONDS } from '../src/modules/consolidation/index.ts';
import { afterShipPush, announce, item, push, setUpForwarding, sign } from './support/consolidation.ts';
import { createTenant, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { TEST_POST } from './support/shipping.ts';

const DAY = 86_400_000;
const DROPOFF = {
  name: 'Hugo Bernard',
  line1: '5 Rue Oberkampf',
  city: 'Paris',
  postal_code: '75011',
  country: 'FR',
};

describe('consolidation: package forwarding', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let customer: string;
  let secret: string;
  const parcels: Array<{ id: number; reference: string }> = [];

  const timeline = async (id: number, token = customer) => {
    const answer = await api.get(`/api/v1/consolidation/parcels/${id}`, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.timeline.events as Array<{
      status_code: string;
      source: { type: string; name?: string };
    }>;
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'fwd');
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
    const saved = await api.call('PUT', '/api/v1/shipping/carriers/testpost', {
      token: admin,
      body: TEST_POST,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    ({ secret } = await setUpForwarding(api, admin, tenant.userIds.customer));
    parcels.push(
      await announce(api, customer, '9400 1000 0000 0000 0000 01', [
        item('Phone case', 12),
        item('Charger', 20),
      ]),
      await announce(api, customer, '9400100000000000000002', [item('Headphones', 80)]),
      await announce(api, customer, '9400100000000000000003', [item('Cotton shirt', 25, '6205200000')]),
    );
  });
  after(() => server.close());

  it('gives the customer a suite address and refuses an HS code that is not 6 to 10 digits', async () => {
    const suites = await api.get('/api/v1/consolidation/suites', { token: customer });
    assert.equal(suites.body.suites.length, 1, JSON.stringify(suites.body));
    assert.match(suites.body.suites[0].address.line2, /^Suite FWD-[A-Z2-9]{6}$/);
    const refused = await api.post(
      '/api/v1/consolidation/parcels',
      { carrier: 'usps', tracking_number: 'BADHS0001', items: [item('Toy', 5, '95.03')] },
      { token: customer },
    );
    assert.ok([400, 422].includes(refused.status), `refused: ${refused.status}`);
    assert.match(JSON.stringify(refused.body), /hs_code/);
    const again = await api.post(
      '/api/v1/consolidation/parcels',
      { carrier: 'USPS', tracking_number: '9400100000000000000002', items: [item('Again', 1)] },
      { token: customer },
    );
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error_code, 'INBOUND_PARCEL_EXISTS');
  });

  it('refuses a forged push with 401 and changes nothing', async () => {
    const before = await timeline(parcels[0]!.id);
    const body = afterShipPush('9400100000000000000001', server.clock.now());
    for (const signature of [undefined, sign('not-the-secret', body), sign(secret, `${body} `)]) {
      const answer = await push(api, tenant.businessId, body, signature);
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'TRACKING_PUSH_UNVERIFIED');
    }
    assert.deepEqual(await timeline(parcels[0]!.id), before);
  });

  it('documents the webhook with its signature header and its raw JSON body', async () => {
    const document = (await api.get('/api/openapi.json')).body;
    const operation = document.paths['/v1/consolidation/tracking-webhooks/{business_id}/aftership'].post;
    assert.ok(
      operation.parameters.some(
        (p: { name: string; in: string }) => p.name === 'aftership-hmac-sha256' && p.in === 'header',
      ),
      'the signature is a header parameter',
    );
    assert.deepEqual(Object.keys(operation.requestBody.content), ['application/json']);
    assert.deepEqual(operation.security, []);
  });

  it('puts a genuine push on the parcel timeline with the provider as source, and refuses its replay', async () => {
    const body = afterShipPush('9400100000000000000001', server.clock.now());
    const answer = await push(api, tenant.businessId, body, sign(secret, body));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      [answer.body.matched, answer.body.parcel_id, answer.body.events],
      [true, parcels[0]!.id, 1],
    );
    const events = await timeline(parcels[0]!.id);
    const pushed = events.find((event) => event.source.type === 'provider_push');
    assert.ok(pushed, `a provider event among ${JSON.stringify(events)}`);
    assert.equal(pushed.source.name, 'AfterShip');
    assert.equal(pushed.status_code, 'arrival_scan');

    const replayed = await push(api, tenant.businessId, body, sign(secret, body));
    assert.equal(replayed.status, 401, JSON.stringify(replayed.body));
    assert.equal(replayed.body.error_code, 'TRACKING_PUSH_REPLAYED');
    // A new event id with an old timestamp: outside the window, a replay too.
    const stale = afterShipPush(
      '9400100000000000000001',
      new Date(server.clock.now().getTime() - (PUSH_WINDOW_SECONDS + 60) * 1000),
    );
    const old = await push(api, tenant.businessId, stale, sign(secret, stale));
    assert.equal(old.status, 401, JSON.stringify(old.body));
    assert.equal(old.body.error_code, 'TRACKING_PUSH_REPLAYED');
    assert.deepEqual(await timeline(parcels[0]!.id), events);
  });

  it('receives parcels and charges storage per day after the free days', async () => {
    for (const [index, number] of [
      '9400100000000000000001',
      '9400100000000000000002',
      '9400100000000000000003',
    ].entries()) {
      const received = await api.post(
        '/api/v1/consolidation/parcels/receive',
        {
          carrier: 'usps',
          tracking_number: number,
          weight_grams: 500 + index * 100,
          length_mm: 300,
          width_mm: 200,
          height_mm: 100 + index * 10,
          photo_urls: [`https://photos.example/${number}.jpg`],
        },
        { token: admin },
      );
      assert.equal(received.status, 200, JSON.stringify(received.body));
      assert.equal(received.body.parcel.state, 'received');
    }
    const again = await api.post(
      '/api/v1/consolidation/parcels/receive',
      { tracking_number: '9400100000000000000001', weight_grams: 1, length_mm: 1, width_mm: 1, height_mm: 1 },
      { token: admin },
    );
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error_code, 'INBOUND_PARCEL_STATE');

    const storage = async () =>
      (await api.get('/api/v1/consolidation/parcels?state=received', { token: customer })).body.parcels[0]
        .storage;
    assert.deepEqual([(await storage()).chargeable_days, (await storage()).fee.amount], [0, 0]);
    server.clock.advance(3 * DAY);
    assert.deepEqual([(await storage()).days_stored, (await storage()).fee.amount], [3, 0]);
    server.clock.advance(2 * DAY - 60_000);
    const due = await storage();
    assert.deepEqual([due.days_stored, due.chargeable_days, due.fee], [5, 2, { amount: 1, currency: 'EUR' }]);
    const events = await timeline(parcels[1]!.id);
    assert.deepEqual(
      events.map((event) => event.status_code),
      ['information_submitted', 'received'],
    );
  });

  it('consolidates three received parcels into one shipment with a customs declaration of every item', async () => {
    const carton = await api.post(
      '/api/v1/client/packaging',
      {
        name: 'Forwarding box L',
        inner: { length_mm: 400, width_mm: 300, height_mm: 400 },
        outer: { length_mm: 410, width_mm: 310, height_mm: 410 },
        tare_grams: 400,
        max_gross_grams: 20_000,
        cost: 1.2,
        currency: 'EUR',
      },
      { token: admin },
    );
    assert.equal(carton.status, 200, JSON.stringify(carton.body));
    const requested = await api.post(
      '/api/v1/consolidation/consolidations',
      { parcel_ids: parcels.map((p) => p.id), dropoff: DROPOFF },
      { token: customer },
    );
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    const { consolidation } = requested.body;
    assert.deepEqual(
      consolidation.customs.items.map(
        (i: { description: string; hs_code: string; origin_country: string }) => [
          i.description,
          i.hs_code,
          i.origin_country,
        ],
      ),
      [
        ['Phone case', '851712', 'CN'],
        ['Charger', '851712', 'CN'],
        ['Headphones', '851712', 'CN'],
        ['Cotton shirt', '6205200000', 'CN'],
      ],
    );
    assert.deepEqual(consolidation.customs.total_value, [{ currency: 'USD', amount: 137 }]);
    // The packing solver puts the three parcels (1800 g) in the catalog's carton (400 g).
    assert.deepEqual(consolidation.package, {
      weight_grams: 2200,
      length_mm: 410,
      width_mm: 310,
      height_mm: 410,
      packaging_id: carton.body.packaging.id,
    });
    assert.ok(requested.body.quotes.length > 0, `quotes: ${JSON.stringify(requested.body)}`);

    const twice = await api.post(
      '/api/v1/consolidation/consolidations',
      { parcel_ids: [parcels[0]!.id], dropoff: DROPOFF },
      { token: customer },
    );
    assert.equal(twice.status, 409, JSON.stringify(twice.body));

    const shipped = await api.post(
      `/api/v1/consolidation/consolidations/${consolidation.id}/ship`,
      {},
      { token: admin },
    );
    assert.equal(shipped.status, 200, JSON.stringify(shipped.body));
    assert.equal(shipped.body.consolidation.state, 'shipped');
    assert.equal(shipped.body.labels.length, 1);
    assert.equal(shipped.body.consolidation.tracking_number, shipped.body.labels[0].tracking_number);
    const listed = (await api.get('/api/v1/consolidation/parcels', { token: customer })).body.parcels;
    assert.deepEqual(
      listed.map((p: { state: string; consolidation_id: number }) => [p.state, p.consolidation_id]),
      parcels.map(() => ['shipped', consolidation.id]),
    );
    // Storage stops when the parcel leaves.
    const fee = listed[0].storage.fee.amount;
    server.clock.advance(10 * DAY);
    // Tokens do not live that long: signed in again.
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
    const later = (await api.get('/api/v1/consolidation/parcels', { token: customer })).body.parcels[0];
    assert.equal(later.storage.fee.amount, fee);
    const again = await api.post(
      `/api/v1/consolidation/consolidations/${consolidation.id}/ship`,
      {},
      { token: admin },
    );
    assert.equal(again.body.error_code, 'CONSOLIDATION_SHIPPED');
  });

  it('stacks the parcels on their largest faces when no catalog carton holds them all', () => {
    const parcel = (weight_grams: number, length_mm: number, width_mm: number, height_mm: number) =>
      ({ weight_grams, length_mm, width_mm, height_mm }) as Parameters<typeof stacked>[0][number];
    assert.deepEqual(stacked([parcel(500, 300, 200, 100), parcel(700, 120, 250, 400)]), {
      weight_grams: 500 + 700 + REPACK_ALLOWANCE_GRAMS,
      length_mm: 400,
      width_mm: 250,
      height_mm: 100 + 120,
      packaging_id: null,
    });
  });

  it('reads inbound parcels through GraphQL', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${customer}` },
    });
    const answer = await graphql.request<{
      inboundParcels: {
        total: number;
        next_cursor: string | null;
        parcels: Array<{ reference: string; state: string; items: Array<{ hs_code: string }> }>;
      };
    }>(gql`
      {
        inboundParcels(per_page: 10) {
          total
          next_cursor
          parcels {
            reference
            state
            items {
              hs_code
            }
          }
        }
      }
    `);
    assert.deepEqual(
      answer.inboundParcels.parcels.map((p) => p.reference),
      parcels.map((p) => p.reference),
    );
    assert.equal(answer.inboundParcels.total, parcels.length);
    assert.equal(answer.inboundParcels.next_cursor, null, 'one page holds them');
    // Parcels arrive without end: the list pages by cursor too, oldest first.
    const first = await api.get('/api/v1/consolidation/parcels?per_page=1', { token: customer });
    assert.equal(first.body.parcels[0].reference, parcels[0]!.reference);
    const second = await api.get(
      `/api/v1/consolidation/parcels?per_page=1&cursor=${first.body.next_cursor}`,
      {
        token: customer,
      },
    );
    assert.equal(second.body.parcels[0].reference, parcels[1]!.reference);
    assert.deepEqual([second.body.page, second.body.total], [2, parcels.length]);
  });

  it('lists inbound parcels to an agent through the list_inbound_parcels tool', async () => {
    const token = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'wms-readonly',
    });
    const mcp = new McpClient({ name: 'test-agent', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const listed = (await mcp.callTool({
        name: 'list_inbound_parcels',
        arguments: { per_page: 10 },
      })) as CallToolResult & {
        structuredContent: { parcels: Array<{ id: number }> };
      };
      assert.deepEqual(
        listed.structuredContent.parcels.map((p) => p.id),
        parcels.map((p) => p.id),
      );
    } finally {
      await mcp.close();
    }
  });
});
