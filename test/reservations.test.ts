import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import type { ContactMessage } from '../src/modules/reservations/index.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The contact sender of the tests: keeps what it was asked to send. */
class CapturingSender {
  readonly sent: ContactMessage[] = [];
  async send(message: ContactMessage) {
    this.sent.push(message);
  }
  /** The last code sent to a contact. */
  codeFor(contact: string): string {
    const message = this.sent.findLast((one) => one.to === contact && /code/i.test(one.subject));
    assert.ok(message, `a code was sent to ${contact}`);
    return /Confirmation code: (\d{6})/.exec(message.text)![1]!;
  }
  offersTo(contact: string) {
    return this.sent.filter((one) => one.to === contact && one.subject.startsWith('A place is free'));
  }
}

/** The API address of the booking page link a message carries. */
function apiOf(text: string) {
  const link = new URL(/(http\S+\/booking\/\S+)/.exec(text)![1]!);
  return { path: link.pathname.replace('/booking/', '/api/v1/bookings/'), search: link.search };
}

const RESOURCE = {
  name: 'Moving crew, 2 movers',
  kind: 'moving_crew',
  rrule: 'FREQ=DAILY;BYHOUR=9,10,11;BYMINUTE=0;BYSECOND=0',
  starts_on: '2026-11-01',
  slot_minutes: 60,
  capacity: 10,
  offer_minutes: 60,
};
/** 09:00 in Paris on 3 November (UTC+1): the slot every test books. */
const SLOT = '2026-11-03T08:00:00.000Z';

describe('reservations: public booking, codes, signed links and the waitlist', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let code: string;
  let resourceId: number;
  const sender = new CapturingSender();
  const book = (contact: string, extra: object = {}) =>
    api.post(`/api/v1/book/${code}/${resourceId}`, {
      starts_at: SLOT,
      name: `Person ${contact}`,
      contact,
      ...extra,
    });
  const drain = () => server.app.outbox.drainOnce();
  const manageOf = (links: { manage: string }) => new URL(links.manage);
  const confirm = (reference: string, contact: string) =>
    api.post(`/api/v1/bookings/${reference}/confirm`, { code: sender.codeFor(contact) });

  before(async () => {
    server = await startTestServer(
      { reservations: { bookingsPerAddressPerHour: 10_000 } },
      { contactSender: sender },
    );
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'movers', { timeZone: 'Europe/Paris' });
    code = tenant.code;
    admin = await login(api, tenant.emails.client_admin);
    const made = await api.post('/api/v1/reservations/resources', RESOURCE, { token: admin });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    resourceId = made.body.resource.id;
    assert.equal(made.body.resource.time_zone, 'Europe/Paris');
    assert.ok(
      made.body.resource.booking_page.endsWith(`/book/movers/${resourceId}`),
      made.body.resource.booking_page,
    );
  });
  after(() => server.close());

  it('lists the slots of the rule on the business wall clock, places left only', async () => {
    const slots = await api.get(`/api/v1/book/${code}/${resourceId}/slots?from=2026-11-03&days=1`);
    assert.equal(slots.status, 200, JSON.stringify(slots.body));
    assert.deepEqual(
      slots.body.slots.map((slot: { local_start: string }) => slot.local_start),
      ['2026-11-03T09:00', '2026-11-03T10:00', '2026-11-03T11:00'],
    );
    assert.equal(slots.body.slots[0].starts_at, SLOT);
    assert.deepEqual(Object.keys(slots.body.slots[0]).sort(), [
      'ends_at',
      'local_start',
      'remaining',
      'starts_at',
      'waitlist_open',
    ]);
    const refused = await api.post(
      '/api/v1/reservations/resources',
      { ...RESOURCE, rrule: 'EVERY TUESDAY' },
      { token: admin },
    );
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.details.fields[0].field, 'rrule');
  });

  it('gives 100 parallel bookers of 10 places exactly 10 places, the rest the waitlist', async () => {
    const contacts = Array.from({ length: 100 }, (_, i) => `booker${i}@example.test`);
    const answers = await Promise.all(contacts.map((contact) => book(contact)));
    assert.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
    const states = answers.map((answer) => answer.body.booking.state as string);
    assert.equal(states.filter((state) => state === 'held').length, 10);
    assert.equal(states.filter((state) => state === 'waitlisted').length, 90);
    await drain();
    const confirmed = await Promise.all(
      answers.map((answer, i) => confirm(answer.body.booking.reference, contacts[i]!)),
    );
    assert.deepEqual([...new Set(confirmed.map((answer) => answer.status))], [200]);
    const after = confirmed.map((answer) => answer.body.booking.state as string);
    assert.equal(after.filter((state) => state === 'confirmed').length, 10);
    assert.equal(after.filter((state) => state === 'waitlisted').length, 90);
    const slots = await api.get(`/api/v1/book/${code}/${resourceId}/slots?from=2026-11-03&days=1`);
    assert.deepEqual(slots.body.slots[0], {
      starts_at: SLOT,
      ends_at: '2026-11-03T09:00:00.000Z',
      local_start: '2026-11-03T09:00',
      remaining: 0,
      waitlist_open: true,
    });
    const counted = await server.db
      .selectFrom('reservation_bookings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', 'in', ['held', 'confirmed', 'offered'])
      .executeTakeFirstOrThrow();
    assert.equal(Number(counted.n), 10, 'ten places taken in the bookings themselves');
    const full = await book('late@example.test', { waitlist: false });
    assert.equal(full.status, 409, JSON.stringify(full.body));
    assert.equal(full.body.error_code, 'RESERVATION_SLOT_FULL');
  });

  it('promotes the first waiting person on a cancellation, and the next when the offer is not accepted in time', async () => {
    const listed = await api.get('/api/v1/reservations?states=confirmed&states=waitlisted&per_page=200', {
      token: admin,
    });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const confirmedOne = listed.body.bookings.find((b: { state: string }) => b.state === 'confirmed');
    const waiting = listed.body.bookings
      .filter((b: { state: string }) => b.state === 'waitlisted')
      .sort(
        (x: { waitlist_position: number }, y: { waitlist_position: number }) =>
          x.waitlist_position - y.waitlist_position,
      );
    assert.equal(waiting[0].waitlist_position, 1);
    const [first, second] = waiting as Array<{ id: number; reference: string; contact: string }>;

    const cancelled = await api.post(
      `/api/v1/reservations/bookings/${confirmedOne.id}/cancel`,
      {},
      { token: admin },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.booking.state, 'cancelled');
    await drain();
    assert.equal(sender.offersTo(first!.contact).length, 1, 'the first waiting person is told');
    const offerLink = apiOf(sender.offersTo(first!.contact)[0]!.text);
    const firstNow = await api.get(offerLink.path + offerLink.search);
    assert.equal(firstNow.body.booking.state, 'offered');
    const firstExpiry = firstNow.body.booking.offer_expires_at;
    assert.equal(firstExpiry, new Date(server.clock.now().getTime() + 3_600_000).toISOString());

    server.clock.advance(61 * 60_000);
    await drain();
    const secondNow = await api.get(`/api/v1/reservations?states=offered`, { token: admin });
    assert.deepEqual(
      secondNow.body.bookings.map((b: { id: number }) => b.id),
      [second!.id],
      'the next waiting person holds the offer now',
    );
    assert.ok(secondNow.body.bookings[0].offer_expires_at > firstExpiry, 'the new offer expires later');
    const late = await api.post(`${offerLink.path}/accept${offerLink.search}`, {});
    assert.equal(late.status, 410, JSON.stringify(late.body));
    assert.equal(late.body.error_code, 'RESERVATION_OFFER_EXPIRED');

    const secondLink = apiOf(sender.offersTo(second!.contact)[0]!.text);
    const accepted = await api.post(`${secondLink.path}/accept${secondLink.search}`, {});
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.booking.state, 'confirmed');
    const slots = await api.get(`/api/v1/book/${code}/${resourceId}/slots?from=2026-11-03&days=1`);
    assert.equal(slots.body.slots[0].remaining, 0, 'never more than the capacity');
  });

  it('cancels through the signed link, refuses a tampered one, and serves the iCalendar file', async () => {
    const booked = await api.post(`/api/v1/book/${code}/${resourceId}`, {
      starts_at: '2026-11-03T09:00:00.000Z',
      name: 'Zoé; "Test", Jr',
      contact: '+33 6 00 00 00 01',
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    await drain();
    const confirmed = await confirm(booked.body.booking.reference, '+33 6 00 00 00 01');
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const manage = manageOf(confirmed.body.links);
    const signature = manage.searchParams.get('signature')!;
    const tampered = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = await api.post(`${manage.pathname}/cancel?signature=${tampered}`, {});
    assert.equal(forged.status, 403, JSON.stringify(forged.body));
    assert.equal(forged.body.error_code, 'RESERVATION_LINK_INVALID');
    const otherReference = await api.post(
      `/api/v1/bookings/${'x'.repeat(16)}/cancel?signature=${signature}`,
      {},
    );
    assert.equal(otherReference.status, 404, JSON.stringify(otherReference.body));

    const calendar = new URL(confirmed.body.links.calendar);
    const ics = await api.get(calendar.pathname + calendar.search);
    assert.equal(ics.status, 200);
    assert.match(ics.headers.get('content-type') ?? '', /^text\/calendar/);
    assert.ok(ics.body.includes('DTSTART:20261103T090000Z\r\n'), ics.body);
    assert.ok(ics.body.includes('Zoé\\; "Test"\\, Jr'), 'the name escaped');

    const cancelled = await api.post(`${manage.pathname}/cancel${manage.search}`, {});
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.booking.state, 'cancelled');
    const again = await api.post(`${manage.pathname}/cancel${manage.search}`, {});
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error_code, 'RESERVATION_CLOSED');
  });

  it('moves a confirmed booking to another slot through its link', async () => {
    const booked = await api.post(`/api/v1/book/${code}/${resourceId}`, {
      starts_at: '2026-11-04T08:00:00.000Z',
      name: 'Mover',
      contact: 'mover@example.test',
    });
    await drain();
    const confirmed = await confirm(booked.body.booking.reference, 'mover@example.test');
    const manage = manageOf(confirmed.body.links);
    const moved = await api.post(`${manage.pathname}/change${manage.search}`, {
      starts_at: '2026-11-04T10:00:00.000Z',
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.booking.starts_at, '2026-11-04T10:00:00.000Z');
    const full = await api.post(`${manage.pathname}/change${manage.search}`, { starts_at: SLOT });
    assert.equal(full.status, 409, JSON.stringify(full.body));
    const notASlot = await api.post(`${manage.pathname}/change${manage.search}`, {
      starts_at: '2026-11-04T10:30:00.000Z',
    });
    assert.equal(notASlot.status, 422, JSON.stringify(notASlot.body));
    assert.equal(notASlot.body.error_code, 'RESERVATION_SLOT_NOT_OFFERED');
  });

  it('refuses a wrong code, then an expired one, and lets the held place go', async () => {
    const booked = await api.post(`/api/v1/book/${code}/${resourceId}`, {
      starts_at: '2026-11-05T08:00:00.000Z',
      name: 'Slow',
      contact: 'slow@example.test',
    });
    await drain();
    const right = sender.codeFor('slow@example.test');
    const wrong = await api.post(`/api/v1/bookings/${booked.body.booking.reference}/confirm`, {
      code: right === '000000' ? '000001' : '000000',
    });
    assert.equal(wrong.status, 422, JSON.stringify(wrong.body));
    assert.equal(wrong.body.error_code, 'RESERVATION_CODE_WRONG');
    server.clock.advance(16 * 60_000);
    const late = await api.post(`/api/v1/bookings/${booked.body.booking.reference}/confirm`, {
      code: right,
    });
    assert.equal(late.status, 410, JSON.stringify(late.body));
    assert.equal(late.body.error_code, 'RESERVATION_CODE_EXPIRED');
    const slots = await api.get(`/api/v1/book/${code}/${resourceId}/slots?from=2026-11-05&days=1`);
    assert.equal(slots.body.slots[0].remaining, 10, 'the held place went back');
    const french = await api.post(
      `/api/v1/bookings/${booked.body.booking.reference}/confirm`,
      { code: right },
      { headers: { 'accept-language': 'fr' } },
    );
    assert.equal(french.body.error_code, 'RESERVATION_CODE_EXPIRED');
    assert.match(french.body.message, /expiré/);
  });

  it('keeps a business code from reaching another business resource, and staff marks attendance', async () => {
    const other = await createTenant(server.db, server.app.services, 'elsewhere');
    const crossed = await api.get(`/api/v1/book/${other.code}/${resourceId}/slots`);
    assert.equal(crossed.status, 404, JSON.stringify(crossed.body));
    assert.equal(crossed.body.error_code, 'RESERVATION_RESOURCE_NOT_FOUND');
    const listed = await api.get('/api/v1/reservations?states=confirmed&per_page=1', { token: admin });
    // Bookings accumulate: the list pages by cursor too, each page after the one before.
    const whole = await api.get('/api/v1/reservations?states=confirmed&per_page=200', { token: admin });
    assert.ok(whole.body.total >= 2, JSON.stringify(whole.body.total));
    const next = await api.get(
      `/api/v1/reservations?states=confirmed&per_page=1&cursor=${listed.body.next_cursor}`,
      {
        token: admin,
      },
    );
    assert.deepEqual(
      [...listed.body.bookings, ...next.body.bookings].map((b: { id: number }) => b.id),
      whole.body.bookings.slice(0, 2).map((b: { id: number }) => b.id),
    );
    assert.deepEqual([next.body.page, next.body.per_page, next.body.total], [2, 1, whole.body.total]);
    const attended = await api.post(
      `/api/v1/reservations/bookings/${listed.body.bookings[0].id}/attended`,
      {},
      { token: admin },
    );
    assert.equal(attended.status, 200, JSON.stringify(attended.body));
    assert.equal(attended.body.booking.state, 'attended');
  });

  it('reads bookings and resources through GraphQL, as over REST', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{
      reservationResources: { resources: Array<{ name: string; capacity: number }> };
      reservations: {
        bookings: Array<{ state: string; starts_at: string; waitlist_position: number | null }>;
      };
    }>(gql`
      {
        reservationResources {
          resources {
            name
            capacity
          }
        }
        reservations(states: [confirmed], per_page: 200) {
          bookings {
            state
            starts_at
            waitlist_position
          }
        }
      }
    `);
    assert.deepEqual(answer.reservationResources.resources, [{ name: RESOURCE.name, capacity: 10 }]);
    const rest = await api.get('/api/v1/reservations?states=confirmed&per_page=200', { token: admin });
    assert.equal(answer.reservations.bookings.length, rest.body.bookings.length);
    assert.ok(
      answer.reservations.bookings.every((b) => b.state === 'confirmed'),
      'only confirmed ones',
    );
  });

  it('books only a slot the rule offers that has not started, and keeps nothing of a refusal', async () => {
    const before = await server.db
      .selectFrom('reservation_bookings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const refusals = [
      '2026-11-03T08:30:00.000Z', // half past nine: between two slots
      '2026-11-03T11:00:00.000Z', // noon: after the day's last slot
      '2026-11-02T08:00:00.000Z', // this morning's first slot, already gone
    ];
    for (const startsAt of refusals) {
      const refused = await book('early@example.test', { starts_at: startsAt });
      assert.equal(refused.status, 422, `${startsAt}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error_code, 'RESERVATION_SLOT_NOT_OFFERED');
    }
    const now = server.clock.now();
    try {
      // At the very start of a slot it is no longer offered; a moment before, it is.
      server.clock.set(new Date('2026-11-03T09:00:00.000Z'));
      const starting = await book('starting@example.test', { starts_at: '2026-11-03T09:00:00.000Z' });
      assert.equal(starting.body.error_code, 'RESERVATION_SLOT_NOT_OFFERED', JSON.stringify(starting.body));
      server.clock.set(new Date('2026-11-03T08:59:59.000Z'));
      const justInTime = await book('in-time@example.test', { starts_at: '2026-11-03T09:00:00.000Z' });
      assert.equal(justInTime.status, 200, JSON.stringify(justInTime.body));
    } finally {
      server.clock.set(now);
    }
    const after = await server.db
      .selectFrom('reservation_bookings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n) + 1, 'the one booking made, and none of the refused');
  });

  it('keeps no waitlist for a resource whose waitlist is off: a full slot refuses, and keeps nothing', async () => {
    const made = await api.post(
      '/api/v1/reservations/resources',
      { ...RESOURCE, name: 'Pickup counter', capacity: 1, waitlist: false },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.resource.waitlist, false);
    const counter = made.body.resource.id;
    const bookCounter = (contact: string, waitlist: boolean) =>
      api.post(`/api/v1/book/${code}/${counter}`, { starts_at: SLOT, name: 'Counter', contact, waitlist });
    const first = await bookCounter('first@example.test', true);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.booking.state, 'held', 'a slot with room gives a place, waitlist asked or not');
    for (const waitlist of [true, false]) {
      const refused = await bookCounter(`second-${waitlist}@example.test`, waitlist);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'RESERVATION_SLOT_FULL');
    }
    const slots = await api.get(`/api/v1/book/${code}/${counter}/slots?from=2026-11-03&days=1`);
    assert.deepEqual(
      { remaining: slots.body.slots[0].remaining, waitlist_open: slots.body.slots[0].waitlist_open },
      { remaining: 0, waitlist_open: false },
    );
    const kept = await server.db
      .selectFrom('reservation_bookings')
      .select(['contact', 'state'])
      .where('resource_id', '=', counter)
      .execute();
    assert.deepEqual(kept, [{ contact: 'first@example.test', state: 'held' }]);
    await drain();
    assert.ok(
      !sender.sent.some((message) => message.to.startsWith('second-')),
      'no code sent to the refused',
    );
  });
});

describe('reservations: bookings limited per client address', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ reservations: { bookingsPerAddressPerHour: 2 } });
  });
  after(() => server.close());

  it('refuses the third booking of an address within the hour with 429 and Retry-After', async () => {
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'limited', {
      timeZone: 'Europe/Paris',
    });
    const admin = await login(api, tenant.emails.client_admin);
    const made = await api.post('/api/v1/reservations/resources', RESOURCE, { token: admin });
    const path = `/api/v1/book/${tenant.code}/${made.body.resource.id}`;
    const book = (n: number) =>
      api.post(path, { starts_at: SLOT, name: `P${n}`, contact: `p${n}@example.test` });
    assert.equal((await book(1)).status, 200);
    assert.equal((await book(2)).status, 200);
    const third = await book(3);
    assert.equal(third.status, 429, JSON.stringify(third.body));
    assert.equal(third.body.error_code, 'RATE_LIMITED');
    assert.ok(Number(third.headers.get('retry-after')) > 0, 'a Retry-After header');
    const slots = await api.get(`${path}/slots?from=2026-11-03&days=1`);
    assert.equal(slots.body.slots[0].remaining, 8, 'the refused booking took no place');
  });
});
