import assert from 'node:assert/strict';
import { a, adminOfB, api, type Checks, listsNothingOfAIn, tokenOfA } from './tenancy.ts';

export const RESOURCE = {
  name: 'Pickup counter',
  kind: 'pickup_counter',
  rrule: 'FREQ=DAILY;BYHOUR=9,10,11;BYMINUTE=0;BYSECOND=0',
  starts_on: '2026-11-01',
  slot_minutes: 30,
  capacity: 2,
};

/** A's resource with one public booking in it. */
let madeOfA: Promise<{ resource: number; booking: number }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    const resource = await api.post('/api/v1/reservations/resources', RESOURCE, { token: tokenOfA });
    assert.equal(resource.status, 200, JSON.stringify(resource.body));
    const slots = await api.get(`/api/v1/book/${a.code}/${resource.body.resource.id}/slots?days=2`);
    assert.equal(slots.status, 200, JSON.stringify(slots.body));
    const booked = await api.post(`/api/v1/book/${a.code}/${resource.body.resource.id}`, {
      starts_at: slots.body.slots[0].starts_at,
      name: 'Ana of A',
      contact: 'ana@a.test',
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    const listed = await api.get('/api/v1/reservations', { token: tokenOfA });
    return { resource: resource.body.resource.id as number, booking: listed.body.bookings[0].id as number };
  })());

const asA = async () => ({
  resources: (await api.get('/api/v1/reservations/resources', { token: tokenOfA })).body,
  bookings: (await api.get('/api/v1/reservations', { token: tokenOfA })).body,
});

type Ids = Awaited<ReturnType<typeof ofA>>;
/** B's admin on one of A's things: refused as unknown, and A's reservations unchanged. */
const refusedToB =
  (method: string, path: (ids: Ids) => string, code: string, body: object = {}) =>
  async () => {
    const ids = await ofA();
    const before = await asA();
    const answer = await api.call(method, path(ids), { token: adminOfB(), body });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    assert.deepEqual(await asA(), before);
  };

const listsNothingOfA = (path: string, field: string, key: string) =>
  listsNothingOfAIn(ofA, path, field, key);

export const reservationChecks: Checks = {
  create_reservation_resource: async () => {
    const before = await asA();
    const made = await api.post('/api/v1/reservations/resources', RESOURCE, { token: adminOfB() });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.ok(!made.body.resource.booking_page.includes(`/book/${a.code}/`), 'made in B, not in A');
    assert.deepEqual(await asA(), before);
  },
  list_reservation_resources: listsNothingOfA('/api/v1/reservations/resources', 'resources', 'id'),
  update_reservation_resource: refusedToB(
    'PATCH',
    (ids) => `/api/v1/reservations/resources/${ids.resource}`,
    'RESERVATION_RESOURCE_NOT_FOUND',
    { capacity: 50 },
  ),
  list_reservations: async () => {
    const ids = await ofA();
    await listsNothingOfA('/api/v1/reservations', 'bookings', 'reference')();
    const filtered = await api.get(`/api/v1/reservations?resource_id=${ids.resource}`, { token: adminOfB() });
    assert.deepEqual(filtered.body.bookings, []);
  },
  cancel_reservation: refusedToB(
    'POST',
    (ids) => `/api/v1/reservations/bookings/${ids.booking}/cancel`,
    'RESERVATION_NOT_FOUND',
  ),
  mark_reservation_attended: refusedToB(
    'POST',
    (ids) => `/api/v1/reservations/bookings/${ids.booking}/attended`,
    'RESERVATION_NOT_FOUND',
  ),
};
