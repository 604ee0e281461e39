import assert from 'node:assert/strict';
import { login } from './fixtures.ts';
import { a, adminOfB, api, b, type Checks, server, tokenOfA, tokensOfB } from './tenancy.ts';

const PICKUP = { lat: 48.8566, lng: 2.3522 };

/** A's driver as a rider, online near an instant order of A's that it is offered; made once. */
let riderWorldOfA: Promise<{ token: string; orderId: number; offerId: number }> | undefined;
const riderOfA = () =>
  (riderWorldOfA ??= (async () => {
    const granted = await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/rider`, {
      token: tokenOfA,
      body: { granted: true },
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    const token = await login(api, a.emails.driver);
    await api.post('/api/v1/rider/online', {}, { token });
    const pinged = await api.post(
      '/api/v1/rider/pings',
      { pings: [{ ...PICKUP, at: server.clock.now().toISOString() }] },
      { token },
    );
    assert.equal(pinged.status, 200, JSON.stringify(pinged.body));
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        type: 'P2P',
        instant: true,
        pickup: { line1: 'A pickup', ...PICKUP },
        dropoff: { line1: 'A drop-off', lat: 48.86, lng: 2.36 },
      },
      { token: tokenOfA },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const offers = await api.get('/api/v1/rider/offers', { token });
    assert.equal(offers.body.offers.length, 1, JSON.stringify(offers.body));
    return { token, orderId: created.body.order_id, offerId: offers.body.offers[0].id };
  })());

/** B's driver, granted instant delivery by B and online: a rider, but of B. */
let riderWorldOfB: Promise<void> | undefined;
const riderOfB = () =>
  (riderWorldOfB ??= (async () => {
    const granted = await api.call('PUT', `/api/v1/client/drivers/${b.userIds.driver}/rider`, {
      token: adminOfB(),
      body: { granted: true },
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    await api.post('/api/v1/rider/online', {}, { token: tokensOfB.driver });
  })());

/** A's riders as A's staff see them. */
const ridersOfA = async () => (await api.get('/api/v1/client/riders', { token: tokenOfA })).body;

/** A's rider as A sees it: granted, online, with its position. */
const riderOfAStaysAsItWas = async () => {
  const [rider] = (await ridersOfA()).riders;
  assert.equal(rider.driver.id, a.userIds.driver);
  assert.equal(rider.online, true);
  assert.equal(rider.position.lat, PICKUP.lat);
};

/** A's order is still offered to A's rider. */
const offerOfAStaysOpen = async () => {
  const { orderId } = await riderOfA();
  const dispatch = await api.get(`/api/v1/client/orders/${orderId}/instant-dispatch`, { token: tokenOfA });
  assert.equal(dispatch.body.dispatch.state, 'offering');
};

/**
 * B's driver, not granted by B (these checks run before those that grant it), is refused as a
 * rider, and A's rider is untouched.
 */
const notARiderOfA = (method: 'GET' | 'POST', path: string, body?: () => object) => async () => {
  await riderOfA();
  const answer = await api.call(method, path, { token: tokensOfB.driver, body: body?.() });
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'RIDER_NOT_GRANTED');
  await riderOfAStaysAsItWas();
};

/** B's rider answering A's offer: as unknown as an offer that never was. */
const offerOfAUnknownToB = (action: 'accept' | 'decline') => async () => {
  const { offerId } = await riderOfA();
  await riderOfB();
  const answer = await api.post(`/api/v1/rider/offers/${offerId}/${action}`, {}, { token: tokensOfB.driver });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'OFFER_NOT_FOUND');
  await offerOfAStaysOpen();
};

export const riderChecks: Checks = {
  set_rider_grant: async () => {
    await riderOfA();
    const answer = await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/rider`, {
      token: adminOfB(),
      body: { granted: false },
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'DRIVER_NOT_FOUND');
    await riderOfAStaysAsItWas();
  },
  get_riders: async () => {
    await riderOfA();
    const answer = await api.get('/api/v1/client/riders', { token: adminOfB() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(
      answer.body.riders.every((rider: { driver: { id: number } }) => rider.driver.id !== a.userIds.driver),
    );
  },
  set_rider_settings: async () => {
    const answer = await api.call('PUT', '/api/v1/client/riders/settings', {
      token: adminOfB(),
      body: { wave_size: 7, offer_seconds: 90, offer_riders_on_route: true },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual((await ridersOfA()).settings, {
      wave_size: 1,
      offer_seconds: 30,
      offer_riders_on_route: false,
    });
  },
  get_instant_dispatch: async () => {
    const { orderId } = await riderOfA();
    const answer = await api.get(`/api/v1/client/orders/${orderId}/instant-dispatch`, { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
  },
  go_online: notARiderOfA('POST', '/api/v1/rider/online', () => ({})),
  go_offline: notARiderOfA('POST', '/api/v1/rider/offline', () => ({})),
  send_rider_pings: notARiderOfA('POST', '/api/v1/rider/pings', () => ({
    pings: [{ lat: 1, lng: 1, at: server.clock.now().toISOString() }],
  })),
  get_my_offers: async () => {
    await riderOfA();
    await riderOfB();
    const answer = await api.get('/api/v1/rider/offers', { token: tokensOfB.driver });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.offers, []);
  },
  accept_offer: offerOfAUnknownToB('accept'),
  decline_offer: offerOfAUnknownToB('decline'),
};
