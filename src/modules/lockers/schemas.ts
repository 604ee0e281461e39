import { z } from 'zod';
import { addressSchema, currencyCode, idParam } from '../../platform/schemas.ts';
import {
  ACTOR_KINDS,
  BOOKING_PURPOSES,
  BOOKING_STATES,
  COMPARTMENT_STATES,
  DEVICE_KINDS,
  SIZE_CLASSES,
} from './tables.ts';

/** A device holds at most this many compartments; a site at most this many devices. */
export const MAX_COMPARTMENTS_PER_DEVICE = 200;
export const MAX_DEVICES_PER_SITE = 50;
/** Wrong codes a booking takes before it locks (staff give it a new code). */
export const MAX_CODE_ATTEMPTS = 5;
/** Hops of a luggage relay. */
export const MAX_RELAY_HOPS = 6;

const millimetres = z.int().min(1).max(10_000);

// The lockers vocabulary, one named type each in the contract.
export const sizeClassSchema = z.enum(SIZE_CLASSES).meta({ title: 'LockerSizeClass' });
export const compartmentStateSchema = z.enum(COMPARTMENT_STATES).meta({ title: 'LockerCompartmentState' });
export const deviceKindSchema = z.enum(DEVICE_KINDS).meta({ title: 'LockerDeviceKind' });
export const bookingPurposeSchema = z.enum(BOOKING_PURPOSES).meta({ title: 'LockerBookingPurpose' });
export const bookingStateSchema = z.enum(BOOKING_STATES).meta({ title: 'LockerBookingState' });
/** Which of a booking's openings a code opened: the deposit, the recipient's pickup, or taking it back. */
export const openingKindSchema = z
  .enum(['deposit', 'pickup', 'retrieval'])
  .meta({ title: 'LockerOpeningKind' });
const at = z.string().describe('ISO 8601 instant');

export const compartmentInput = z.object({
  number: z.int().min(1).max(999),
  size_class: sizeClassSchema,
  length_mm: millimetres,
  width_mm: millimetres,
  height_mm: millimetres,
});

export const siteInput = {
  name: z.string().trim().min(1).max(200),
  address: addressSchema,
  opening_hours: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('As people read it, in OpenStreetMap opening_hours form: "Mo-Su 00:00-24:00"'),
  hold_hours: z
    .int()
    .min(1)
    .max(720)
    .default(72)
    .describe('How long a deposited parcel waits for its recipient before it goes back'),
};

export const deviceInput = {
  site_id: idParam,
  kind: deviceKindSchema,
  name: z.string().trim().min(1).max(200),
  compartments: z
    .array(compartmentInput)
    .min(1)
    .max(MAX_COMPARTMENTS_PER_DEVICE)
    .describe('The compartments with their numbers as the device knows them (unique)'),
};

export const compartmentSchema = z
  .object({
    id: z.int(),
    device_id: z.int(),
    number: z.int(),
    size_class: sizeClassSchema,
    inner: z.object({ length_mm: z.int(), width_mm: z.int(), height_mm: z.int() }),
    state: compartmentStateSchema,
  })
  .meta({ title: 'LockerCompartment' });

export const deviceSchema = z
  .object({
    id: z.int(),
    site_id: z.int(),
    kind: deviceKindSchema,
    name: z.string(),
    online: z.boolean(),
    last_seen_at: at.nullable(),
    firmware: z.string().nullable(),
    compartments: z.array(compartmentSchema),
  })
  .meta({ title: 'LockerDevice' });

export const siteSchema = z
  .object({
    id: z.int(),
    operator_business_id: z.int(),
    name: z.string(),
    address: addressSchema,
    opening_hours: z.string().nullable(),
    hold_hours: z.int(),
    devices: z.array(deviceSchema),
  })
  .meta({ title: 'LockerSite' });

export const bookingSchema = z
  .object({
    id: z.int(),
    reference: z.string().describe('What the person at the locker gives with a code'),
    business_id: z.int(),
    site_id: z.int(),
    device_id: z.int(),
    compartment: z
      .object({ id: z.int(), number: z.int(), size_class: sizeClassSchema })
      .meta({ title: 'LockerBookingCompartment' }),
    purpose: bookingPurposeSchema,
    state: bookingStateSchema,
    opening: openingKindSchema.nullable(),
    order_id: z.int().nullable(),
    relay_id: z.int().nullable(),
    hop: z.int().nullable(),
    recipient_user_id: z.int().nullable(),
    recipient_name: z.string().nullable(),
    locked: z.boolean(),
    pickup_expires_at: at.nullable(),
    paid_until: at.nullable(),
    created_at: at,
    deposited_at: at.nullable(),
    finished_at: at.nullable(),
  })
  .meta({ title: 'LockerBooking' });

/** A new booking's codes: shown in this answer only. */
export const codesSchema = z
  .object({
    drop_code: z.string().describe('Opens the compartment once for the deposit'),
    pickup_code: z.string().describe('Opens it for the pickup, once deposited, until the pickup deadline'),
  })
  .meta({ title: 'LockerBookingCodes' });

export const commandSchema = z
  .object({
    id: z.string(),
    device_id: z.int(),
    compartment_id: z.int().nullable(),
    booking_id: z.int().nullable(),
    action: z.enum(['open', 'reboot']),
    status: z.enum(['pending', 'acked', 'failed']).meta({ title: 'LockerCommandStatus' }),
    error: z.string().nullable(),
    issued_at: at,
    expires_at: at,
    answered_at: at.nullable(),
  })
  .meta({ title: 'LockerCommand' });

export const ledgerEntrySchema = z
  .object({
    id: z.int(),
    at,
    kind: z.string(),
    actor: z
      .object({ kind: z.enum(ACTOR_KINDS).meta({ title: 'LockerActorKind' }), user_id: z.int().nullable() })
      .meta({ title: 'LockerActor' }),
    site_id: z.int(),
    device_id: z.int().nullable(),
    compartment_id: z.int().nullable(),
    booking_id: z.int().nullable(),
    order_id: z.int().nullable(),
    relay_id: z.int().nullable(),
    command_id: z.string().nullable(),
    tenant_business_id: z.int().nullable(),
    code_ref: z.string().nullable().describe('Which code was used, as a piece of its hash; never the code'),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ title: 'LockerLedgerEntry' });

/** How often a locker quota's price is due. */
export const quotaPeriodSchema = z.enum(['day', 'week', 'month']).meta({ title: 'LockerQuotaPeriod' });

export const quotaInput = {
  site_id: idParam,
  tenant_business_id: idParam,
  size_class: sizeClassSchema,
  compartments: z.int().min(1).max(10_000).describe('How many compartments the tenant may hold at once'),
  price: z.number().min(0).max(1_000_000).describe('Per period, major units'),
  currency: currencyCode,
  period: quotaPeriodSchema,
  starts_on: z.iso.date(),
  ends_on: z.iso.date().optional(),
};

export const quotaSchema = z
  .object({
    id: z.int(),
    site_id: z.int(),
    operator_business_id: z.int(),
    tenant_business_id: z.int(),
    size_class: sizeClassSchema,
    compartments: z.int(),
    in_use: z.int(),
    price: z.number(),
    currency: z.string(),
    period: quotaPeriodSchema,
    starts_on: z.string(),
    ends_on: z.string().nullable(),
  })
  .meta({ title: 'LockerQuota' });

export const relaySchema = z
  .object({
    id: z.int(),
    bag_tag: z.string(),
    owner_name: z.string().nullable(),
    site_ids: z.array(z.int()),
    created_at: at,
    hops: z.array(bookingSchema),
    custody: z.array(ledgerEntrySchema),
  })
  .meta({ title: 'LuggageRelay' });
