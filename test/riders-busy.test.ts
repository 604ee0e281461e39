import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { north, type Rider, riderBusiness } from './support/riders.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * A rider driving a route under way is busy for instant offers, unless the business lets such
 * riders be offered; every offer says why it went to its rider; and a rerouted instant order's
 * replacement is offered again. The day is the service's clock: Monday 2 November 2026, 17:30 in
 * the business's time zone (Asia/Shanghai).
 */
describe('instant riders: busy on a route, why an offer, rerouted orders', () => {
  let server: TestServer;
  const TODAY = '2026-11-02';
  const PARIS = { lat: 48.8566, lng: 2.3522 };
  let writes = 0;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  /** A rider's van route of today, two deliveries near Paris, built from a depot there: planned. */
  async function vanRoute(shop: Awaited<ReturnType<typeof riderBusiness>>, rider: Rider) {
    const depot = await shop.api.post(
      '/api/v1/client/depots',
      { name: 'Hub', ...PARIS },
      { token: shop.admin },
    );
    assert.equal(depot.status, 200, JSON.stringify(depot.body));
    const profile = await shop.api.call('PUT', `/api/v1/client/drivers/${rider.id}/profile`, {
      token: shop.admin,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 500_000, volume_cm3: 5_000_000, count: 100 },
        shift: { start: '07:00', end: '23:30' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    const orders: number[] = [];
    for (const n of [1, 2]) {
      const created = await shop.api.post(
        '/api/v1/client/orderCreate',
        {
          order_ref: `VAN-${rider.id}-${n}`,
          scheduled_date: TODAY,
          dropoff: { line1: `${n} Rue de la Paix`, ...north(PARIS, n * 700) },
          packages: [{ weight_grams: 1000 }],
        },
        { token: shop.admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      orders.push(created.body.order_id);
    }
    const built = await shop.api.post(
      '/api/v3/client/build-route',
      { date: TODAY, driver_ids: [rider.id], time_limit_ms: 50 },
      { token: shop.admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const [route] = built.body.routes;
    return { id: route.id as number, firstStop: route.stops[0].order_id as number, orders };
  }

  /** A driver write on a route, timed by the service's clock. */
  async function drive(
    shop: Awaited<ReturnType<typeof riderBusiness>>,
    rider: Rider,
    path: string,
    body = {},
  ) {
    const answer = await shop.api.post(
      `/api/v1/driver/routes/${path}`,
      { client_id: `busy-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
      { token: rider.token },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  }

  async function riderView(shop: Awaited<ReturnType<typeof riderBusiness>>, rider: Rider) {
    const listed = await shop.api.get('/api/v1/client/riders', { token: shop.admin });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    return listed.body.riders.find((r: { driver: { id: number } }) => r.driver.id === rider.id);
  }

  it('passes over a rider driving a route under way, and offers it when the business allows it, saying why', async () => {
    const shop = await riderBusiness(server, 'ridersbusy');
    const [driver] = await shop.riders([north(PARIS, 100)]);
    const van = await vanRoute(shop, driver!);

    // A route planned but not started keeps nobody busy: the nearest rider is offered the order.
    const first = await shop.instantOrder(PARIS);
    const [offer] = await shop.offersOf(driver!);
    assert.equal(offer?.order.id, first);
    const { reason } = offer as unknown as { reason: Record<string, unknown> };
    assert.equal(reason.code, 'nearest_free');
    assert.equal(reason.rank, 1);
    assert.ok(Math.abs((reason.distance_meters as number) - 100) <= 2, JSON.stringify(reason));
    assert.equal(reason.route, null);
    assert.equal(reason.waiting_since, server.clock.now().toISOString());

    // It starts its van route before answering: taking the order would give it two routes at once.
    await drive(shop, driver!, `${van.id}/start`);
    const refused = await shop.api.call('POST', `/api/v1/rider/offers/${offer!.id}/accept`, {
      token: driver!.token,
      body: {},
      headers: { 'accept-language': 'es' },
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'RIDER_ON_ROUTE');
    assert.deepEqual(refused.body.details, { route_id: van.id, stops_left: 2 });
    assert.match(refused.body.message, new RegExp(`ruta ${van.id}`));
    const declined = await shop.api.post(
      `/api/v1/rider/offers/${offer!.id}/decline`,
      {},
      { token: driver!.token },
    );
    assert.equal(declined.status, 200, JSON.stringify(declined.body));

    // Halfway through its route, the nearest rider is passed over for a free one further away.
    await drive(shop, driver!, `${van.id}/stops/${van.firstStop}/complete`, {
      outcome: 'delivered',
      recipient: 'Léa Martin',
    });
    assert.deepEqual((await riderView(shop, driver!)).route_under_way, { id: van.id, stops_left: 1 });
    const [free] = await shop.riders([north(PARIS, 2_000)]);
    const second = await shop.instantOrder(PARIS);
    assert.deepEqual(await shop.offersOf(driver!), []);
    const [freeOffer] = await shop.offersOf(free!);
    assert.equal(freeOffer?.order.id, second);
    const dispatch = await shop.dispatchOf(second);
    assert.deepEqual(
      dispatch.offers.map((o: { rider: { id: number }; reason: { code: string; rank: number } }) => [
        o.rider.id,
        o.reason.code,
        o.reason.rank,
      ]),
      [[free!.id, 'nearest_free', 1]],
    );
    assert.equal((await riderView(shop, free!)).route_under_way, null);

    // The business lets riders on a route take offers: the nearest is offered, and says it is on a route.
    await shop.settings({ offer_riders_on_route: true });
    const third = await shop.instantOrder(PARIS);
    const [onRoute] = await shop.offersOf(driver!);
    assert.equal(onRoute?.order.id, third);
    const why = (onRoute as unknown as { reason: Record<string, unknown> }).reason;
    assert.equal(why.code, 'nearest_on_route');
    assert.deepEqual(why.route, { id: van.id, stops_left: 1 });
    const taken = await shop.api.post(
      `/api/v1/rider/offers/${onRoute!.id}/accept`,
      {},
      { token: driver!.token },
    );
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    const routes = await shop.api.get(`/api/v1/driver/routes?date=${TODAY}`, { token: driver!.token });
    assert.deepEqual(
      routes.body.routes.map((route: { id: number }) => route.id).sort(),
      [van.id, taken.body.route_id].sort(),
      'two routes at once, as the business allows',
    );
    const settings = await shop.api.get('/api/v1/client/riders', { token: shop.admin });
    assert.equal(settings.body.settings.offer_riders_on_route, true);
  });

  it("offers a rerouted instant order's replacement again, freeing the rider who had taken the original", async () => {
    const shop = await riderBusiness(server, 'ridersreroute');
    const [rider, other] = await shop.riders([north(PARIS, 300), north(PARIS, 900)]);

    // Still on offer when rerouted: the original's offer is withdrawn, the replacement offered.
    const offered = await shop.instantOrder(PARIS);
    const [before] = await shop.offersOf(rider!);
    assert.equal(before?.order.id, offered);
    const moved = await shop.api.post(
      `/api/v1/client/orders/${offered}/reroute`,
      { dropoff: { line1: '3 Rue Neuve', lat: PARIS.lat + 0.02, lng: PARIS.lng } },
      { token: shop.admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const replacement: number = moved.body.order.id;
    assert.equal((await shop.dispatchOf(offered)).state, 'withdrawn');
    const [again] = await shop.offersOf(rider!);
    assert.equal(again?.order.id, replacement);
    assert.equal((again as unknown as { order: { rerouted_from: number } }).order.rerouted_from, offered);
    assert.equal((await shop.dispatchOf(replacement)).state, 'offering');

    // Taken, then rerouted before pickup: the rider is free again and is offered the replacement.
    const accepted = await shop.api.post(
      `/api/v1/rider/offers/${again!.id}/accept`,
      {},
      { token: rider!.token },
    );
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal((await riderView(shop, rider!)).busy_order_id, replacement);
    const rerouted = await shop.api.post(
      `/api/v1/client/orders/${replacement}/reroute`,
      { dropoff: { line1: '5 Rue Neuve', lat: PARIS.lat + 0.03, lng: PARIS.lng } },
      { token: shop.admin },
    );
    assert.equal(rerouted.status, 200, JSON.stringify(rerouted.body));
    const third: number = rerouted.body.order.id;
    assert.equal((await riderView(shop, rider!)).busy_order_id, null, 'freed from the cancelled original');
    const [offerOfThird] = await shop.offersOf(rider!);
    assert.equal(offerOfThird?.order.id, third);
    assert.equal((offerOfThird as unknown as { reason: { code: string } }).reason.code, 'nearest_free');
    assert.deepEqual(await shop.offersOf(other!), [], 'one rider a wave: the nearest');
  });
});
