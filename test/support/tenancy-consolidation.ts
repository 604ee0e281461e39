import assert from 'node:assert/strict';
import { afterShipPush, announce, item, push, setUpForwarding, sign } from './consolidation.ts';
import { login } from './fixtures.ts';
import {
  a,
  adminOfB,
  api,
  b,
  type Checks,
  listsNothingOfAIn,
  server,
  tokenOfA,
  tokensOfB,
} from './tenancy.ts';

/** A's warehouse, suite and settings; one parcel announced, two received and consolidated. */
let madeOfA:
  | Promise<{ warehouse: number; suite: number; parcel: number; consolidation: number; number: string }>
  | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    const { warehouseId, suite } = await setUpForwarding(api, tokenOfA, a.userIds.customer);
    const customer = await login(api, a.emails.customer);
    const parcel = await announce(api, customer, 'A-ANNOUNCED-1', [item('Book', 10, '490199')]);
    const received = [];
    for (const number of ['A-RECEIVED-1', 'A-RECEIVED-2']) {
      received.push((await announce(api, customer, number, [item('Lamp', 30, '940540')])).id);
      const answer = await api.post(
        '/api/v1/consolidation/parcels/receive',
        { tracking_number: number, weight_grams: 800, length_mm: 300, width_mm: 200, height_mm: 100 },
        { token: tokenOfA },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    const consolidation = await api.post(
      '/api/v1/consolidation/consolidations',
      { parcel_ids: received, dropoff: { line1: '1 A street', postal_code: '75011' } },
      { token: customer },
    );
    assert.equal(consolidation.status, 200, JSON.stringify(consolidation.body));
    return {
      warehouse: warehouseId,
      suite: suite.id as number,
      parcel: parcel.id,
      consolidation: consolidation.body.consolidation.id as number,
      number: 'A-ANNOUNCED-1',
    };
  })());

/** What A reads of its forwarding. */
const asA = async () => {
  const ids = await ofA();
  const read = async (path: string) => (await api.get(path, { token: tokenOfA })).body;
  return {
    settings: await read('/api/v1/consolidation/settings'),
    suites: await read('/api/v1/consolidation/suites'),
    parcels: await read('/api/v1/consolidation/parcels'),
    parcel: await read(`/api/v1/consolidation/parcels/${ids.parcel}`),
    consolidation: await read(`/api/v1/consolidation/consolidations/${ids.consolidation}`),
  };
};

type Ids = Awaited<ReturnType<typeof ofA>>;
/** A token of B on one of A's things: refused, and A's forwarding unchanged. */
const refusedToB =
  (
    method: string,
    path: (ids: Ids) => string,
    code: string,
    body?: (ids: Ids) => object,
    token = adminOfB,
    status = 404,
  ) =>
  async () => {
    const ids = await ofA();
    const before = await asA();
    const answer = await api.call(method, path(ids), { token: token(), body: body?.(ids) });
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    assert.deepEqual(await asA(), before);
  };

/** B's admin lists: none of A's rows. */
const listsNothingOfA = (path: string, field: string) => listsNothingOfAIn(ofA, path, field);

export const consolidationChecks: Checks = {
  configure_forwarding: async () => {
    const before = await asA();
    const answer = await api.call('PATCH', '/api/v1/consolidation/settings', {
      token: adminOfB(),
      body: { free_storage_days: 30, generate_webhook_secret: true },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(await asA(), before);
  },
  get_forwarding_settings: async () => {
    const ofAnswer = (await asA()).settings.settings;
    const answer = await api.get('/api/v1/consolidation/settings', { token: adminOfB() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.notEqual(answer.body.settings.webhook_secret_hint, ofAnswer.webhook_secret_hint);
  },
  assign_forwarding_suite: async () => {
    const ids = await ofA();
    await refusedToB(
      'POST',
      () => '/api/v1/consolidation/suites',
      'CUSTOMER_NOT_FOUND',
      () => ({ customer_id: a.userIds.customer, warehouse_id: ids.warehouse }),
      adminOfB,
      422,
    )();
    await refusedToB(
      'POST',
      () => '/api/v1/consolidation/suites',
      'WAREHOUSE_NOT_FOUND',
      () => ({
        customer_id: b.userIds.customer,
        warehouse_id: ids.warehouse,
      }),
    )();
  },
  list_forwarding_suites: listsNothingOfA('/api/v1/consolidation/suites', 'suites'),
  announce_inbound_parcel: async () => {
    for (const token of [adminOfB, () => tokensOfB.customer!]) {
      await refusedToB(
        'POST',
        () => '/api/v1/consolidation/parcels',
        'SUITE_NOT_FOUND',
        (ids) => ({
          customer_id: a.userIds.customer,
          carrier: 'usps',
          tracking_number: ids.number,
          items: [item('Forged', 1)],
        }),
        token,
      )();
    }
  },
  list_inbound_parcels: listsNothingOfA('/api/v1/consolidation/parcels', 'parcels'),
  get_inbound_parcel: refusedToB(
    'GET',
    (ids) => `/api/v1/consolidation/parcels/${ids.parcel}`,
    'INBOUND_PARCEL_NOT_FOUND',
  ),
  receive_inbound_parcel: refusedToB(
    'POST',
    () => '/api/v1/consolidation/parcels/receive',
    'INBOUND_PARCEL_NOT_FOUND',
    (ids) => ({ tracking_number: ids.number, weight_grams: 1, length_mm: 1, width_mm: 1, height_mm: 1 }),
  ),
  request_consolidation: refusedToB(
    'POST',
    () => '/api/v1/consolidation/consolidations',
    'INBOUND_PARCEL_NOT_FOUND',
    (ids) => ({ customer_id: b.userIds.customer, parcel_ids: [ids.parcel], dropoff: { line1: 'B street' } }),
  ),
  get_consolidation: refusedToB(
    'GET',
    (ids) => `/api/v1/consolidation/consolidations/${ids.consolidation}`,
    'CONSOLIDATION_NOT_FOUND',
  ),
  ship_consolidation: refusedToB(
    'POST',
    (ids) => `/api/v1/consolidation/consolidations/${ids.consolidation}/ship`,
    'CONSOLIDATION_NOT_FOUND',
    () => ({}),
  ),
  receive_aftership_tracking_push: async () => {
    const ids = await ofA();
    const secretOfB = (
      await api.call('PATCH', '/api/v1/consolidation/settings', {
        token: adminOfB(),
        body: { generate_webhook_secret: true },
      })
    ).body.webhook_secret as string;
    const before = await asA();
    const body = afterShipPush(ids.number, server.clock.now());
    const answer = await push(api, a.businessId, body, sign(secretOfB, body));
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    // Signed right for B, at B's own endpoint: no parcel of B's has A's number, A's timeline unchanged.
    const atB = await push(api, b.businessId, body, sign(secretOfB, body));
    assert.equal(atB.status, 200, JSON.stringify(atB.body));
    assert.equal(atB.body.matched, false);
    assert.deepEqual(await asA(), before);
  },
};
