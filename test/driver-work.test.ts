import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { sql } from 'kysely';
import { createTenant, DROPOFF, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { uploadProof } from './support/proofs.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DATE = '2026-11-02'; // the test clock's day in the tenant's time zone (Asia/Shanghai)
const SENDER = {
  name: 'Atelier Dupont',
  phone: '+33 1 40 00 00 00',
  line1: '3 Rue du Louvre',
  city: 'Paris',
  postal_code: '75001',
  country: 'FR',
  lat: 48.8625,
  lng: 2.3413,
};

interface Stop {
  sequence: number;
  order_id: number;
  leg: 'pickup' | 'delivery';
  status: string;
  arrived_at: string | null;
  completed_at: string | null;
  order_ref: string;
  order_status: string;
  address: { line1: string; city?: string; lat?: number };
  contact: { name: string | null; phone: string | null };
  packages: Array<{ tracking_number: string; weight_grams: number | null }>;
}

/** A driver signed in with the standard login works the stops of their route, offline-proof. */
describe('driver work', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let first: { id: number; token: string };
  let second: { id: number; token: string };
  let routeId: number;
  const orders: Record<'d1' | 'd2' | 'd3' | 'd4' | 'p' | 'p2p', { id: number; number: string }> = {} as never;
  let writes = 0;

  /** A driver write with a fresh client id and the clock's time as the device time, unless given. */
  const drive = (token: string, path: string, body: Record<string, unknown> = {}) =>
    api.post(
      `/api/v1/driver/routes/${path}`,
      {
        client_id: `w-${++writes}`,
        device_time: server.clock.now().toISOString(),
        ...body,
      },
      { token },
    );
  const myRoutes = async (token: string) => (await api.get('/api/v1/driver/routes', { token })).body;
  const timeline = async (number: string) =>
    (await api.get(`/api/v1/otep/trackings/${number}`, { token: admin })).body.data.events as Array<{
      status_code: string;
      occurred_at: string;
      pod?: Record<string, unknown>;
      incident_reason?: { code: string };
    }>;
  const orderOf = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'drive');
    admin = await login(api, tenant.emails.client_admin);
    const drivers = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: { lat: 48.85, lng: 2.35 },
      names: ['first', 'second'],
      shift: { start: '08:00', end: '22:00' },
    });
    [first, second] = drivers as [typeof first, typeof first];
    const create = async (ref: string, body: Record<string, unknown>) => {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: ref, scheduled_date: DATE, packages: [{ weight_grams: 1200 }], ...body },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return { id: created.body.order_id, number: created.body.tracking_number };
    };
    const near = (dlat: number) => ({ ...DROPOFF, lat: DROPOFF.lat + dlat });
    orders.d1 = await create('D1', { dropoff: DROPOFF, delivery_instruction: 'Code 1234' });
    orders.d2 = await create('D2', { dropoff: near(0.01) });
    orders.d3 = await create('D3', { dropoff: near(0.02) });
    orders.d4 = await create('D4', { dropoff: near(0.03) });
    orders.p = await create('P1', { type: 'P', pickup: SENDER });
    orders.p2p = await create('P2P1', {
      type: 'P2P',
      pickup: { ...SENDER, lat: 48.87 },
      dropoff: near(-0.01),
    });
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DATE, driver_ids: [first.id], time_limit_ms: 100 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.assigned, 6);
    routeId = built.body.routes[0].id;
  });
  after(() => server.close());

  it('shows the driver their route with addresses, contacts, parcels and legs, and nobody else', async () => {
    const mine = await myRoutes(first.token);
    assert.equal(mine.date, DATE);
    assert.equal(mine.routes.length, 1);
    const stops: Stop[] = mine.routes[0].stops;
    assert.equal(stops.length, 7, 'six orders, the P2P twice');
    const d1 = stops.find((s) => s.order_id === orders.d1.id)!;
    assert.equal(d1.leg, 'delivery');
    assert.deepEqual(d1.contact, { name: DROPOFF.name, phone: DROPOFF.phone });
    assert.equal(d1.address.line1, DROPOFF.line1);
    assert.equal(d1.address.lat, DROPOFF.lat);
    assert.equal((d1 as Stop & { delivery_instruction: string }).delivery_instruction, 'Code 1234');
    assert.equal(d1.packages[0]!.tracking_number, orders.d1.number);
    assert.equal(d1.packages[0]!.weight_grams, 1200);
    const p2p = stops.filter((s) => s.order_id === orders.p2p.id);
    assert.deepEqual(
      p2p.map((s) => s.leg),
      ['pickup', 'delivery'],
    );
    assert.equal(p2p[0]!.contact.name, SENDER.name, 'the pickup leg meets the sender');
    assert.equal(stops.find((s) => s.order_id === orders.p.id)!.leg, 'pickup');

    assert.deepEqual((await myRoutes(second.token)).routes, []);
    for (const answer of [
      await drive(second.token, `${routeId}/start`),
      await drive(second.token, `${routeId}/stops/${orders.d1.id}/arrive`),
      await drive(second.token, `${routeId}/finish`),
      await api.get(`/api/v1/driver/routes/${routeId}/packages/${orders.p.number}`, { token: second.token }),
    ]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    }
  });

  it('answers the same route over GraphQL', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${first.token}` },
    });
    const answer = await graphql.request<{
      myRoutes: {
        routes: Array<{ id: number; stops: Array<{ order_id: number; contact: { phone: string } }> }>;
      };
    }>(gql`
      {
        myRoutes {
          routes {
            id
            stops {
              order_id
              contact {
                phone
              }
            }
          }
        }
      }
    `);
    assert.equal(answer.myRoutes.routes[0]!.id, routeId);
    const d1 = answer.myRoutes.routes[0]!.stops.find((s) => s.order_id === orders.d1.id)!;
    assert.equal(d1.contact.phone, DROPOFF.phone);
  });

  it('refuses staff on driver operations with the error shape', async () => {
    const answer = await api.get('/api/v1/driver/routes', { token: admin });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.result, false);
    assert.equal(answer.body.error_code, 'FORBIDDEN');
    assert.equal(typeof answer.body.message, 'string');
    const write = await drive(admin, `${routeId}/start`);
    assert.equal(write.status, 403);
    assert.equal(write.body.error_code, 'FORBIDDEN');
  });

  it('starts the route: delivery orders go out for delivery, pickups stay', async () => {
    const early = await drive(first.token, `${routeId}/stops/${orders.d1.id}/arrive`);
    assert.equal(early.status, 409);
    assert.equal(early.body.error_code, 'ROUTE_NOT_STARTED');
    const startedAt = new Date(server.clock.now().getTime() - 60_000).toISOString();
    const started = await drive(first.token, `${routeId}/start`, { device_time: startedAt });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.route.status, 'started');
    assert.equal(started.body.route.started_at, startedAt);
    assert.deepEqual(
      [...started.body.out_for_delivery].sort(),
      [orders.d1.id, orders.d2.id, orders.d3.id, orders.d4.id].sort(),
    );
    assert.equal((await orderOf(orders.d1.id)).status, 'OUT_FOR_DELIVERY');
    assert.equal((await orderOf(orders.p.id)).status, 'PLANNED');
    assert.equal((await orderOf(orders.p2p.id)).status, 'PLANNED');
  });

  it('scans a package at pickup, telling which stop it belongs to', async () => {
    const scanned = await api.get(`/api/v1/driver/routes/${routeId}/packages/${orders.p.number}`, {
      token: first.token,
    });
    assert.equal(scanned.status, 200, JSON.stringify(scanned.body));
    assert.equal(scanned.body.stop.order_id, orders.p.id);
    assert.equal(scanned.body.stop.leg, 'pickup');
    const delivery = await api.get(`/api/v1/driver/routes/${routeId}/packages/${orders.d1.number}`, {
      token: first.token,
    });
    assert.equal(delivery.status, 404);
    assert.equal(delivery.body.error_code, 'PACKAGE_NOT_ON_ROUTE');
  });

  it('arrives and delivers with proof at the device time; a replay answers the same and changes nothing', async () => {
    server.clock.advance(10 * 60_000);
    const arrivedAt = new Date(server.clock.now().getTime() - 120_000).toISOString();
    const arrived = await drive(first.token, `${routeId}/stops/${orders.d1.id}/arrive`, {
      device_time: arrivedAt,
    });
    assert.equal(arrived.status, 200, JSON.stringify(arrived.body));
    assert.equal(arrived.body.stop.status, 'arrived');
    assert.equal(arrived.body.stop.arrived_at, arrivedAt);

    const deliveredAt = new Date(server.clock.now().getTime() - 60_000).toISOString();
    const signature = await uploadProof(server.baseUrl, first.token, orders.d1.id, 'signature');
    const photos = [
      await uploadProof(server.baseUrl, first.token, orders.d1.id, 'photo'),
      await uploadProof(server.baseUrl, first.token, orders.d1.id, 'photo'),
    ];
    const body = {
      client_id: 'deliver-d1',
      device_time: deliveredAt,
      outcome: 'delivered',
      recipient: 'Léa Martin',
      signature_proof_id: signature,
      photo_proof_ids: photos,
      position: { lat: 48.8607, lng: 2.3377, accuracy_meters: 8 },
    };
    const path = `/api/v1/driver/routes/${routeId}/stops/${orders.d1.id}/complete`;
    const delivered = await api.post(path, body, { token: first.token });
    assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
    assert.deepEqual(delivered.body.order, { id: orders.d1.id, status: 'DELIVERED' });
    assert.equal(delivered.body.stop.status, 'done');
    assert.equal(delivered.body.stop.completed_at, deliveredAt);
    assert.equal(delivered.body.stop.arrived_at, arrivedAt);
    const events = await timeline(orders.d1.number);
    const event = events.find((e) => e.status_code === 'delivered')!;
    assert.equal(new Date(event.occurred_at).getTime(), new Date(deliveredAt).getTime());
    assert.equal(event.pod?.recipient, 'Léa M.', 'the timeline shortens the name');
    // The proof files travel with the status change; the proofs module shows them on the timeline.
    const { rows } = await sql<{ pod: Record<string, unknown> }>`
      SELECT details->'pod' AS pod FROM tracking_events
      WHERE tracking_number = ${orders.d1.number} AND status_code = 'delivered'
    `.execute(server.db);
    assert.deepEqual(rows[0]!.pod, {
      recipient: 'Léa Martin',
      signature_proof_id: signature,
      photo_proof_ids: photos,
    });

    const trail = async () =>
      (await api.post('/api/v1/tracking/operationevents', { order_ids: [orders.d1.id] }, { token: admin }))
        .body.events.length;
    const trailBefore = await trail();
    server.clock.advance(60_000);
    const replay = await api.post(path, body, { token: first.token });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, delivered.body);
    assert.equal((await timeline(orders.d1.number)).length, events.length, 'no second tracking event');
    assert.equal(await trail(), trailBefore, 'no second audit trail row');

    const reused = await drive(first.token, `${routeId}/stops/${orders.d2.id}/arrive`, {
      client_id: 'deliver-d1',
    });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error_code, 'CLIENT_ID_REUSED');
    const again = await drive(first.token, `${routeId}/stops/${orders.d1.id}/complete`, {
      outcome: 'delivered',
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error_code, 'STOP_ALREADY_COMPLETED');
  });

  it('answers two concurrent sends of one write once', async () => {
    const body = { client_id: 'arrive-d2', device_time: server.clock.now().toISOString() };
    const path = `/api/v1/driver/routes/${routeId}/stops/${orders.d2.id}/arrive`;
    const [a, b] = await Promise.all([
      api.post(path, body, { token: first.token }),
      api.post(path, body, { token: first.token }),
    ]);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.deepEqual(b.body, a.body);
  });

  it('forgets a kept write 8 days on, when a replay of it could no longer be taken', async () => {
    const old = new Date(server.clock.now().getTime() - 8 * 24 * 3_600_000 - 60_000);
    await sql`
      INSERT INTO driver_writes (driver_user_id, client_id, business_id, operation, route_id, answer, created_at)
      VALUES (${first.id}, 'week-old', ${tenant.businessId}, 'arrive_at_stop', ${routeId}, '{}', ${old})
    `.execute(server.db);
    assert.equal(await server.app.services.driverWork.pruneWrites(server.db), 1);
    const { rows } = await sql<{ client_id: string }>`
      SELECT client_id FROM driver_writes WHERE driver_user_id = ${first.id}
    `.execute(server.db);
    const kept = rows.map((row) => row.client_id);
    assert.ok(!kept.includes('week-old'));
    assert.ok(kept.includes('arrive-d2') && kept.includes('deliver-d1'), 'recent writes stay');
  });

  it('fails a delivery with an incident reason from the codebook', async () => {
    const missing = await drive(first.token, `${routeId}/stops/${orders.d2.id}/complete`, {
      outcome: 'failed',
    });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error_code, 'VALIDATION_FAILED');
    const failed = await drive(first.token, `${routeId}/stops/${orders.d2.id}/complete`, {
      outcome: 'failed',
      reason: { code: 'recipient_absent', message: 'Nobody home' },
      photo_proof_ids: [await uploadProof(server.baseUrl, first.token, orders.d2.id, 'photo')],
    });
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    assert.equal(failed.body.order.status, 'FAILED_ATTEMPT');
    assert.equal(failed.body.stop.status, 'failed');
    const event = (await timeline(orders.d2.number)).find((e) => e.status_code === 'delivery_failed')!;
    assert.deepEqual(event.incident_reason, { code: 'recipient_absent', message: 'Nobody home' });
  });

  it('picks up a P2P order, then delivers it; picks up a P order; refuses an outcome for the wrong leg', async () => {
    const wrong = await drive(first.token, `${routeId}/stops/${orders.p.id}/complete`, {
      outcome: 'delivered',
    });
    assert.equal(wrong.status, 404, 'a P order has no delivery stop');
    assert.equal(wrong.body.error_code, 'STOP_NOT_FOUND');
    const mismatch = await drive(first.token, `${routeId}/stops/${orders.p2p.id}/complete`, {
      outcome: 'picked_up',
      leg: 'delivery',
    });
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.body.error_code, 'OUTCOME_NOT_FOR_LEG');

    const picked = await drive(first.token, `${routeId}/stops/${orders.p2p.id}/complete`, {
      outcome: 'picked_up',
    });
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    assert.equal(picked.body.stop.leg, 'pickup');
    assert.equal(picked.body.order.status, 'PICKED_UP');
    const delivered = await drive(first.token, `${routeId}/stops/${orders.p2p.id}/complete`, {
      outcome: 'delivered',
      recipient: 'Front desk',
    });
    assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
    assert.equal(delivered.body.stop.leg, 'delivery');
    assert.equal(delivered.body.order.status, 'DELIVERED');
    const codes = (await timeline(orders.p2p.number)).map((e) => e.status_code);
    assert.deepEqual(codes.slice(-2), ['picked_up', 'delivered']);

    const pickup = await drive(first.token, `${routeId}/stops/${orders.p.id}/complete`, {
      outcome: 'picked_up',
    });
    assert.equal(pickup.status, 200, JSON.stringify(pickup.body));
    assert.equal((await orderOf(orders.p.id)).status, 'PICKED_UP');
  });

  it('keeps the device time of a write that arrives late, and refuses one from the future or too old', async () => {
    const future = await drive(first.token, `${routeId}/stops/${orders.d3.id}/arrive`, {
      device_time: new Date(server.clock.now().getTime() + 10 * 60_000).toISOString(),
    });
    assert.equal(future.status, 422);
    assert.equal(future.body.error_code, 'DEVICE_TIME_OUT_OF_RANGE');
    assert.ok(future.body.message.includes('5'));
    const stale = await drive(first.token, `${routeId}/stops/${orders.d3.id}/arrive`, {
      device_time: new Date(server.clock.now().getTime() - 8 * 24 * 3_600_000).toISOString(),
    });
    assert.equal(stale.status, 422);
    assert.equal(stale.body.error_code, 'DEVICE_TIME_OUT_OF_RANGE');

    // An arrival stamped two hours before the route started is not believed; one a few minutes
    // before it is the clocks disagreeing, and is kept.
    const { started_at: startedAt } = (await drive(first.token, `${routeId}/start`)).body.route;
    const backDated = await drive(first.token, `${routeId}/stops/${orders.d3.id}/arrive`, {
      device_time: new Date(new Date(startedAt).getTime() - 2 * 3_600_000).toISOString(),
    });
    assert.equal(backDated.status, 422, JSON.stringify(backDated.body));
    assert.equal(backDated.body.error_code, 'DEVICE_TIME_BEFORE_ROUTE_START');
    assert.equal(backDated.body.details.route_started_at, startedAt);
    const skewed = await drive(first.token, `${routeId}/stops/${orders.d3.id}/arrive`, {
      device_time: new Date(new Date(startedAt).getTime() - 3 * 60_000).toISOString(),
    });
    assert.equal(skewed.status, 200, JSON.stringify(skewed.body));

    // Delivered at 18:00 local, sent once the phone found signal two hours later.
    const deliveredAt = new Date(server.clock.now().getTime() + 60_000);
    server.clock.advance(2 * 3_600_000);
    const late = await drive(first.token, `${routeId}/stops/${orders.d3.id}/complete`, {
      outcome: 'delivered',
      device_time: deliveredAt.toISOString().replace('Z', '+00:00'),
    });
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.equal(late.body.stop.completed_at, deliveredAt.toISOString());
    const event = (await timeline(orders.d3.number)).find((e) => e.status_code === 'delivered')!;
    assert.equal(new Date(event.occurred_at).getTime(), deliveredAt.getTime());
  });

  it('stores positions in batches of at most 100', async () => {
    const at = (minutes: number) => new Date(server.clock.now().getTime() - minutes * 60_000).toISOString();
    const stored = await api.post(
      `/api/v1/driver/routes/${routeId}/positions`,
      {
        client_id: 'positions-1',
        positions: [
          { lat: 48.85, lng: 2.35, accuracy_meters: 5, device_time: at(3) },
          { lat: 48.851, lng: 2.351, device_time: at(2) },
          { lat: 48.852, lng: 2.352, device_time: at(1) },
        ],
      },
      { token: first.token },
    );
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.equal(stored.body.stored, 3);
    const tooMany = await api.post(
      `/api/v1/driver/routes/${routeId}/positions`,
      {
        client_id: 'positions-2',
        positions: Array.from({ length: 101 }, () => ({ lat: 48.85, lng: 2.35, device_time: at(1) })),
      },
      { token: first.token },
    );
    assert.equal(tooMany.status, 422);
    const { rows } = await sql<{ n: number; completions: number }>`
      SELECT count(*)::int AS n, count(order_id)::int AS completions FROM driver_positions WHERE route_id = ${routeId}
    `.execute(server.db);
    assert.deepEqual(rows[0], { n: 4, completions: 1 }, 'three reported, one with the delivery of D1');
  });

  it('finishes the route, reporting the stop still open and leaving it as it is', async () => {
    const finished = await drive(first.token, `${routeId}/finish`);
    assert.equal(finished.status, 200, JSON.stringify(finished.body));
    assert.equal(finished.body.route.status, 'finished');
    assert.deepEqual(
      finished.body.open_stops.map((s: { order_id: number; status: string }) => [s.order_id, s.status]),
      [[orders.d4.id, 'pending']],
    );
    assert.equal((await orderOf(orders.d4.id)).status, 'OUT_FOR_DELIVERY');
    const after = await drive(first.token, `${routeId}/stops/${orders.d4.id}/arrive`);
    assert.equal(after.status, 409);
    assert.equal(after.body.error_code, 'ROUTE_FINISHED');
  });

  it('takes the route from its former driver at once when it is reassigned', async () => {
    await sql`UPDATE routes SET driver_user_id = ${second.id} WHERE id = ${routeId}`.execute(server.db);
    await sql`UPDATE orders SET driver_user_id = ${second.id} WHERE route_id = ${routeId}`.execute(server.db);
    assert.deepEqual((await myRoutes(first.token)).routes, []);
    assert.equal((await myRoutes(second.token)).routes[0].id, routeId);
    const positions = await api.post(
      `/api/v1/driver/routes/${routeId}/positions`,
      {
        client_id: 'positions-3',
        positions: [{ lat: 48.85, lng: 2.35, device_time: server.clock.now().toISOString() }],
      },
      { token: first.token },
    );
    assert.equal(positions.status, 404);
    assert.equal(positions.body.error_code, 'ROUTE_NOT_FOUND');
    const replay = await api.post(
      `/api/v1/driver/routes/${routeId}/positions`,
      {
        client_id: 'positions-1',
        positions: [{ lat: 48.85, lng: 2.35, device_time: server.clock.now().toISOString() }],
      },
      { token: first.token },
    );
    assert.equal(replay.status, 404, 'even a replay of an earlier write');
  });
});
