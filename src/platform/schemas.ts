import { z } from 'zod';
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
const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, fieldMessage('clock_time'))
  .describe('Local time HH:MM');

export const timeWindowSchema = z
  .object({ start: clockTime, end: clockTime })
  .refine((window) => window.start < window.end, {
    ...fieldMessage('window_end_after_start'),
    path: ['end'],
  });

export const addressSchema = z.object({
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
});

/** Money as the caller writes it: major units, a number or a decimal string. */
export const amountInput = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, fieldMessage('amount'))])
  .describe('Major units, e.g. 12.50');
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, fieldMessage('currency_code'));
