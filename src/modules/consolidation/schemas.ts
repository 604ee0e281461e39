import { z } from 'zod';
import { addressSchema, currencyCode } from '../../platform/schemas.ts';
import { CONSOLIDATION_STATES, PARCEL_STATES } from './tables.ts';

export const MAX_ITEMS = 100;
export const MAX_PARCELS_PER_CONSOLIDATION = 50;

const at = z.string().describe('ISO 8601 instant');
const countryCode = z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case');

// The forwarding vocabulary, one named type each in the contract.
export const parcelStateSchema = z.enum(PARCEL_STATES).meta({ title: 'InboundParcelState' });
export const consolidationStateSchema = z.enum(CONSOLIDATION_STATES).meta({ title: 'ConsolidationState' });

export const itemInput = z
  .object({
    description: z.string().trim().min(1).max(200),
    quantity: z.int().min(1).max(10_000),
    value: z.number().min(0).max(1_000_000).describe('Declared value of the whole line, major units'),
    currency: currencyCode,
    hs_code: z
      .string()
      .regex(/^\d{6,10}$/, 'HS code: 6 to 10 digits')
      .describe('Harmonized System code, 6 to 10 digits without dots'),
    origin_country: countryCode.describe('Where the goods were made'),
  })
  .meta({ title: 'InboundParcelItem' });

export const carrierInput = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .describe("The carrier as the tracking provider names it (AfterShip's slug: usps, dhl, ...)");
export const trackingNumberInput = z.string().trim().min(4).max(60);
const millimetres = z.int().min(1).max(10_000);

export const receiveInput = {
  carrier: carrierInput.optional(),
  tracking_number: trackingNumberInput,
  weight_grams: z.int().min(1).max(1_000_000),
  length_mm: millimetres,
  width_mm: millimetres,
  height_mm: millimetres,
  photo_urls: z
    .array(z.url({ protocol: /^https?$/ }).max(2000))
    .max(20)
    .default([]),
};

/** Absent for a customer whose label prices are hidden (the operations' price family). */
const HIDDEN = 'Absent where the caller may not see prices';
const money = z.object({
  amount: z.number().optional().describe(HIDDEN),
  currency: z.string().optional().describe(HIDDEN),
});
/** An item as answers show it: its currency goes with the other money of a hidden customer. */
const itemOutput = itemInput
  .extend({ currency: z.string().optional().describe(HIDDEN) })
  .meta({ title: 'InboundParcelItem' });

export const settingsSchema = z
  .object({
    free_storage_days: z.int(),
    storage_fee_per_day: z.number(),
    currency: z.string(),
    webhook_secret_set: z.boolean(),
    webhook_secret_hint: z.string().nullable().describe('The last characters of the webhook secret'),
  })
  .meta({ title: 'ForwardingSettings' });

export const suiteSchema = z
  .object({
    id: z.int(),
    code: z.string(),
    customer_id: z.int(),
    warehouse_id: z.int(),
    address: addressSchema.describe('The address the customer gives shops: the warehouse, with the suite'),
    created_at: at,
  })
  .meta({ title: 'ForwardingSuite' });

export const parcelSchema = z
  .object({
    id: z.int(),
    reference: z.string().describe("The parcel's tracking number in this service (its timeline)"),
    customer_id: z.int(),
    suite_id: z.int(),
    carrier: z.string(),
    tracking_number: z.string().describe("The inbound carrier's number"),
    state: parcelStateSchema,
    items: z.array(itemOutput),
    measured: z
      .object({ weight_grams: z.int(), length_mm: z.int(), width_mm: z.int(), height_mm: z.int() })
      .nullable(),
    photo_urls: z.array(z.string()),
    received_at: at.nullable(),
    consolidation_id: z.int().nullable(),
    storage: z
      .object({
        days_stored: z.int(),
        free_days: z.int(),
        chargeable_days: z.int(),
        free_until: at,
        fee: money,
      })
      .nullable()
      .describe('Once received: started days stored, and the fee after the free days'),
    created_at: at,
  })
  .meta({ title: 'InboundParcel' });

export const consolidationSchema = z
  .object({
    id: z.int(),
    customer_id: z.int(),
    suite_id: z.int(),
    state: consolidationStateSchema,
    parcel_ids: z.array(z.int()),
    dropoff: addressSchema,
    residential: z.boolean(),
    package: z
      .object({
        weight_grams: z.int(),
        length_mm: z.int(),
        width_mm: z.int(),
        height_mm: z.int(),
        packaging_id: z.int().nullable().describe('The catalog carton chosen; null: the parcels stacked'),
      })
      .describe('The outbound carton, outside sizes and gross weight'),
    customs: z.object({
      contents_type: z.string(),
      items: z.array(itemOutput.extend({ parcel_id: z.int() })),
      total_value: z.array(money),
    }),
    order_id: z.int().nullable(),
    tracking_number: z.string().nullable().describe('The outbound shipment'),
    carrier: z.string().nullable(),
    service: z.string().nullable(),
    created_at: at,
    shipped_at: at.nullable(),
  })
  .meta({ title: 'Consolidation' });

/** A carrier's price for the consolidated carton (the shipping module's rate, in short). */
export const quoteSchema = z
  .object({
    rate_id: z.string(),
    carrier: z.string(),
    service: z.string(),
    service_name: z.string(),
    transit_days: z.number().nullable(),
    total: z.number().optional().describe('Absent where the caller may not see prices'),
    currency: z.string().optional(),
  })
  .meta({ title: 'ConsolidationQuote' });
