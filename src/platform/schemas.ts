import { z } from 'zod';
import { isValidTimeZone } from './clock.ts';
import { fieldMessage } from './i18n/field-messages.ts';

// The building blocks of input schemas that every module shares: ids, dates, times, addresses, money.

/** A positive integer id (over REST, the door reads it from the path or query string). */
export const idParam = z.int().positive();

export const calendarDate = z.iso.date().describe('Calendar date, YYYY-MM-DD');

/** Which business a contractor acts in, on operations contractors may call. */
export const actingBusinessParam = idParam
  .optional()
  .describe('For contractors working for several businesses: which one. Ignored for the business staff.');
/** `actingBusinessParam` on reads an allied business may share (Access.allied). */
export const alliedBusinessParam = idParam
  .optional()
  .describe(
    'Contractors: which business they act in. Staff: another business that shares this data with theirs through an alliance (list_accessible_clients), read-only; their own when left out.',
  );
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const clockTime = z.string().regex(CLOCK_TIME, fieldMessage('clock_time')).describe('Local time HH:MM');
const bothClockTimes = ({ from, to }: { from: string; to: string }) =>
  CLOCK_TIME.test(from) && CLOCK_TIME.test(to);

export const timeWindowSchema = z
  .object({ start: clockTime, end: clockTime })
  .refine((window) => window.start < window.end, {
    ...fieldMessage('window_end_after_start'),
    path: ['end'],
  });

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** Opening hours by weekday: each day's open intervals, local time HH:MM; a day absent is closed. */
export type OpeningHours = Partial<Record<(typeof WEEKDAYS)[number], Array<{ from: string; to: string }>>>;

const openingInterval = z.object({ from: z.string(), to: z.string() }).meta({ title: 'OpeningInterval' });
/**
 * Opening hours as answers carry them (the OpeningHours type): stored only through
 * openingHoursSchema, so keyed by weekday, which lets GraphQL give them a type rather than JSON.
 */
export const openingHoursOutput = z
  .object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(openingInterval).optional()])) as Record<
      (typeof WEEKDAYS)[number],
      z.ZodOptional<z.ZodArray<typeof openingInterval>>
    >,
  )
  .meta({ title: 'OpeningHours' });

/** Opening hours as callers write them (a place of interest, a warehouse): at most four intervals a day. */
export const openingHoursSchema = z
  .partialRecord(
    z.enum(WEEKDAYS),
    z
      .array(
        z
          .object({ from: clockTime, to: clockTime })
          // Compared only when both are times: an unreadable one has its own message.
          .refine((interval) => !bothClockTimes(interval) || interval.from < interval.to, {
            ...fieldMessage('window_end_after_start'),
            path: ['to'],
          }),
      )
      .max(4),
  )
  .describe('Open intervals by weekday (mon ... sun), local time; a day absent is closed');

/** An IANA time zone name, such as Europe/Paris. */
export const timeZoneSchema = z.string().min(1).max(64).refine(isValidTimeZone, fieldMessage('time_zone'));

/** A postal address with its contact, as callers write it and answers carry it (the Address type). */
export const addressSchema = z
  .object({
    name: z.string().trim().max(200).optional(),
    phone: z.string().trim().max(40).optional(),
    line1: z.string().trim().min(1).max(200),
    line2: z.string().trim().max(200).optional(),
    city: z.string().trim().max(100).optional(),
    postal_code: z.string().trim().max(20).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, fieldMessage('country_code'))
      .optional(),
    lat: z.number().min(-90).max(90).optional(),
    lng: z.number().min(-180).max(180).optional(),
  })
  .meta({ title: 'Address' });

/** Money as the caller writes it: major units, a number or a decimal string. */
export const amountInput = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, fieldMessage('amount'))])
  .describe('Major units, e.g. 12.50');
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, fieldMessage('currency_code'));
