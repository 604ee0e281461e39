import assert from 'node:assert/strict';
import { a, adminOfB, api, b, type Checks, routeOfA, tokenOfA, tokensOfB } from './tenancy.ts';

/** A's own carrier and a label bought from it, made by the first shipping check that needs them. */
let shippingOfA: Promise<{ trackingNumber: string }> | undefined;
const A_CARRIER = {
  name: 'A Post',
  rate_card: {
    currency: 'EUR',
    zoning: { method: 'postal_prefix', zones: [{ zone: 'all', destination_prefixes: [''] }] },
    services: [
      {
        code: 'ground',
        name: 'Ground',
        zones: [{ zone: 'all', transit_days: 2, weight_breaks: [{ up_to_kg: 5, price: 5 }] }],
      },
    ],
  },
};
const PARCEL = {
  pickup: { line1: 'A depot' },
  dropoff: { line1: 'A customer' },
  packages: [{ weight_grams: 500 }],
};
const labelOfA = () =>
  (shippingOfA ??= (async () => {
    const saved = await api.call('PUT', '/api/v1/shipping/carriers/a-post', {
      token: tokenOfA,
      body: A_CARRIER,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const label = await api.post(
      '/api/v1/labelservice/submitOrder',
      { ...PARCEL, carrier: 'a-post', service: 'ground' },
      { token: tokenOfA },
    );
    assert.equal(label.status, 200, JSON.stringify(label.body));
    return { trackingNumber: label.body.tracking_number as string };
  })());
const carrierOfAUnknownToB = (path: string, body: object) => async () => {
  await labelOfA();
  const answer = await api.post(path, { ...PARCEL, carrier: 'a-post', ...body }, { token: adminOfB() });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'CARRIER_NOT_FOUND');
};

/** A warehouse of A with a bin, and one of A's packages received there, made by the first warehouse check. */
let warehouseOfAMade:
  | Promise<{ id: number; binId: number; trackingNumber: string; transferId: number }>
  | undefined;
const warehouseOfA = () => {
  warehouseOfAMade ??= (async () => {
    const made = (code: string) =>
      api.post(
        '/api/v1/client/warehouses',
        { code, name: `A ${code}`, line1: '1 A street', time_zone: 'Europe/Paris' },
        { token: tokenOfA },
      );
    const id = (await made('A-WH')).body.warehouse.id as number;
    const second = (await made('A-WH2')).body.warehouse.id as number;
    const bin = await api.post(
      `/api/v1/client/warehouses/${id}/locations`,
      { code: 'A-BIN', kind: 'bin', capacity: 5 },
      { token: tokenOfA },
    );
    const order = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'a-parcel', dropoff: { line1: '2 A street' } },
      { token: tokenOfA },
    );
    const trackingNumber = order.body.tracking_number as string;
    await api.post(
      `/api/v1/warehouse/${id}/receive`,
      { tracking_numbers: [trackingNumber] },
      { token: tokenOfA },
    );
    const moved = await api.post(
      '/api/v1/client/warehouse-transfers',
      { from_warehouse_id: id, to_warehouse_id: second, tracking_numbers: [trackingNumber] },
      { token: tokenOfA },
    );
    await api.post(
      `/api/v1/client/warehouse-transfers/${moved.body.transfer.id}/rollback`,
      {},
      { token: tokenOfA },
    );
    return {
      id,
      binId: bin.body.location.id as number,
      trackingNumber,
      transferId: moved.body.transfer.id as number,
    };
  })();
  return warehouseOfAMade;
};
/** A's package is still where A received it, as A sees it. */
const parcelOfAStays = async () => {
  const { id, trackingNumber } = await warehouseOfA();
  const asA = await api.get(`/api/v1/client/inventory?tracking_number=${trackingNumber}`, {
    token: tokenOfA,
  });
  assert.deepEqual([asA.body.packages[0]?.warehouse_id, asA.body.packages[0]?.state], [id, 'received']);
};
/** B calls a warehouse operation of A's warehouse: not found, and A's package unmoved. */
const warehouseOfANotFound =
  (
    call: (warehouse: {
      id: number;
      binId: number;
      trackingNumber: string;
    }) => Promise<{ status: number; body: { error_code?: string } }>,
  ) =>
  async () => {
    const answer = await call(await warehouseOfA());
    assert.deepEqual([answer.status, answer.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);
    await parcelOfAStays();
  };

/** Shipping and warehouses: what B must not reach of A. */
export const shippingWarehouseChecks: Checks = {
  get_shipping_methods: async () => {
    await labelOfA();
    const answer = await api.get('/api/v1/shipping/methods', { token: tokensOfB.customer });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.methods.every((m: { carrier_name: string }) => m.carrier_name !== 'A Post'));
  },
  get_shipping_carriers: async () => {
    await labelOfA();
    const answer = await api.get('/api/v1/shipping/carriers', { token: adminOfB() });
    assert.ok(answer.body.carriers.every((c: { name: string }) => c.name !== 'A Post'));
  },
  save_shipping_carrier: async () => {
    await labelOfA();
    // B may use the same code for a carrier of its own (inactive here): A's stays as it is.
    const answer = await api.call('PUT', '/api/v1/shipping/carriers/a-post', {
      token: adminOfB(),
      body: { ...A_CARRIER, name: 'B copy', active: false },
    });
    assert.equal(answer.status, 200);
    const asA = await api.get('/api/v1/shipping/carriers', { token: tokenOfA });
    const own = asA.body.carriers.find((c: { code: string }) => c.code === 'a-post');
    assert.deepEqual([own.name, own.version, own.active], ['A Post', 1, true]);
  },
  get_shipping_rate: carrierOfAUnknownToB('/api/v1/labelservice/rate', {}),
  create_shipping_label: carrierOfAUnknownToB('/api/v1/labelservice/submitOrder', { service: 'ground' }),
  quote_and_ship: async () => {
    await carrierOfAUnknownToB('/api/v1/shipping/quote-and-ship', {})();
    const anyCarrier = await api.post('/api/v1/shipping/quote-and-ship', PARCEL, {
      token: tokensOfB.customer,
    });
    assert.equal(anyCarrier.status, 422);
    assert.equal(anyCarrier.body.error_code, 'NO_CARRIER_AVAILABLE');
  },
  compare_all_carriers: async () => {
    await labelOfA();
    const answer = await api.post('/api/v1/shipping/compare', PARCEL, { token: adminOfB() });
    assert.deepEqual(answer.body.rates, []);
  },
  get_shipping_label: async () => {
    const { trackingNumber } = await labelOfA();
    for (const token of [adminOfB(), tokensOfB.customer!]) {
      const answer = await api.get(`/api/v1/labelservice/labels/${trackingNumber}`, { token });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'LABEL_NOT_FOUND');
    }
  },
  get_warehouses: async () => {
    await warehouseOfA();
    const answer = await api.get('/api/v1/client/warehouses', { token: adminOfB() });
    assert.deepEqual([answer.status, answer.body.total], [200, 0]);
  },
  get_inventory: async () => {
    const { id } = await warehouseOfA();
    const all = await api.get('/api/v1/client/inventory', { token: adminOfB() });
    assert.deepEqual([all.status, all.body.total], [200, 0]);
    const named = await api.get(`/api/v1/client/inventory?warehouse_id=${id}`, { token: adminOfB() });
    assert.equal(named.body.error_code, 'WAREHOUSE_NOT_FOUND');
  },
  create_warehouse: async () => {
    await warehouseOfA();
    // The same code in B is B's own: codes are unique per business, and A's list is unchanged.
    const answer = await api.post(
      '/api/v1/client/warehouses',
      { code: 'A-WH', name: 'B', line1: 'B street', time_zone: 'UTC' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const asA = await api.get('/api/v1/client/warehouses', { token: tokenOfA });
    assert.ok(asA.body.warehouses.every((w: { name: string }) => w.name !== 'B'));
  },
  update_warehouse: warehouseOfANotFound(({ id }) =>
    api.call('PATCH', `/api/v1/client/warehouses/${id}`, { token: adminOfB(), body: { name: 'taken' } }),
  ),
  create_warehouse_location: warehouseOfANotFound(({ id }) =>
    api.post(
      `/api/v1/client/warehouses/${id}/locations`,
      { code: 'B-BIN', kind: 'bin', capacity: 1 },
      { token: adminOfB() },
    ),
  ),
  update_warehouse_location: warehouseOfANotFound(({ id, binId }) =>
    api.call('PATCH', `/api/v1/client/warehouses/${id}/locations/${binId}`, {
      token: adminOfB(),
      body: { code: 'B-BIN', capacity: 0 },
    }),
  ),
  set_warehouse_staff: warehouseOfANotFound(({ id }) =>
    api.call('PUT', `/api/v1/client/warehouses/${id}/staff`, { token: adminOfB(), body: { user_ids: [] } }),
  ),
  receive_packages: warehouseOfANotFound(({ id, trackingNumber }) =>
    api.post(
      `/api/v1/warehouse/${id}/receive`,
      { tracking_numbers: [trackingNumber] },
      { token: adminOfB() },
    ),
  ),
  receive_stock: async () => {
    const { id } = await warehouseOfA();
    const answer = await api.post(
      `/api/v1/warehouse/${id}/receive-stock`,
      { customer_id: b.userIds.customer, sku: 'X', quantity: 1, scan_id: 'gun-1:1' },
      { token: adminOfB() },
    );
    assert.equal(answer.body.error_code, 'WAREHOUSE_NOT_FOUND');
    const ofA = await api.post(
      `/api/v1/warehouse/${id}/receive-stock`,
      { customer_id: a.userIds.customer, sku: 'X', quantity: 1, scan_id: 'gun-1:2' },
      { token: adminOfB() },
    );
    assert.equal(ofA.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  putaway: warehouseOfANotFound(({ id, binId, trackingNumber }) =>
    api.post(
      `/api/v1/warehouse/${id}/putaway`,
      { tracking_number: trackingNumber, location_id: binId },
      { token: adminOfB() },
    ),
  ),
  sort_package: warehouseOfANotFound(({ id, trackingNumber }) =>
    api.post(`/api/v1/warehouse/${id}/sort`, { tracking_number: trackingNumber }, { token: adminOfB() }),
  ),
  get_route_sorting: warehouseOfANotFound(({ id }) =>
    api.get(`/api/v1/warehouse/${id}/sorting`, { token: adminOfB() }),
  ),
  load_package: warehouseOfANotFound(({ id, trackingNumber }) =>
    api.post(
      `/api/v1/warehouse/${id}/routes/${routeOfA}/load`,
      { tracking_number: trackingNumber },
      { token: adminOfB() },
    ),
  ),
  get_route_outbound: warehouseOfANotFound(({ id }) =>
    api.get(`/api/v1/warehouse/${id}/routes/${routeOfA}/outbound`, { token: adminOfB() }),
  ),
  dispatch_route: warehouseOfANotFound(({ id }) =>
    api.post(`/api/v1/warehouse/${id}/routes/${routeOfA}/dispatch`, {}, { token: adminOfB() }),
  ),
  transfer_packages: async () => {
    const { id, trackingNumber } = await warehouseOfA();
    const own = await api.post(
      '/api/v1/client/warehouses',
      { code: 'B-WH', name: 'B WH', line1: 'B street', time_zone: 'UTC' },
      { token: adminOfB() },
    );
    const answer = await api.post(
      '/api/v1/client/warehouse-transfers',
      { from_warehouse_id: id, to_warehouse_id: own.body.warehouse.id, tracking_numbers: [trackingNumber] },
      { token: adminOfB() },
    );
    assert.equal(answer.body.error_code, 'WAREHOUSE_NOT_FOUND');
    await parcelOfAStays();
  },
  rollback_warehouse_transfer: async () => {
    const { transferId } = await warehouseOfA();
    const answer = await api.post(
      `/api/v1/client/warehouse-transfers/${transferId}/rollback`,
      {},
      { token: adminOfB() },
    );
    assert.deepEqual([answer.status, answer.body.error_code], [404, 'TRANSFER_NOT_FOUND']);
    await parcelOfAStays();
  },
};
