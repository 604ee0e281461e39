import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, deliverWithProof, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** An address nobody has placed: no coordinates, and nothing of the business's own knows it. */
const NOWHERE = {
  name: 'Léa Martin',
  phone: '+33 6 12 34 56 78',
  line1: '3 Impasse Inconnue',
  city: 'Paris',
};
/** The street line of the business's head office, which its address book has placed. */
const HEAD_OFFICE = { line1: '12 Rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'FR' };
const HEAD_OFFICE_AT = { lat: 48.8606, lng: 2.3376 };

describe('orders that cannot be placed on the map', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let other: string;

  const create = (body: unknown, headers: Record<string, string> = {}) =>
    api.post('/api/v1/client/orderCreate', body, { token: admin, headers });
  const setLocation = (orderId: number, body: unknown, token = admin) =>
    api.call('PUT', `/api/v1/client/orders/${orderId}/location`, { token, body });
  const needing = async (query = '') => {
    const answer = await api.get(`/api/v1/client/orders/needs-location${query}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { total: number; orders: Array<{ missing: string[]; order: { id: number } }> };
  };
  const missingOf = async (orderId: number, query = '') =>
    (await needing(query)).orders.find((row) => row.order.id === orderId)?.missing;
  const detail = async (orderId: number) =>
    (await api.get(`/api/v1/client/orders/${orderId}`, { token: admin })).body.order;
  const unplaced = async (date = '2026-11-20') => {
    const created = await create({ scheduled_date: date, dropoff: NOWHERE });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.orders[0];
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'locations');
    admin = await login(api, tenant.emails.client_admin);
    const elsewhere = await createTenant(server.db, server.app.services, 'elsewhere');
    other = await login(api, elsewhere.emails.client_admin);
    const saved = await api.post(
      '/api/v1/client/addresses',
      { label: 'Head office', ...HEAD_OFFICE, ...HEAD_OFFICE_AT },
      { token: admin },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => server.close());

  it('creates an order it cannot place, with a location_missing warning in the caller language', async () => {
    const answer = await create({ order_ref: 'LOC-1', scheduled_date: '2026-11-20', dropoff: NOWHERE });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [order] = answer.body.orders;
    assert.equal(order.status, 'NEW_ORDER');
    assert.equal(order.dropoff.lat, undefined);
    assert.equal(answer.body.warnings.length, 1);
    const [warning] = answer.body.warnings;
    assert.deepEqual(
      { code: warning.code, field: warning.field, order_id: warning.order_id },
      { code: 'location_missing', field: 'dropoff', order_id: order.id },
    );
    assert.match(warning.message, /drop-off address could not be placed/);

    const french = await create({ type: 'P', pickup: NOWHERE }, { 'accept-language': 'fr' });
    assert.equal(french.body.warnings[0].field, 'pickup');
    assert.match(french.body.warnings[0].message, /adresse d'enlèvement n'a pas pu être placée/);

    // A customer booking for itself is told the same.
    const customer = await login(api, tenant.emails.customer);
    const booked = await api.post('/api/v1/client/orderCreate', { dropoff: NOWHERE }, { token: customer });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    assert.equal(booked.body.warnings[0].field, 'dropoff');
  });

  it("places an address at creation where the business's own places know it, and then warns of nothing", async () => {
    const answer = await create({ dropoff: { name: 'Reception', ...HEAD_OFFICE } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.warnings, []);
    const { dropoff } = answer.body.orders[0];
    assert.deepEqual([dropoff.lat, dropoff.lng, dropoff.name], [48.8606, 2.3376, 'Reception']);
    const given = await create({ dropoff: { line1: 'Anywhere', lat: 45.75, lng: 4.85 } });
    assert.deepEqual(given.body.warnings, []);
  });

  it('warns each order of a bulk creation on its own, in French when asked', async () => {
    const bulk = await api.post(
      '/api/v1/client/orders/bulk',
      {
        orders: [
          { order_ref: 'BULK-D', dropoff: NOWHERE },
          {
            order_ref: 'BULK-P2P',
            type: 'P2P',
            pickup: NOWHERE,
            dropoff: { line1: 'Placed', lat: 48.85, lng: 2.35 },
          },
          { order_ref: 'BULK-OK', dropoff: { line1: 'Placed', lat: 48.85, lng: 2.35 } },
          { order_ref: 'BULK-BAD', type: 'P' },
        ],
      },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.deepEqual([bulk.body.created, bulk.body.failed], [3, 1]);
    const [d, p2p, ok, bad] = bulk.body.results;
    assert.deepEqual(
      d.warnings.map((w: { field: string }) => w.field),
      ['dropoff'],
    );
    assert.match(d.warnings[0].message, /adresse de livraison/);
    assert.equal(d.warnings[0].order_id, d.order_id);
    assert.deepEqual(
      p2p.warnings.map((w: { field: string }) => w.field),
      ['pickup'],
    );
    assert.deepEqual(ok.warnings, []);
    assert.equal(bad.success, false);
    assert.equal(bad.warnings, undefined);
    assert.deepEqual(await missingOf(p2p.order_id), ['pickup']);
  });

  it('lists open orders needing a location by date, and fixes one by coordinates in place', async () => {
    const order = await unplaced('2026-11-21');
    const placed = (await create({ scheduled_date: '2026-11-21', dropoff: { line1: 'X', lat: 1, lng: 2 } }))
      .body.orders[0];
    const ofTheDay = await needing('?scheduled_date=2026-11-21');
    assert.deepEqual(
      ofTheDay.orders.map((row) => [row.order.id, row.missing]),
      [[order.id, ['dropoff']]],
    );
    assert.equal(ofTheDay.total, 1);
    assert.ok(!ofTheDay.orders.some((row) => row.order.id === placed.id));
    const paged = await needing('?per_page=1&page=2');
    assert.equal(paged.orders.length, 1);
    assert.ok(paged.total >= 3);

    const fixed = await setLocation(order.id, { lat: 48.87, lng: 2.31 });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    assert.equal(fixed.body.leg, 'dropoff');
    assert.deepEqual(
      [fixed.body.route_id, fixed.body.route_times_stale, fixed.body.hint],
      [null, false, null],
    );
    const after = fixed.body.order;
    assert.deepEqual(
      [after.id, after.order_ref, after.packages.map((p: { tracking_number: string }) => p.tracking_number)],
      [order.id, order.order_ref, order.packages.map((p: { tracking_number: string }) => p.tracking_number)],
    );
    assert.deepEqual(after.dropoff, { ...NOWHERE, lat: 48.87, lng: 2.31 });
    assert.equal(await missingOf(order.id, '?scheduled_date=2026-11-21'), undefined);

    const history = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [order.id] },
      { token: admin },
    );
    const event = history.body.events.find((e: { action: string }) => e.action === 'location_updated');
    assert.ok(event, JSON.stringify(history.body.events));
    assert.deepEqual(event.changes.dropoff, { from: NOWHERE, to: { ...NOWHERE, lat: 48.87, lng: 2.31 } });
    assert.equal(event.actor.id, tenant.userIds.client_admin);
  });

  it("fixes a leg by a corrected address the business's own places know, keeping the contact", async () => {
    const order = await unplaced();
    const fixed = await setLocation(order.id, { leg: 'dropoff', address: HEAD_OFFICE });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    assert.deepEqual(fixed.body.order.dropoff, {
      ...HEAD_OFFICE,
      name: NOWHERE.name,
      phone: NOWHERE.phone,
      ...HEAD_OFFICE_AT,
    });
    assert.equal(await missingOf(order.id), undefined);
  });

  it('refuses a corrected address nobody can place, and changes nothing', async () => {
    const order = await unplaced();
    const before = await detail(order.id);
    const refused = await api.call('PUT', `/api/v1/client/orders/${order.id}/location`, {
      token: admin,
      body: { address: { line1: '99 Rue Imaginaire', city: 'Nulle Part' } },
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'ADDRESS_NOT_PLACEABLE');
    assert.match(refused.body.message, /géocodeur/);
    assert.deepEqual(await detail(order.id), before);
    const history = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [order.id] },
      { token: admin },
    );
    assert.deepEqual(
      history.body.events.map((e: { action: string }) => e.action),
      ['created'],
    );
    assert.deepEqual(await missingOf(order.id), ['dropoff']);
  });

  it('refuses a change once the order is out for delivery or delivered, and a pickup once picked up', async () => {
    const out = await unplaced();
    for (const status of ['PICKED_UP', 'OUT_FOR_DELIVERY']) {
      await api.post(`/api/v1/client/orders/${out.id}/status`, { status }, { token: admin });
    }
    const refused = await setLocation(out.id, { lat: 48.8, lng: 2.3 });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'ORDER_LOCATION_LOCKED');
    assert.deepEqual(
      [refused.body.details.leg, refused.body.details.status],
      ['dropoff', 'OUT_FOR_DELIVERY'],
    );
    assert.equal((await detail(out.id)).dropoff.lat, undefined);

    const delivered = await unplaced();
    await deliverWithProof(api, admin, server.clock, delivered.id);
    const late = await setLocation(delivered.id, { lat: 48.8, lng: 2.3 });
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'ORDER_LOCATION_LOCKED');
    assert.equal(await missingOf(delivered.id), undefined, 'an end state is off the list');

    // Picked up: the drop-off may still be fixed, the pickup is history.
    const p2p = (
      await create({
        type: 'P2P',
        pickup: NOWHERE,
        dropoff: NOWHERE,
      })
    ).body.orders[0];
    await api.post(`/api/v1/client/orders/${p2p.id}/status`, { status: 'PICKED_UP' }, { token: admin });
    assert.deepEqual(await missingOf(p2p.id), ['dropoff', 'pickup']);
    const pickup = await setLocation(p2p.id, { leg: 'pickup', lat: 48.8, lng: 2.3 });
    assert.equal(pickup.status, 409);
    const dropoff = await setLocation(p2p.id, { lat: 48.81, lng: 2.31 });
    assert.equal(dropoff.status, 200, JSON.stringify(dropoff.body));
    assert.equal(dropoff.body.leg, 'dropoff');

    const noPickup = await setLocation((await unplaced()).id, { leg: 'pickup', lat: 1, lng: 1 });
    assert.equal(noPickup.status, 422);
    assert.equal(noPickup.body.error_code, 'ORDER_LEG_UNUSED');
  });

  it("keeps another business's orders out of reach: 404, and never listed", async () => {
    const order = await unplaced();
    const foreign = await setLocation(order.id, { lat: 48.8, lng: 2.3 }, other);
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    assert.equal(foreign.body.error_code, 'ORDER_NOT_FOUND');
    const theirs = await api.get('/api/v1/client/orders/needs-location', { token: other });
    assert.equal(theirs.body.total, 0);
    assert.equal((await detail(order.id)).dropoff.lat, undefined);
  });

  it("leaves a planned order's stop on its route and says the route's times are stale", async () => {
    const depot = await api.post(
      '/api/v1/client/depots',
      { name: 'Hub', lat: 48.85, lng: 2.35 },
      { token: admin },
    );
    const driverId = await server.app.services.accounts.createUser(server.db, {
      kind: 'driver',
      email: 'van@locations.test',
      name: 'Van',
      password: null,
      businessId: tenant.businessId,
    });
    await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
      token: admin,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 100_000, volume_cm3: 10_000_000, count: 10 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    const order = (
      await create({ scheduled_date: '2026-11-30', dropoff: { line1: 'Door', lat: 48.86, lng: 2.36 } })
    ).body.orders[0];
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-30', driver_ids: [driverId] },
      { token: admin },
    );
    assert.equal(built.body.totals.assigned, 1, JSON.stringify(built.body));
    const routeId = built.body.routes[0].id;

    const moved = await setLocation(order.id, { lat: 48.87, lng: 2.37 });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual([moved.body.route_id, moved.body.route_times_stale], [routeId, true]);
    assert.match(moved.body.hint, new RegExp(`route ${routeId}.*re-sequence`));
    assert.equal(moved.body.order.status, 'PLANNED');
    const route = (await api.get(`/api/v1/client/routes/${routeId}`, { token: admin })).body.route;
    assert.deepEqual(
      route.stops.map((stop: { order_id: number }) => stop.order_id),
      [order.id],
    );
  });

  it('answers the list and the fix over GraphQL', async () => {
    const order = await unplaced('2026-12-01');
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const listed = await graphql.request<{
      ordersNeedingLocation: { total: number; orders: Array<{ missing: string[]; order: { id: number } }> };
    }>(gql`
      query {
        ordersNeedingLocation(scheduled_date: "2026-12-01") {
          total
          orders {
            missing
            order {
              id
            }
          }
        }
      }
    `);
    assert.deepEqual(listed.ordersNeedingLocation, {
      total: 1,
      orders: [{ missing: ['dropoff'], order: { id: order.id } }],
    });
    const fixed = await graphql.request<{
      setOrderLocation: { leg: string; order: { dropoff: { lat: number; lng: number } } };
    }>(
      gql`
        mutation ($id: Int!) {
          setOrderLocation(order_id: $id, lat: 48.9, lng: 2.4) {
            leg
            order {
              dropoff {
                lat
                lng
              }
            }
          }
        }
      `,
      { id: order.id },
    );
    assert.deepEqual(fixed.setOrderLocation, { leg: 'dropoff', order: { dropoff: { lat: 48.9, lng: 2.4 } } });
  });
});
