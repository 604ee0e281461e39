import { z } from 'zod';
import { addressSchema } from '../../platform/schemas.ts';
import { orderFamilySchema } from '../orders/index.ts';
import { DECIDERS, THIRD_PARTY_STATES } from './tables.ts';

export const thirdPartyStateSchema = z.enum(THIRD_PARTY_STATES).meta({ title: 'ThirdPartyOrderState' });

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const pointer = z
  .string()
  .max(200)
  .regex(/^(\/[^/]*)*$/, 'a JSON pointer: empty, or /segments')
  .describe('A JSON pointer (RFC 6901) into one provider order');

/** Our order fields a provider order can fill; `id`, `accept_by` and `dropoff.line1` are needed. */
export const MAPPED_FIELDS = [
  'id',
  'accept_by',
  'scheduled_date',
  'window_start',
  'window_end',
  'note',
  ...(['pickup', 'dropoff'] as const).flatMap((leg) =>
    (['name', 'phone', 'line1', 'line2', 'city', 'postal_code', 'country', 'lat', 'lng'] as const).map(
      (part) => `${leg}.${part}` as const,
    ),
  ),
] as const;

type MappedField = (typeof MAPPED_FIELDS)[number];
const optionalFields = Object.fromEntries(
  MAPPED_FIELDS.map((field) => [field, pointer.optional()]),
) as Record<MappedField, z.ZodOptional<typeof pointer>>;

export const mappingSchema = z
  .object({
    orders_pointer: pointer.default('/orders').describe('Where the list of orders is in a pull answer'),
    cursor_pointer: pointer.default('/next_cursor').describe('Where the next cursor is in a pull answer'),
    // Strict: a misspelt field name is refused rather than silently never filled.
    fields: z
      .strictObject({
        ...optionalFields,
        id: pointer,
        accept_by: pointer.describe('ISO 8601 date-time or Unix seconds'),
        'dropoff.line1': pointer,
      })
      .describe('Our field -> pointer in the provider order'),
  })
  .meta({ title: 'ThirdPartyMapping' });
export type FieldMapping = {
  orders_pointer: string;
  cursor_pointer: string;
  fields: Partial<Record<MappedField, string>>;
};

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const area = z.union([
  z.object({
    bbox: z
      .object({ min_lat: latitude, min_lng: longitude, max_lat: latitude, max_lng: longitude })
      .refine((box) => box.min_lat <= box.max_lat && box.min_lng <= box.max_lng, {
        message: 'min below max',
        path: ['max_lat'],
      }),
  }),
  z.object({
    center: z.object({ lat: latitude, lng: longitude }),
    radius_km: z.number().positive().max(1000),
  }),
]);

export const rulesSchema = z
  .object({
    area: area.optional().describe('Service area: the drop-off must lie inside'),
    hours: z
      .object({ start: z.string().regex(CLOCK_TIME), end: z.string().regex(CLOCK_TIME) })
      .refine((hours) => hours.start < hours.end, { message: 'end after start', path: ['end'] })
      .optional()
      .describe("Local hours (business time zone): the order's window, or its arrival, must fall inside"),
    daily_capacity: z.int().min(0).max(100_000).optional().describe('Orders accepted a local day, at most'),
    otherwise: z
      .enum(['reject', 'manual'])
      .default('reject')
      .describe('When a rule fails: reject at once, or leave it to a dispatcher'),
  })
  .meta({ title: 'ThirdPartyRules' })
  .describe('Decide automatically; absent: every order waits for a dispatcher');
export type AcceptRules = z.output<typeof rulesSchema>;

export const connectionInput = {
  name: z.string().trim().min(1).max(100),
  adapter: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .default('generic_json')
    .describe('generic_json, or a registered adapter'),
  base_url: z.string().trim().url().max(500),
  credential: z
    .string()
    .min(8)
    .max(2000)
    .optional()
    .describe('Sent as a bearer token; kept sealed, never shown'),
  mapping: mappingSchema,
  family: orderFamilySchema.default('local_delivery').describe('Family of the local orders'),
  rules: rulesSchema.optional(),
  poll_seconds: z.int().min(5).max(86_400).default(60),
  active: z.boolean().default(true),
};

export const connectionSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    adapter: z.string(),
    base_url: z.string(),
    credential_hint: z.string().nullable(),
    family: orderFamilySchema,
    // What was stored is what the input schemas let through (see ConnectionsService).
    mapping: mappingSchema,
    rules: rulesSchema.nullable(),
    poll_seconds: z.int(),
    active: z.boolean(),
    cursor: z.string().nullable(),
    next_pull_at: z.string(),
    failures: z.int().describe('Pulls failed in a row; each doubles the wait, up to 30 minutes'),
    last_error: z.string().nullable(),
    last_error_at: z.string().nullable(),
    last_success_at: z.string().nullable(),
    push_url: z.string().describe('Where the provider pushes orders, with the push token'),
    created_at: z.string(),
  })
  .meta({ title: 'ThirdPartyConnection' });

/** The local order a provider order maps to (intake's localOrderOf): what accepting it creates. */
const mappedOrderSchema = z
  .object({
    order_ref: z.string(),
    family: orderFamilySchema,
    scheduled_date: z.string().optional(),
    time_window: z.object({ start: z.string(), end: z.string() }).optional(),
    pickup: addressSchema.optional(),
    dropoff: addressSchema,
    note: z.string().optional(),
  })
  .meta({ title: 'ThirdPartyMappedOrder' });
export type MappedOrder = z.input<typeof mappedOrderSchema>;

export const providerOrderSchema = z
  .object({
    id: z.int(),
    connection_id: z.int(),
    provider_order_id: z.string(),
    state: thirdPartyStateSchema,
    accept_by: z.string().describe('Accept or reject before this'),
    order_id: z.int().nullable().describe('The local order, once accepted'),
    decided_by: z.enum(DECIDERS).meta({ title: 'ThirdPartyDecider' }).nullable(),
    decision_reason: z.string().nullable(),
    last_error: z.string().nullable(),
    received_at: z.string(),
    decided_at: z.string().nullable(),
    order: mappedOrderSchema.describe('The provider order in our terms'),
  })
  .meta({ title: 'ThirdPartyOrder' });

export const pullResultSchema = z.object({
  received: z.int().describe('Orders new to us'),
  repeated: z.int().describe('Orders already known (pulled or pushed before)'),
  unreadable: z.array(z.object({ provider_order_id: z.string().nullable(), problem: z.string() })).max(100),
  accepted: z.int(),
  rejected: z.int(),
});
