import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { pngImage, uploadProof } from './support/proofs.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// A whole working day over HTTP with real tokens, as the people who run it live it: the
// dispatcher plans and edits, three drivers work their stops, the customer sees the proof, and
// the day's figures and audit trail say what happened. The tenant's time zone is Asia/Shanghai.

const DAY = '2026-11-03';
/** 07:00 on the day in Shanghai. */
const SEVEN_AM = new Date('2026-11-02T23:00:00Z');
const DEPOT = { lat: 31.2304, lng: 121.4737 };

interface RouteView {
  id: number;
  driver: { id: number };
  locked: boolean;
  status: string;
  departure: string;
  duration_minutes: number;
  stops: Array<{ order_id: number; leg: 'pickup' | 'delivery'; sequence: number; status: string }>;
}

describe('a working day, end to end', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const drivers: Array<{ id: number; token: string }> = [];
  /** Order id to its reference and tracking number. */
  const orders = new Map<number, { ref: string; number: string }>();
  let unplaced: number;
  let p2p: number;
  let routes: RouteView[];
  let locked: RouteView;
  let movedOrder: number;
  let lateOrder: number;
  let writes = 0;

  const driverOf = (route: RouteView) => drivers.find((driver) => driver.id === route.driver.id)!;
  const routesOfDay = async (): Promise<RouteView[]> =>
    (await api.get(`/api/v1/client/routes?date=${DAY}`, { token: admin })).body.routes;
  const drive = (token: string, path: string, body: Record<string, unknown> = {}) =>
    api.post(
      `/api/v1/driver/routes/${path}`,
      { client_id: `day-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
      { token },
    );
  const eventsOf = async (orderId: number) =>
    (await api.get(`/api/v1/otep/trackings/${orders.get(orderId)!.number}`, { token: admin })).body.data
      .events as Array<{ status_code: string }>;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'day');
    admin = await login(api, tenant.emails.client_admin);
    server.clock.set(SEVEN_AM);
    drivers.push(
      ...(await signedInDriversAtDepot(server, api, tenant, admin, {
        depot: DEPOT,
        names: ['van1', 'van2', 'van3'],
        shift: { start: '08:00', end: '18:00' },
        volumeCm3: 50_000_000,
      })),
    );
  });
  after(() => server.close());

  it('takes 30 orders; the one that cannot be placed is warned of, listed, and placed without cancelling', async () => {
    const at = (n: number) => ({
      name: `Customer ${n}`,
      phone: `+86 21 5555 ${String(1000 + n)}`,
      line1: `${n} Nanjing Road`,
      city: 'Shanghai',
      country: 'CN',
      lat: DEPOT.lat + 0.004 * Math.cos(n) * (1 + (n % 5)),
      lng: DEPOT.lng + 0.004 * Math.sin(n) * (1 + (n % 5)),
    });
    const input = Array.from({ length: 28 }, (_, n) => ({
      order_ref: `DAY-${n + 1}`,
      scheduled_date: DAY,
      dropoff: at(n + 1),
      time_window: { start: '08:00', end: '17:00' },
      packages: [{ weight_grams: 2000 }],
    }));
    input.push({
      order_ref: 'DAY-P2P',
      scheduled_date: DAY,
      type: 'P2P',
      pickup: { ...at(40), name: 'Sender shop' },
      dropoff: at(41),
      packages: [{ weight_grams: 1500 }],
    } as never);
    input.push({
      order_ref: 'DAY-NOWHERE',
      scheduled_date: DAY,
      dropoff: { name: 'Mystery', line1: '999 Unknown Lane', city: 'Nowhere' },
      packages: [{ weight_grams: 1000 }],
    } as never);
    const bulk = await api.post('/api/v1/client/orders/bulk', { orders: input }, { token: admin });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body).slice(0, 400));
    assert.equal(bulk.body.failed, 0);
    for (const result of bulk.body.results) {
      orders.set(result.order_id, { ref: result.order_ref, number: result.tracking_numbers[0] });
    }
    const warned = bulk.body.results.filter((r: { warnings: unknown[] }) => r.warnings.length > 0);
    assert.equal(warned.length, 1, 'only the unknown address is warned of');
    assert.equal(warned[0].warnings[0].code, 'location_missing');
    unplaced = warned[0].order_id;
    p2p = bulk.body.results[28].order_id;

    const needing = await api.get(`/api/v1/client/orders/needs-location?scheduled_date=${DAY}`, {
      token: admin,
    });
    assert.deepEqual(
      needing.body.orders.map((row: { order: { id: number } }) => row.order.id),
      [unplaced],
    );
    const placed = await api.call('PUT', `/api/v1/client/orders/${unplaced}/location`, {
      token: admin,
      body: { lat: DEPOT.lat + 0.01, lng: DEPOT.lng + 0.01 },
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.order.id, unplaced, 'the same order, not a copy');
    const after = await api.get(`/api/v1/client/orders/needs-location?scheduled_date=${DAY}`, {
      token: admin,
    });
    assert.equal(after.body.orders.length, 0);
  });

  it('builds balanced routes at 07:00 for the three drivers, none leaving before now plus preparation', async () => {
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DAY, objective: 'balanced', time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 400));
    assert.equal(built.body.totals.assigned, 30, JSON.stringify(built.body.unassigned));
    assert.equal(built.body.routes.length, 3, 'balanced uses every driver');
    routes = built.body.routes;
    for (const route of routes) {
      assert.ok(route.departure >= '07:30', `route ${route.id} leaves at ${route.departure}`);
      assert.ok(route.stops.length >= 5, 'no route is left nearly empty');
    }
  });

  it('locks a route, moves a stop, and fits a late order into a route that passes by', async () => {
    [locked] = routes as [RouteView];
    const lock = await api.post(`/api/v1/client/routes/${locked.id}/lock`, {}, { token: admin });
    assert.equal(lock.status, 200, JSON.stringify(lock.body));

    const [, from, to] = routes as [RouteView, RouteView, RouteView];
    movedOrder = from.stops.find((stop) => stop.order_id !== p2p)!.order_id;
    const moved = await api.post(
      `/api/v1/client/routes/${from.id}/stops/${movedOrder}/move`,
      { to_route_id: to.id, confirm_violations: true },
      { token: admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const [afterFrom, afterTo] = [
      moved.body.routes.find((r: RouteView) => r.id === from.id),
      moved.body.routes.find((r: RouteView) => r.id === to.id),
    ];
    assert.ok(afterTo.stops.some((stop: { order_id: number }) => stop.order_id === movedOrder));
    assert.ok(!afterFrom.stops.some((stop: { order_id: number }) => stop.order_id === movedOrder));

    // A late order a few meters from one of the second route's stops.
    const neighbour = (
      await api.get(`/api/v1/client/orders/${from.stops.at(-1)!.order_id}`, { token: admin })
    ).body.order;
    const late = await api.post(
      '/api/v1/client/orderCreate',
      {
        order_ref: 'DAY-LATE',
        scheduled_date: DAY,
        dropoff: { ...neighbour.dropoff, line1: 'Next door', lat: neighbour.dropoff.lat + 0.0002 },
        packages: [{ weight_grams: 800 }],
      },
      { token: admin },
    );
    assert.equal(late.status, 200, JSON.stringify(late.body));
    lateOrder = late.body.order_id;
    orders.set(lateOrder, { ref: 'DAY-LATE', number: late.body.tracking_number });
    const assigned = await api.post(
      `/api/v1/client/routes/${from.id}/stops`,
      { order_id: lateOrder },
      {
        token: admin,
      },
    );
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.deepEqual(assigned.body.violations, []);
    const day = await routesOfDay();
    assert.equal(day.length, 3, 'the late order made no new route');
    assert.ok(day.find((route) => route.id === from.id)!.stops.some((stop) => stop.order_id === lateOrder));
  });

  it('rebuilds: the locked route stays as it was, the others are planned again with every order', async () => {
    const before = (await routesOfDay()).find((route) => route.id === locked.id)!;
    const rebuilt = await api.post(
      '/api/v3/client/build-route',
      { date: DAY, objective: 'balanced', time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body).slice(0, 400));
    assert.deepEqual(rebuilt.body.rebuild.kept_route_ids, [locked.id]);
    const day = await routesOfDay();
    const kept = day.find((route) => route.id === locked.id)!;
    assert.deepEqual(kept.stops, before.stops, 'the locked route is untouched');
    assert.equal(kept.locked, true);
    const planned = day.flatMap((route) => route.stops.map((stop) => stop.order_id));
    assert.equal(new Set(planned).size, 31, 'every order, the late one included, is on a route');
    routes = day;
  });

  it('lets the three drivers work their stops: deliver with proof, fail one, pick up a P2P leg, replay offline', async () => {
    server.clock.set(new Date('2026-11-03T00:30:00Z')); // 08:30 in Shanghai
    const delivered: number[] = [];
    let failed: number | undefined;
    for (const route of routes) {
      const driver = driverOf(route);
      const mine = await api.get(`/api/v1/driver/routes?date=${DAY}`, { token: driver.token });
      assert.deepEqual(
        mine.body.routes.map((r: { id: number }) => r.id),
        [route.id],
      );
      const first = mine.body.routes[0].stops[0];
      assert.ok(first.address.line1 && first.contact.name, 'the driver sees where and whom');

      // Another driver cannot touch this route's stops.
      const stranger = drivers.find((other) => other.id !== driver.id)!;
      const refused = await drive(stranger.token, `${route.id}/stops/${first.order_id}/arrive`);
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error_code, 'ROUTE_NOT_FOUND');

      const started = await drive(driver.token, `${route.id}/start`);
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const todo = route.stops.filter((stop) => stop.order_id !== p2p).slice(0, 2);
      for (const [index, stop] of todo.entries()) {
        server.clock.advance(15 * 60_000);
        const arrived = await drive(driver.token, `${route.id}/stops/${stop.order_id}/arrive`);
        assert.equal(arrived.status, 200, JSON.stringify(arrived.body));
        if (failed === undefined && index === 1) {
          const failure = await drive(driver.token, `${route.id}/stops/${stop.order_id}/complete`, {
            outcome: 'failed',
            reason: { code: 'recipient_absent', message: 'Nobody answered' },
          });
          assert.equal(failure.status, 200, JSON.stringify(failure.body));
          assert.equal(failure.body.order.status, 'FAILED_ATTEMPT');
          failed = stop.order_id;
          continue;
        }
        const signature = await uploadProof(server.baseUrl, driver.token, stop.order_id, 'signature');
        const photo = await uploadProof(server.baseUrl, driver.token, stop.order_id, 'photo');
        const body = {
          client_id: `deliver-${stop.order_id}`,
          device_time: server.clock.now().toISOString(),
          outcome: 'delivered',
          recipient: 'Wang Fang',
          signature_proof_id: signature,
          photo_proof_ids: [photo],
        };
        const path = `/api/v1/driver/routes/${route.id}/stops/${stop.order_id}/complete`;
        const done = await api.post(path, body, { token: driver.token });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.order.status, 'DELIVERED');
        delivered.push(stop.order_id);
        if (delivered.length === 1) {
          // The phone lost signal and sends the same write again later: one effect.
          const events = (await eventsOf(stop.order_id)).length;
          server.clock.advance(60_000);
          const replay = await api.post(path, body, { token: driver.token });
          assert.deepEqual(replay.body, done.body);
          assert.equal((await eventsOf(stop.order_id)).length, events);
        }
      }
    }
    assert.equal(delivered.length, 5);
    assert.ok(failed);

    // The P2P order's pickup leg: its driver scans the parcel at the sender's and picks it up.
    const p2pRoute = routes.find((route) => route.stops.some((stop) => stop.order_id === p2p))!;
    const p2pDriver = driverOf(p2pRoute);
    const number = orders.get(p2p)!.number;
    const scanned = await api.get(`/api/v1/driver/routes/${p2pRoute.id}/packages/${number}`, {
      token: p2pDriver.token,
    });
    assert.equal(scanned.status, 200, JSON.stringify(scanned.body));
    const pickedUp = await drive(p2pDriver.token, `${p2pRoute.id}/stops/${p2p}/complete`, {
      leg: 'pickup',
      outcome: 'picked_up',
    });
    assert.equal(pickedUp.status, 200, JSON.stringify(pickedUp.body));
    assert.equal(pickedUp.body.order.status, 'PICKED_UP');

    // The public tracking answer and page show the proof through signed links only.
    const proofOf = delivered[0]!;
    const tracking = await api.get(`/api/v1/tracking/${orders.get(proofOf)!.number}`);
    const proof = tracking.body.proof_of_delivery ?? tracking.body.data?.proof_of_delivery;
    assert.ok(proof?.signature_url, JSON.stringify(tracking.body).slice(0, 600));
    assert.match(proof.signature_url, /\/api\/v1\/proofs\/\d+\?expires=\d+&signature=/);
    const image = await fetch(
      new URL(new URL(proof.photo_urls[0]).pathname + new URL(proof.photo_urls[0]).search, server.baseUrl),
    );
    assert.equal(image.status, 200);
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), pngImage());
    const page = await fetch(`${server.baseUrl}/track/${orders.get(proofOf)!.number}`);
    assert.match(await page.text(), /<img[^>]+\/api\/v1\/proofs\/\d+\?expires=/);

    // The day's figures and the audit trail say what happened.
    const summary = await api.get(`/api/v1/analytics/orders-summary?from=${DAY}&to=${DAY}`, { token: admin });
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
    assert.equal(summary.body.delivered, 5);
    assert.equal(summary.body.failed_attempts, 1);
    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [movedOrder, lateOrder, proofOf] },
      { token: admin },
    );
    const actions = (orderId: number) =>
      trail.body.events
        .filter((event: { order_id: number }) => event.order_id === orderId)
        .map((event: { action: string }) => event.action);
    assert.ok(actions(lateOrder).includes('created'));
    assert.ok(
      actions(movedOrder).some((action: string) => action !== 'created' && action !== 'status_changed'),
    );
    assert.ok(actions(proofOf).filter((action: string) => action === 'status_changed').length >= 3);
    assert.equal(
      (await routesOfDay()).filter((route) => route.status === 'started').length,
      3,
      'every route is under way',
    );
  });
});
