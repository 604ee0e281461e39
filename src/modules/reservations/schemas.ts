import { z } from 'zod';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { calendarDate, timeZoneSchema } from '../../platform/schemas.ts';
import { MAX_SPAN_DAYS, parseRule } from './availability.ts';
import { BOOKING_STATES, RESOURCE_KINDS } from './tables.ts';

/** A business keeps at most this many resources; lists give at most this many rows. */
export const MAX_RESOURCES = 200;
/** A confirmation code is good for this long, and for this many wrong tries. */
export const CODE_TTL_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;

const at = z.string().describe('ISO 8601 instant');

export const resourceKindSchema = z.enum(RESOURCE_KINDS).meta({ title: 'ReservationResourceKind' });
export const bookingStateSchema = z.enum(BOOKING_STATES).meta({ title: 'ReservationState' });

export const ruleInput = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((text) => parseRule(text) !== null, fieldMessage('recurrence_rule'))
  .describe(
    "When slots start, as an RRULE on the business's wall clock: FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9,10;BYMINUTE=0",
  );

/** A resource's fields as a change gives them (none has a default there). */
export const resourceFields = {
  name: z.string().trim().min(1).max(200),
  kind: resourceKindSchema,
  rrule: ruleInput,
  starts_on: calendarDate.describe('The first day the rule counts from'),
  time_zone: timeZoneSchema.optional().describe("Where the rule's wall clock is; default the business's"),
  slot_minutes: z.int().min(5).max(1440),
  capacity: z.int().min(1).max(1000).describe('Places per slot'),
  offer_minutes: z
    .int()
    .min(5)
    .max(10_080)
    .describe('How long a person promoted from the waitlist has to accept'),
  waitlist: z.boolean().describe('A full slot takes waitlist places'),
  published: z.boolean().describe('Bookable by the public'),
};

export const resourceInput = {
  ...resourceFields,
  offer_minutes: resourceFields.offer_minutes.default(120),
  waitlist: resourceFields.waitlist.default(true),
  published: resourceFields.published.default(true),
};

export const resourceSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    kind: resourceKindSchema,
    rrule: z.string(),
    starts_on: z.string(),
    time_zone: z.string(),
    slot_minutes: z.int(),
    capacity: z.int(),
    offer_minutes: z.int(),
    waitlist: z.boolean(),
    published: z.boolean(),
    booking_page: z.string().describe('The public page where people book it'),
  })
  .meta({ title: 'ReservationResource' });

/** A slot as anyone sees it: times and places left, never who holds them. */
export const slotSchema = z.object({
  starts_at: at,
  ends_at: at,
  local_start: z.string().describe("Wall-clock start in the resource's time zone, YYYY-MM-DDTHH:MM"),
  remaining: z.int().describe('Places left'),
  waitlist_open: z.boolean().describe('Full, and a booking now joins the waitlist'),
});

export const publicResourceSchema = z.object({
  business: z.string(),
  id: z.int(),
  name: z.string(),
  kind: resourceKindSchema,
  time_zone: z.string(),
  slot_minutes: z.int(),
});

export const slotsQuery = {
  from: calendarDate.optional().describe("First day (the resource's time zone); default today"),
  days: z.int().min(1).max(MAX_SPAN_DAYS).default(7),
};

export const contactInput = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .refine(
    (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) || /^\+?[\d\s().-]{6,24}$/.test(text),
    fieldMessage('contact'),
  )
  .describe('An email address or a phone number: the confirmation code goes there');

/** A booking as its booker sees it (with the signed link); staff see the same plus the contact. */
export const bookingSchema = z
  .object({
    reference: z.string(),
    resource_id: z.int(),
    resource_name: z.string(),
    time_zone: z.string().describe("The resource's time zone, where its slots are read"),
    starts_at: at,
    ends_at: at,
    state: bookingStateSchema,
    contact_confirmed: z.boolean(),
    name: z.string(),
    offer_expires_at: at.nullable().describe('Offered from the waitlist: accept before this'),
    code_expires_at: at.nullable().describe('Not confirmed yet: the code works until this'),
  })
  .meta({ title: 'Reservation' });

export const staffBookingSchema = bookingSchema.extend({
  id: z.int(),
  contact: z.string(),
  contact_kind: z.enum(['email', 'phone']),
  created_at: at,
  waitlist_position: z.int().nullable().describe('Waiting: 1 is offered the next free place'),
});

export const linksSchema = z
  .object({
    manage: z.string().describe('Signed link: this booking, GET; cancel and change below it'),
    calendar: z.string().describe('Signed link: the booking as an iCalendar file'),
    page: z.string().describe('Signed link: the booking page for people (cancel, accept an offer)'),
  })
  .meta({ title: 'ReservationLinks' });

/** An instant as a filter takes it; a plain string in the schema (a date-time pattern is 400 bytes of every tool list). */
export const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), fieldMessage('instant'));

export const signature = z.string().min(10).max(100).describe("The signature of the booking's link");
export const reference = z.string().min(8).max(40);
