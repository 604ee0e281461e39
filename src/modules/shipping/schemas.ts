import { z } from 'zod';
import { addressSchema } from '../../platform/schemas.ts';
import { orderInputSchema, packageInputSchema } from '../orders/index.ts';
import { rateCardSchema, slug } from './carriers/rate-card.ts';

const carrierCode = slug;
const serviceCode = slug;

/** What is shipped, as every rating and label operation takes it. */
export const shipmentFields = {
  pickup: addressSchema.describe('The sender'),
  dropoff: addressSchema.describe('The recipient'),
  residential: z.boolean().default(false).describe('Delivered to a home (residential surcharge)'),
  packages: z
    .array(
      packageInputSchema
        .extend({ weight_grams: z.int().min(1).max(1_000_000) })
        .meta({ title: 'ShipmentPackage' }),
    )
    .min(1)
    .max(20),
};

/** The fields of the label-service order a label is bought for. */
const orderFields = {
  order_ref: orderInputSchema.shape.order_ref,
  customer_id: orderInputSchema.shape.customer_id.describe(
    'A customer account of this business; a customer booking for itself is always the customer',
  ),
  scheduled_date: orderInputSchema.shape.scheduled_date,
  note: orderInputSchema.shape.note,
};

export const rateInput = z.object({
  ...shipmentFields,
  carrier: carrierCode,
  service: serviceCode.optional().describe('One service only; absent = every service of the carrier'),
});

export const compareInput = z.object(shipmentFields);

export const createLabelInput = z.object({
  ...shipmentFields,
  ...orderFields,
  carrier: carrierCode,
  service: serviceCode,
  rate_id: z
    .string()
    .max(64)
    .optional()
    .describe('The rate_id of a quote: the label is bought only if the price is still that quote'),
});

export const PREFERENCES = ['cheapest', 'fastest'] as const;
export type Preference = (typeof PREFERENCES)[number];

export const quoteAndShipInput = z.object({
  ...shipmentFields,
  ...orderFields,
  prefer: z
    .enum(PREFERENCES)
    .default('cheapest')
    .describe('cheapest: lowest total, then fewest days; fastest: fewest days, then lowest total'),
  carrier: carrierCode.optional().describe("Choose among this carrier's services only"),
  service: serviceCode.optional().describe('With carrier: this service only'),
});

export const saveCarrierInput = z.object({
  code: carrierCode,
  name: z.string().trim().min(1).max(100),
  active: z.boolean().default(true),
  rate_card: rateCardSchema,
});

// ----- answers -----
// Money fields are optional: price hiding removes them for some customers (docs/pricing.md).

const surcharges = z.array(
  z
    .object({ code: z.string().describe('fuel, residential or oversize'), amount: z.number().optional() })
    .meta({ title: 'ShippingSurcharge' }),
);

const priced = {
  currency: z.string().optional(),
  price: z.number().optional().describe('Base price from the weight breaks'),
  surcharges,
  tax: z.number().optional(),
  total: z.number().optional().describe('price + surcharges + tax'),
};

export const rateSchema = z
  .object({
    rate_id: z.string().describe('Names this quote: same carrier card, service and shipment, same rate_id'),
    carrier: z.string(),
    carrier_name: z.string(),
    service: z.string(),
    service_name: z.string(),
    zone: z.string(),
    transit_days: z.int(),
    billable_weight_grams: z.int(),
    ...priced,
    packages: z.array(
      z
        .object({
          actual_weight_grams: z.int(),
          dimensional_weight_grams: z.int(),
          billable_weight_grams: z.int(),
          ...priced,
        })
        .meta({ title: 'ShippingRatePackage' }),
    ),
  })
  .meta({ title: 'ShippingRate' });
export type RateView = z.input<typeof rateSchema>;

export const unavailableSchema = z
  .array(
    z
      .object({
        carrier: z.string(),
        service: z.string(),
        reason: z.string().describe('out_of_area, missing_coordinates, zone_not_served or too_heavy'),
      })
      .meta({ title: 'ShippingServiceUnavailable' }),
  )
  .describe('Services that cannot carry this shipment, and why');

export const labelSchema = z
  .object({
    id: z.int(),
    tracking_number: z.string(),
    order_id: z.int(),
    carrier: z.string(),
    carrier_name: z.string(),
    service: z.string(),
    service_name: z.string(),
    carrier_reference: z.string(),
    rate_id: z.string(),
    zone: z.string(),
    transit_days: z.int(),
    billable_weight_grams: z.int(),
    ...priced,
    document: z.object({
      id: z.string().nullable().describe('The issued document (documents module)'),
      sha256: z.string().describe('SHA-256 of the PDF, hex'),
    }),
    pdf_url: z.string().describe('GET it with Accept: application/pdf for the PDF itself'),
    pdf_base64: z.string().optional().describe('The PDF, when include_pdf was asked'),
    created_at: z.string(),
  })
  .meta({ title: 'ShippingLabel' });
export type LabelView = z.input<typeof labelSchema>;

export const carrierSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    kind: z.string(),
    active: z.boolean(),
    version: z.int(),
    rate_card: rateCardSchema.nullable(),
    updated_at: z.string(),
  })
  .meta({ title: 'ShippingCarrier' });

export const priceHidden = z
  .boolean()
  .optional()
  .describe('True when the business hides label prices from the caller: price fields are absent, not zero');
