import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DriverTopic, north, riderBusiness } from './support/riders.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './support/server.ts';

/**
 * Instant riders over HTTP: an instant order is offered to the nearest online riders, a wave at a
 * time; exactly one accept wins and the order becomes the winner's one-order route; an unanswered
 * offer expires and moves on, a decline moves on at once, and with nobody left the order stays in
 * the pool; offers are pushed on the rider's MQTT topic; other businesses' drivers see nothing.
 */
describe('instant riders', () => {
  let server: TestServer;
  const topics: DriverTopic[] = [];
  const PARIS = { lat: 48.8566, lng: 2.3522 };

  before(async () => {
    // Loopback webhook receivers allowed, for the order.instant_unassigned delivery.
    server = await startTestServer({ webhooks: loopbackWebhooks() });
    // The outbox worker (offer pushes, offer deadlines) and the embedded MQTT broker.
    await server.app.startBackground(server.pool);
  });
  after(async () => {
    for (const topic of topics) await topic.close().catch(() => {});
    await server.close();
  });

  it('gives the order to exactly one of 20 riders accepting at once, as a one-order route they work', async () => {
    const shop = await riderBusiness(server, 'ridersrace');
    await shop.settings({ wave_size: 20 });
    const riders = await shop.riders(Array.from({ length: 20 }, (_, n) => north(PARIS, 100 + n * 50)));
    const orderId = await shop.instantOrder(PARIS);

    const offers = await Promise.all(riders.map((rider) => shop.offersOf(rider)));
    for (const mine of offers)
      assert.deepEqual(
        mine.map((offer) => offer.order.id),
        [orderId],
      );
    const answers = await Promise.all(
      riders.map((rider, n) =>
        shop.api.post(`/api/v1/rider/offers/${offers[n]![0]!.id}/accept`, {}, { token: rider.token }),
      ),
    );
    const won = answers.filter((answer) => answer.status === 200);
    const lost = answers.filter((answer) => answer.status !== 200);
    assert.equal(won.length, 1, JSON.stringify(answers.map((answer) => answer.body)));
    for (const answer of lost) {
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error_code, 'OFFER_ALREADY_TAKEN');
    }
    const winner = riders[answers.findIndex((answer) => answer.status === 200)]!;
    const routeId: number = won[0]!.body.route_id;

    const dispatch = await shop.dispatchOf(orderId);
    assert.equal(dispatch.state, 'accepted');
    assert.equal(dispatch.rider.id, winner.id);
    assert.equal(dispatch.route_id, routeId);
    assert.deepEqual(dispatch.offers.map((offer: { state: string }) => offer.state).sort(), [
      'accepted',
      ...Array(19).fill('taken'),
    ]);
    const order = (await shop.api.get(`/api/v1/client/orders/${orderId}`, { token: shop.admin })).body.order;
    assert.equal(order.status, 'PLANNED');
    assert.equal(order.driver_id, winner.id);
    assert.equal(order.route_id, routeId);
    const [route] = (await shop.api.get('/api/v1/driver/routes', { token: winner.token })).body.routes;
    assert.equal(route.id, routeId);
    assert.equal(route.locked, true);
    assert.deepEqual(
      route.stops.map((stop: { order_id: number; leg: string }) => [stop.order_id, stop.leg]),
      [
        [orderId, 'pickup'],
        [orderId, 'delivery'],
      ],
    );
    // From the rider's position (100 to 1,050 m north of the pickup) through both legs, no return.
    assert.ok(route.distance_meters > 1_000 && route.distance_meters < 6_000, String(route.distance_meters));

    // The rider works it with the ordinary driver operations, to delivery; then is free again.
    let write = 0;
    const drive = (path: string, body: Record<string, unknown> = {}) =>
      shop.api.post(
        `/api/v1/driver/routes/${routeId}${path}`,
        { client_id: `w${++write}`, device_time: server.clock.now().toISOString(), ...body },
        { token: winner.token },
      );
    assert.equal((await drive('/start')).status, 200);
    const picked = await drive(`/stops/${orderId}/complete`, { leg: 'pickup', outcome: 'picked_up' });
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    const busy = await shop.api.get('/api/v1/client/riders', { token: shop.admin });
    assert.equal(
      busy.body.riders.find((r: { driver: { id: number } }) => r.driver.id === winner.id).busy_order_id,
      orderId,
    );
    const delivered = await drive(`/stops/${orderId}/complete`, {
      leg: 'delivery',
      outcome: 'delivered',
      recipient: 'Léa Martin',
    });
    assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
    assert.deepEqual(delivered.body.order, { id: orderId, status: 'DELIVERED' });
    const free = await shop.api.get('/api/v1/client/riders', { token: shop.admin });
    const after = free.body.riders.find((r: { driver: { id: number } }) => r.driver.id === winner.id);
    assert.equal(after.busy_order_id, null);
    assert.equal(after.waiting_since, server.clock.now().toISOString());
  });

  it('moves an unanswered offer on at its deadline, a declined one at once, and leaves the order in the pool when nobody is left', async () => {
    const shop = await riderBusiness(server, 'riderswave');
    await shop.settings({ wave_size: 1, offer_seconds: 30 });
    const told: Array<{ type: string; data: Record<string, unknown> }> = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        told.push(JSON.parse(body));
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    after(() => receiver.close());
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/instant`;
    const hooked = await shop.api.call('PUT', '/api/v1/webhook-settings', {
      token: shop.admin,
      body: { urls: { 'order.instant_unassigned': url } },
    });
    assert.equal(hooked.status, 200, JSON.stringify(hooked.body));
    const [near, middle, far] = await shop.riders([
      north(PARIS, 1_000),
      north(PARIS, 2_000),
      north(PARIS, 3_000),
    ]);
    // Online without a fresh position: never offered.
    const [stale] = await shop.riders([north(PARIS, 10)]);
    server.clock.advance(3 * 60_000);
    for (const rider of [near!, middle!, far!])
      await shop.ping(rider, north(PARIS, [near, middle, far].indexOf(rider) * 1_000 + 1_000));
    const orderId = await shop.instantOrder(PARIS);

    assert.deepEqual(
      (await shop.offersOf(near!)).map((offer) => offer.order.id),
      [orderId],
    );
    assert.deepEqual(await shop.offersOf(middle!), []);
    assert.deepEqual(await shop.offersOf(stale!), []);

    // Nobody answers: 30 s later the offer expires and the next rider is offered the order.
    server.clock.advance(29_000);
    await server.app.outbox.drainOnce();
    assert.deepEqual(await shop.offersOf(middle!), [], 'not before the deadline');
    server.clock.advance(1_000);
    await server.app.outbox.drainOnce();
    assert.deepEqual(await shop.offersOf(near!), []);
    const [second] = await shop.offersOf(middle!);
    assert.equal(second?.order.id, orderId);
    const late = await shop.api.post(
      `/api/v1/rider/offers/${(await shop.dispatchOf(orderId)).offers[0].id}/accept`,
      {},
      { token: near!.token },
    );
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'OFFER_EXPIRED');

    // A decline moves on at once.
    const declined = await shop.api.post(
      `/api/v1/rider/offers/${second!.id}/decline`,
      {},
      { token: middle!.token },
    );
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    const [third] = await shop.offersOf(far!);
    assert.equal(third?.order.id, orderId);

    // The last one declines: nobody is left, the order waits in the ordinary pool.
    await shop.api.post(`/api/v1/rider/offers/${third!.id}/decline`, {}, { token: far!.token });
    const dispatch = await shop.dispatchOf(orderId);
    assert.equal(dispatch.state, 'exhausted');
    assert.deepEqual(
      dispatch.offers.map((offer: { rider: { id: number }; state: string; wave: number }) => [
        offer.rider.id,
        offer.wave,
        offer.state,
      ]),
      [
        [near!.id, 1, 'expired'],
        [middle!.id, 2, 'declined'],
        [far!.id, 3, 'declined'],
      ],
    );
    const order = (await shop.api.get(`/api/v1/client/orders/${orderId}`, { token: shop.admin })).body.order;
    assert.equal(order.status, 'NEW_ORDER');
    assert.equal(order.instant, true);
    assert.equal(order.route_id, null);
    // And the business is told.
    await server.app.outbox.drainOnce();
    const unassigned = told.find((event) => event.type === 'order.instant_unassigned');
    assert.deepEqual(unassigned?.data, { order_id: orderId, order_ref: order.order_ref, waves: 3 });
  });

  it('pushes the offer to the rider on its own MQTT topic', async () => {
    const shop = await riderBusiness(server, 'riderspush');
    const [rider] = await shop.riders([north(PARIS, 500)]);
    const topic = await DriverTopic.open(server, shop.tenant.businessId, rider!);
    topics.push(topic);
    const orderId = await shop.instantOrder(PARIS);
    const push = (await topic.next((body) => body.type === 'instant_offer')) as {
      offer: { id: number; order: { id: number }; distance_meters: number; seconds_left: number };
    };
    assert.equal(push.offer.order.id, orderId);
    assert.equal(push.offer.id, (await shop.offersOf(rider!))[0]!.id);
    assert.ok(Math.abs(push.offer.distance_meters - 500) <= 2, String(push.offer.distance_meters));
    assert.equal(push.offer.seconds_left, 30);
  });

  it('shows and gives nothing to drivers of other businesses, and nothing to drivers without the grant', async () => {
    const shop = await riderBusiness(server, 'ridersown');
    const other = await riderBusiness(server, 'ridersother');
    const [mine] = await shop.riders([north(PARIS, 200)]);
    const [theirs] = await other.riders([north(PARIS, 100)]);
    const orderId = await shop.instantOrder(PARIS);
    const [offer] = await shop.offersOf(mine!);
    assert.equal(offer?.order.id, orderId);

    assert.deepEqual(await other.offersOf(theirs!), []);
    for (const action of ['accept', 'decline']) {
      const refused = await other.api.post(
        `/api/v1/rider/offers/${offer!.id}/${action}`,
        {},
        { token: theirs!.token },
      );
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error_code, 'OFFER_NOT_FOUND');
    }
    const seen = await other.api.get(`/api/v1/client/orders/${orderId}/instant-dispatch`, {
      token: other.admin,
    });
    assert.equal(seen.status, 404);
    const listed = await other.api.get('/api/v1/client/riders', { token: other.admin });
    assert.deepEqual(
      listed.body.riders.map((rider: { driver: { id: number } }) => rider.driver.id),
      [theirs!.id],
    );
    const foreignGrant = await other.api.call('PUT', `/api/v1/client/drivers/${mine!.id}/rider`, {
      token: other.admin,
      body: { granted: false },
    });
    assert.equal(foreignGrant.status, 404);

    // A driver of the business without the grant, in French.
    const plain = await shop.driver();
    for (const [method, path] of [
      ['GET', '/api/v1/rider/offers'],
      ['POST', '/api/v1/rider/online'],
      ['POST', `/api/v1/rider/offers/${offer!.id}/accept`],
    ] as const) {
      const refused = await shop.api.call(method, path, {
        token: plain.token,
        headers: { 'accept-language': 'fr' },
        ...(method === 'POST' ? { body: {} } : {}),
      });
      assert.equal(refused.status, 403, path);
      assert.equal(refused.body.error_code, 'RIDER_NOT_GRANTED');
      assert.match(refused.body.message, /livraison instantanée/);
    }
    // Revoking the grant declines the rider's offer; the order moves on (here: nobody left).
    const revoked = await shop.api.call('PUT', `/api/v1/client/drivers/${mine!.id}/rider`, {
      token: shop.admin,
      body: { granted: false },
    });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await shop.dispatchOf(orderId)).state, 'exhausted');
  });

  it('withdraws the offers of an order the business holds meanwhile, and tells the rider', async () => {
    const shop = await riderBusiness(server, 'riderswithdraw');
    const [rider] = await shop.riders([north(PARIS, 300)]);
    const topic = await DriverTopic.open(server, shop.tenant.businessId, rider!);
    topics.push(topic);
    const orderId = await shop.instantOrder(PARIS);
    const [offer] = await shop.offersOf(rider!);
    const held = await shop.api.post(`/api/v1/client/orders/${orderId}/hold`, {}, { token: shop.admin });
    assert.equal(held.status, 200, JSON.stringify(held.body));

    assert.equal((await shop.dispatchOf(orderId)).state, 'withdrawn');
    assert.deepEqual(await shop.offersOf(rider!), []);
    const late = await shop.api.post(`/api/v1/rider/offers/${offer!.id}/accept`, {}, { token: rider!.token });
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'OFFER_EXPIRED');
    const closed = await topic.next((body) => body.type === 'instant_offer_closed');
    assert.deepEqual([closed.offer_id, closed.order_id, closed.reason], [offer!.id, orderId, 'withdrawn']);
  });

  it('keeps at most one ping a second and counts the others as dropped', async () => {
    const shop = await riderBusiness(server, 'riderspings');
    const [rider] = await shop.riders([PARIS]);
    const start = server.clock.now().getTime() + 1_000;
    const at = (ms: number) => new Date(start + ms).toISOString();
    const place = (n: number) => north(PARIS, n * 10);
    const batch = [0, 300, 1_000, 1_500, 2_200].map((ms, n) => ({ ...place(n + 1), at: at(ms) }));
    // Sent out of order: the phone's times order them.
    const first = await shop.api.post(
      '/api/v1/rider/pings',
      { pings: batch.reverse() },
      { token: rider!.token },
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.kept, 3);
    assert.equal(first.body.dropped, 2);
    assert.equal(first.body.position.at, at(2_200));
    assert.equal(first.body.position.lat, place(5).lat);
    const again = await shop.api.post(
      '/api/v1/rider/pings',
      { pings: [{ ...place(9), at: at(2_500) }] },
      { token: rider!.token },
    );
    assert.deepEqual([again.body.kept, again.body.dropped, again.body.position.at], [0, 1, at(2_200)]);
    const ahead = await shop.api.post(
      '/api/v1/rider/pings',
      { pings: [{ ...PARIS, at: new Date(start + 10 * 60_000).toISOString() }] },
      { token: rider!.token },
    );
    assert.equal(ahead.status, 422);
    assert.equal(ahead.body.error_code, 'DEVICE_TIME_OUT_OF_RANGE');
    const tooMany = await shop.api.post(
      '/api/v1/rider/pings',
      { pings: Array.from({ length: 61 }, () => ({ ...PARIS, at: at(5_000) })) },
      { token: rider!.token },
    );
    assert.equal(tooMany.status, 422);
  });

  it('keeps one ping of a second sent by eight batches at once, and a dry run keeps none', async () => {
    const shop = await riderBusiness(server, 'ridersburst');
    const [rider] = await shop.riders([PARIS]);
    const start = server.clock.now().getTime() + 2_000;
    const send = (ms: number, headers: Record<string, string> = {}) =>
      shop.api.call('POST', '/api/v1/rider/pings', {
        token: rider!.token,
        body: { pings: [{ ...north(PARIS, ms), at: new Date(start + ms).toISOString() }] },
        headers,
      });
    const dry = await send(0, { 'x-dry-run': '1' });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.deepEqual([dry.body.kept, dry.body.dry_run], [1, true]);
    // Eight pings within one second of each other, each in its own request, all at once; the row
    // is held until two calls have read the same position and wait to move it. Each call moves
    // the position only from what it read, so exactly one ping is kept.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    const watcher = new pg.Client({ connectionString: server.databaseUrl });
    await Promise.all([holder.connect(), watcher.connect()]);
    let answers: Awaited<ReturnType<typeof send>>[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM riders WHERE driver_user_id = $1 FOR UPDATE', [rider!.id]);
      const sent = Promise.all([0, 100, 200, 300, 400, 500, 600, 700].map((ms) => send(ms)));
      for (let waiting = 0; waiting < 2; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        // Outside the holder's transaction, which would see one snapshot of the activity.
        const { rows } = await watcher.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'update \"riders\"%'",
        );
        waiting = rows[0].n;
      }
      await holder.query('COMMIT');
      answers = await sent;
    } finally {
      await Promise.all([holder.end(), watcher.end()]);
    }
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(
      answers.reduce((kept, answer) => kept + answer.body.kept, 0),
      1,
    );
    const winner = answers.find((answer) => answer.body.kept === 1)!;
    const read = await shop.api.call('POST', '/api/v1/rider/pings', {
      token: rider!.token,
      body: { pings: [{ ...PARIS, at: new Date(start + 800).toISOString() }] },
    });
    assert.equal(read.body.kept, 0);
    assert.deepEqual(read.body.position, winner.body.position);
  });
});
