import { z } from 'zod';
import { fieldIssue } from '../../platform/i18n/field-messages.ts';
import {
  addressSchema,
  amountInput,
  calendarDate,
  currencyCode,
  timeWindowSchema,
} from '../../platform/schemas.ts';
import { ORDER_STATUSES } from './statuses.ts';

export const ORDER_FAMILIES = [
  'local_delivery',
  'label_service',
  'shipping_service',
  'ltl_service',
  'storage_service',
  'moving_service',
  'device_order',
] as const;
export type OrderFamily = (typeof ORDER_FAMILIES)[number];
export const ORDER_TYPES = ['D', 'P', 'P2P'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const orderFamilySchema = z.enum(ORDER_FAMILIES).meta({ title: 'OrderFamily' });
export const orderTypeSchema = z.enum(ORDER_TYPES).meta({ title: 'OrderType' });
export const orderStatusSchema = z.enum(ORDER_STATUSES).meta({ title: 'OrderStatus' });

/** An order holds at most this many packages. */
export const MAX_PACKAGES_PER_ORDER = 50;

export const packageInputSchema = z.object({
  weight_grams: z.int().min(0).max(10_000_000).optional(),
  length_mm: z.int().min(0).max(100_000).optional(),
  width_mm: z.int().min(0).max(100_000).optional(),
  height_mm: z.int().min(0).max(100_000).optional(),
  description: z.string().max(500).optional(),
});

export type PackageInput = z.infer<typeof packageInputSchema>;

const PRICE_FIELDS = ['shipping_price', 'tax', 'surcharges', 'price_details'] as const;

/** One order as a client sends it, with the rules that span fields (addresses by type, currency for prices). */
export const orderInputSchema = z
  .object({
    order_ref: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('Unique per business; generated when absent'),
    family: orderFamilySchema.default('local_delivery'),
    type: orderTypeSchema.optional().describe('Local delivery only: D delivery (default), P pickup, P2P'),
    scheduled_date: calendarDate.optional(),
    time_window: timeWindowSchema.optional(),
    pickup: addressSchema.optional(),
    dropoff: addressSchema.optional(),
    pickup_address_id: z
      .int()
      .positive()
      .optional()
      .describe('A saved address (address book) to pick up from'),
    dropoff_address_id: z
      .int()
      .positive()
      .optional()
      .describe('A saved address to deliver to; its notes are the delivery instruction when none is given'),
    customer_id: z.int().positive().optional().describe('A customer account of this business'),
    note: z.string().max(2000).optional(),
    delivery_instruction: z.string().max(2000).optional(),
    required_skills: z
      .array(z.string().trim().min(1).max(40))
      .max(10)
      .optional()
      .describe('Skills the driver must have'),
    carrier: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('The carrier holding the order; absent = self-delivery'),
    currency: currencyCode.optional(),
    shipping_price: amountInput.optional(),
    tax: amountInput.optional(),
    surcharges: z
      .array(z.object({ code: z.string().min(1).max(40), amount: amountInput }))
      .max(20)
      .optional(),
    price_details: z
      .array(z.object({ label: z.string().min(1).max(100), amount: amountInput }))
      .max(50)
      .optional(),
    packages: z
      .array(packageInputSchema)
      .min(1)
      .max(MAX_PACKAGES_PER_ORDER)
      .optional()
      .describe('Defaults to one package'),
    instant: z.boolean().optional().describe('Offer it at once to the nearest online riders'),
  })
  .superRefine((order, ctx) => {
    // Built-in issue codes, so the messages come out in the caller's language like any other.
    const missing = (field: string, expected: 'object' | 'string') =>
      ctx.addIssue({ code: 'invalid_type', expected, input: undefined, path: [field] });
    const given = (leg: 'pickup' | 'dropoff') => {
      const saved = order[`${leg}_address_id`];
      if (order[leg] && saved !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [`${leg}_address_id`],
          ...fieldIssue('exactly_one_of', { fields: `${leg}, ${leg}_address_id` }),
        });
      }
      return order[leg] !== undefined || saved !== undefined;
    };
    const hasPickup = given('pickup');
    const hasDropoff = given('dropoff');
    if (order.family === 'local_delivery') {
      const type = order.type ?? 'D';
      if (type !== 'P' && !hasDropoff) missing('dropoff', 'object');
      if (type !== 'D' && !hasPickup) missing('pickup', 'object');
    } else {
      if (order.type !== undefined) {
        ctx.addIssue({ code: 'invalid_type', expected: 'undefined', input: order.type, path: ['type'] });
      }
      if (!hasDropoff) missing('dropoff', 'object');
    }
    if (order.instant && (order.family !== 'local_delivery' || order.carrier !== undefined)) {
      ctx.addIssue({ code: 'invalid_type', expected: 'undefined', input: order.instant, path: ['instant'] });
    }
    if (!order.currency && PRICE_FIELDS.some((field) => order[field] !== undefined))
      missing('currency', 'string');
  });
export type OrderInput = z.output<typeof orderInputSchema>;

/** An order of a bulk call that is not valid: reported in its place, never failing the others. */
export class RefusedOrder {
  constructor(readonly error: { issues: z.core.$ZodIssue[] }) {}
}

/**
 * One order of a bulk call: the order schema as every door publishes it, but an order that breaks
 * it becomes a RefusedOrder instead of refusing the whole call (its messages in the caller's
 * language all the same).
 */
export const bulkOrderSchema = orderInputSchema.catch((invalid) => new RefusedOrder(invalid.error) as never);

export const packageSchema = z
  .object({
    id: z.int(),
    tracking_number: z.string(),
    weight_grams: z.int().nullable(),
    length_mm: z.int().nullable(),
    width_mm: z.int().nullable(),
    height_mm: z.int().nullable(),
    description: z.string().nullable(),
  })
  .meta({ title: 'Package' });

/** An order as the service answers it. Price fields are optional: a missing figure never means free. */
export const orderSchema = z
  .object({
    id: z.int(),
    order_ref: z.string(),
    family: orderFamilySchema,
    type: orderTypeSchema.nullable(),
    status: orderStatusSchema,
    scheduled_date: z.string().nullable(),
    time_window: z.object({ start: z.string(), end: z.string() }).nullable(),
    pickup: addressSchema.nullable(),
    dropoff: addressSchema.nullable(),
    customer_id: z.int().nullable(),
    note: z.string().nullable(),
    delivery_instruction: z.string().nullable(),
    required_skills: z.array(z.string()),
    self_delivery: z.boolean(),
    carrier: z.string().nullable(),
    route_id: z.int().nullable(),
    driver_id: z.int().nullable().describe('The driver of its route'),
    currency: z.string().optional(),
    shipping_price: z.number().optional(),
    tax: z.number().optional(),
    surcharges: z.array(z.object({ code: z.string(), amount: z.number().optional() })).optional(),
    price_details: z.array(z.object({ label: z.string(), amount: z.number().optional() })).optional(),
    price_hidden: z
      .boolean()
      .optional()
      .describe(
        "True when the business hides this family's prices from the caller: the price fields are absent, not zero",
      ),
    packages: z.array(packageSchema),
    rerouted_from: z.int().nullable(),
    instant: z.boolean().describe('Offered to the nearest online riders at creation (docs/riders.md)'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'Order' });
export type OrderView = z.input<typeof orderSchema>;
