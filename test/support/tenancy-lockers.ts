import assert from 'node:assert/strict';
import { COMPARTMENTS } from './lockers.ts';
import {
  a,
  adminOfB,
  api,
  b,
  type Checks,
  listsNothingOfAIn,
  orderOfA,
  server,
  tokenOfA,
} from './tenancy.ts';

/** A's site with a locker heard just now, a booking there for A's order, a luggage relay and a kiosk storage period. */
let madeOfA:
  | Promise<{
      site: number;
      device: number;
      compartment: number;
      booking: number;
      relay: number;
      storage: number;
    }>
  | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    const site = await api.post(
      '/api/v1/lockers/sites',
      { name: 'A lockers', address: { line1: '1 A street' }, send_price: { amount: 3, currency: 'EUR' } },
      { token: tokenOfA },
    );
    assert.equal(site.status, 200, JSON.stringify(site.body));
    const device = await api.post(
      '/api/v1/lockers/devices',
      { site_id: site.body.site.id, kind: 'locker', name: 'A bank', compartments: COMPARTMENTS },
      { token: tokenOfA },
    );
    assert.equal(device.status, 200, JSON.stringify(device.body));
    const deviceId = device.body.device.id as number;
    await heard(deviceId);
    const booking = await api.post(
      '/api/v1/lockers/bookings',
      { site_id: site.body.site.id, order_id: orderOfA.id },
      { token: tokenOfA },
    );
    assert.equal(booking.status, 200, JSON.stringify(booking.body));
    const relay = await api.post(
      '/api/v1/luggage/relays',
      { bag_tag: 'A-BAG-1', site_ids: [site.body.site.id] },
      { token: tokenOfA },
    );
    assert.equal(relay.status, 200, JSON.stringify(relay.body));
    // A storage period the kiosk sold, through the device protocol's own entry.
    const free = device.body.device.compartments.at(-1);
    await server.app.services.lockers.link.receive(
      server.db,
      deviceId,
      JSON.stringify({
        type: 'storage_started',
        compartment: free.number,
        reference: 'a-storage-000001',
        pickup_code: '13572468',
        paid_until: new Date(server.clock.now().getTime() + 3_600_000).toISOString(),
      }),
    );
    const storage = await api.get('/api/v1/lockers/storage', { token: tokenOfA });
    assert.equal(storage.body.bookings.length, 1, JSON.stringify(storage.body));
    return {
      site: site.body.site.id as number,
      device: deviceId,
      compartment: booking.body.booking.compartment.id as number,
      booking: booking.body.booking.id as number,
      relay: relay.body.relay_id as number,
      storage: storage.body.bookings[0].id as number,
    };
  })());

/** The device heartbeats, through the protocol's own entry: online, its compartments offered. */
const heard = (deviceId: number) =>
  server.app.services.lockers.link.receive(server.db, deviceId, '{"type":"heartbeat"}');

/** A sells B one compartment of a size class at its site, from the start of the month. */
const offerToB = (site: number, size_class: string) =>
  api.call('PUT', '/api/v1/lockers/quotas', {
    token: tokenOfA,
    body: {
      site_id: site,
      tenant_business_id: b.businessId,
      size_class,
      compartments: 1,
      price: 1,
      currency: 'EUR',
      period: 'day',
      starts_on: '2026-11-01',
    },
  });

/** What A reads of its lockers. */
const asA = async () => {
  const ids = await ofA();
  return {
    site: (await api.get(`/api/v1/lockers/sites/${ids.site}`, { token: tokenOfA })).body,
    booking: (await api.get(`/api/v1/lockers/bookings/${ids.booking}`, { token: tokenOfA })).body,
    ledger: (await api.get('/api/v1/lockers/ledger?per_page=200', { token: tokenOfA })).body,
    commands: (await api.get(`/api/v1/lockers/devices/${ids.device}/commands`, { token: tokenOfA })).body,
  };
};

/** B's admin on one of A's things: refused as unknown, and A's lockers unchanged. */
type Ids = Awaited<ReturnType<typeof ofA>>;
const refusedToB =
  (method: string, path: (ids: Ids) => string, code: string, body?: (ids: Ids) => object) => async () => {
    const ids = await ofA();
    const before = await asA();
    const answer = await api.call(method, path(ids), { token: adminOfB(), body: body?.(ids) });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    assert.deepEqual(await asA(), before);
  };

/** B's admin lists: none of A's rows. */
const listsNothingOfA = (path: string, field: string) => listsNothingOfAIn(ofA, path, field);

export const lockerChecks: Checks = {
  create_locker_site: async () => {
    const before = await asA();
    const made = await api.post(
      '/api/v1/lockers/sites',
      { name: 'B lockers', address: { line1: '1 B street' } },
      { token: adminOfB() },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.site.operator_business_id, b.businessId);
    assert.deepEqual(await asA(), before);
  },
  list_locker_sites: listsNothingOfA('/api/v1/lockers/sites', 'sites'),
  get_locker_site: refusedToB('GET', (ids) => `/api/v1/lockers/sites/${ids.site}`, 'LOCKER_SITE_NOT_FOUND'),
  reserve_locker_compartment: refusedToB(
    'POST',
    () => '/api/v1/lockers/bookings',
    'LOCKER_SITE_NOT_FOUND',
    (ids) => ({ site_id: ids.site }),
  ),
  get_locker_booking: refusedToB(
    'GET',
    (ids) => `/api/v1/lockers/bookings/${ids.booking}`,
    'LOCKER_BOOKING_NOT_FOUND',
  ),
  list_locker_bookings: listsNothingOfA('/api/v1/lockers/bookings', 'bookings'),
  cancel_locker_booking: refusedToB(
    'POST',
    (ids) => `/api/v1/lockers/bookings/${ids.booking}/cancel`,
    'LOCKER_BOOKING_NOT_FOUND',
    () => ({}),
  ),
  collect_locker_parcel: refusedToB(
    'POST',
    (ids) => `/api/v1/lockers/bookings/${ids.booking}/collect`,
    'LOCKER_BOOKING_NOT_FOUND',
    () => ({}),
  ),
  reissue_locker_code: refusedToB(
    'POST',
    (ids) => `/api/v1/lockers/bookings/${ids.booking}/code`,
    'LOCKER_BOOKING_NOT_FOUND',
    () => ({}),
  ),
  list_locker_ledger: async () => {
    const ids = await ofA();
    for (const filter of [
      `site_id=${ids.site}`,
      `booking_id=${ids.booking}`,
      `order_id=${orderOfA.id}`,
      '',
    ]) {
      const listed = await api.get(`/api/v1/lockers/ledger?${filter}`, { token: adminOfB() });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(listed.body.entries, [], filter);
    }
  },
  register_locker_device: refusedToB(
    'POST',
    () => '/api/v1/lockers/devices',
    'LOCKER_SITE_NOT_FOUND',
    (ids) => ({
      site_id: ids.site,
      kind: 'kiosk',
      name: 'B on A',
      compartments: [COMPARTMENTS[0]],
    }),
  ),
  rotate_locker_device_credential: refusedToB(
    'POST',
    (ids) => `/api/v1/lockers/devices/${ids.device}/credential`,
    'LOCKER_DEVICE_NOT_FOUND',
    () => ({}),
  ),
  send_locker_device_command: refusedToB(
    'POST',
    (ids) => `/api/v1/lockers/devices/${ids.device}/commands`,
    'LOCKER_DEVICE_NOT_FOUND',
    () => ({ action: 'reboot' }),
  ),
  list_locker_device_commands: refusedToB(
    'GET',
    (ids) => `/api/v1/lockers/devices/${ids.device}/commands`,
    'LOCKER_DEVICE_NOT_FOUND',
  ),
  set_locker_compartment_state: refusedToB(
    'PUT',
    (ids) => `/api/v1/lockers/compartments/${ids.compartment}/state`,
    'LOCKER_COMPARTMENT_NOT_FOUND',
    () => ({ out_of_order: true }),
  ),
  send_from_locker: refusedToB(
    'POST',
    () => '/api/v1/lockers/sends',
    'LOCKER_SITE_NOT_FOUND',
    (ids) => ({
      site_id: ids.site,
      dropoff: { line1: '1 B road' },
      packages: [{}],
    }),
  ),
  offer_locker_quota: refusedToB(
    'PUT',
    () => '/api/v1/lockers/quotas',
    'LOCKER_SITE_NOT_FOUND',
    (ids) => ({
      site_id: ids.site,
      tenant_business_id: b.businessId,
      size_class: 'S',
      compartments: 1,
      price: 1,
      currency: 'EUR',
      period: 'day',
      starts_on: '2026-11-01',
    }),
  ),
  list_locker_quotas: async () => {
    const ids = await ofA();
    // A sells B one compartment: B sees the quota it holds and none of A's bookings or compartments.
    const offered = await offerToB(ids.site, 'S');
    assert.equal(offered.status, 200, JSON.stringify(offered.body));
    const held = await api.get('/api/v1/lockers/quotas', { token: adminOfB() });
    assert.deepEqual(
      held.body.quotas.map((quota: { tenant_business_id: number; operator_business_id: number }) => [
        quota.operator_business_id,
        quota.tenant_business_id,
      ]),
      [[a.businessId, b.businessId]],
    );
    const sites = await api.get('/api/v1/lockers/sites', { token: adminOfB() });
    const rented = sites.body.sites.find((site: { id: number }) => site.id === ids.site);
    assert.deepEqual(
      rented.devices.flatMap((device: { compartments: unknown[] }) => device.compartments),
      [],
    );
    const booking = await api.get(`/api/v1/lockers/bookings/${ids.booking}`, { token: adminOfB() });
    assert.equal(booking.status, 404);
    const withdrawn = await api.call('DELETE', `/api/v1/lockers/quotas/${offered.body.quota.id}`, {
      token: tokenOfA,
    });
    assert.equal(withdrawn.status, 200);
  },
  withdraw_locker_quota: async () => {
    const ids = await ofA();
    const offered = await offerToB(ids.site, 'M');
    // The tenant cannot end the operator's offer.
    const byTenant = await api.call('DELETE', `/api/v1/lockers/quotas/${offered.body.quota.id}`, {
      token: adminOfB(),
    });
    assert.equal(byTenant.status, 404);
    assert.equal(byTenant.body.error_code, 'LOCKER_QUOTA_NOT_FOUND');
    await api.call('DELETE', `/api/v1/lockers/quotas/${offered.body.quota.id}`, { token: tokenOfA });
  },
  create_luggage_relay: refusedToB(
    'POST',
    () => '/api/v1/luggage/relays',
    'LOCKER_SITE_NOT_FOUND',
    (ids) => ({
      bag_tag: 'B-BAG-1',
      site_ids: [ids.site],
    }),
  ),
  get_luggage_relay: refusedToB(
    'GET',
    (ids) => `/api/v1/luggage/relays/${ids.relay}`,
    'LUGGAGE_RELAY_NOT_FOUND',
  ),
  list_locker_storage: listsNothingOfA('/api/v1/lockers/storage', 'bookings'),
  get_locker_storage: refusedToB(
    'GET',
    (ids) => `/api/v1/lockers/storage/${ids.storage}`,
    'LOCKER_BOOKING_NOT_FOUND',
  ),
};
