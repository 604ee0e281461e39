import { z } from 'zod';
import { defineOperation, type Operation, Representation, STAFF } from '../../platform/catalog/operation.ts';
import { orderSchema } from '../orders/index.ts';
import {
  carrierSchema,
  compareInput,
  createLabelInput,
  labelSchema,
  PREFERENCES,
  priceHidden,
  quoteAndShipInput,
  rateInput,
  rateSchema,
  saveCarrierInput,
  unavailableSchema,
} from './schemas.ts';
import type { ShippingService } from './service.ts';

/** Customers of the business rate and buy labels for themselves (their orders are theirs). */
const BOOKERS = [...STAFF, 'customer'] as const;
const READ = { kinds: BOOKERS, scopes: ['labels:read'] };
const WRITE = { kinds: BOOKERS, scopes: ['labels:write'] };
/** Every price in these answers is a label price: price hiding treats them as label_service's. */
const LABEL_PRICES = 'label_service';
const PDF = 'application/pdf';

const shipped = z.object({
  result: z.literal(true),
  order_id: z.int(),
  order_ref: z.string(),
  tracking_number: z.string().describe('Tracking number of the first package'),
  rate: rateSchema,
  labels: z.array(labelSchema).describe('One per package'),
  order: orderSchema,
  price_hidden: priceHidden,
});

export function shippingOperations(shipping: ShippingService): Operation[] {
  return [
    defineOperation({
      name: 'get_shipping_methods',
      summary: "The business's carriers and their services, with transit days per zone (no prices)",
      description:
        'Read it to know what can be shipped where and how fast before rating; prices come from get_shipping_rate or compare_all_carriers.',
      tag: 'Shipping',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_shipping_methods',
        user: 'get_shipping_methods',
        guide: 'The carrier services the business can ship with, and the zones and transit days each serves.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/shipping/methods' },
      graphql: 'shippingMethods',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        methods: z.array(
          z.object({
            carrier: z.string(),
            carrier_name: z.string(),
            service: z.string(),
            service_name: z.string(),
            zones: z.array(z.object({ zone: z.string(), transit_days: z.int() })),
          }),
        ),
      }),
      handler: async (ctx) => ({ result: true as const, methods: await shipping.methods(ctx) }),
    }),
    defineOperation({
      name: 'get_shipping_rate',
      summary: "Quote one carrier's services for a shipment (no label, nothing is created)",
      description:
        'Prices every service of `carrier` (or only `service`), cheapest first; services that cannot carry ' +
        'the shipment are listed in `unavailable` with the reason. Pass a rate_id to create_shipping_label ' +
        'to buy at exactly that price.',
      tag: 'LabelService',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_shipping_rate',
        user: 'get_shipping_rate',
        guide:
          'A price quote for a shipment with one carrier service, without buying a label. Use it to compare before create_shipping_label.',
        idempotent: true,
      },
      access: READ,
      priceFamily: LABEL_PRICES,
      errors: ['CARRIER_NOT_FOUND', 'CARRIER_SERVICE_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/labelservice/rate' },
      graphql: 'labelserviceRate',
      input: rateInput,
      output: z.object({
        result: z.literal(true),
        rates: z.array(rateSchema),
        unavailable: unavailableSchema,
        price_hidden: priceHidden,
      }),
      handler: async (ctx, input) => ({
        result: true as const,
        ...(await shipping.rate(ctx, input, input.carrier, input.service)),
      }),
    }),
    defineOperation({
      name: 'compare_all_carriers',
      summary: "Every carrier's quote for a shipment, cheapest first, cheapest and fastest marked",
      description:
        'cheapest: lowest total, then fewest transit days; fastest: fewest transit days, then lowest total; ' +
        'remaining ties by carrier and service code. These are the quotes quote_and_ship picks.',
      tag: 'Shipping',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'compare_all_carriers',
        guide:
          'Quotes of every carrier service for one shipment, cheapest first, with the reason a service cannot carry it.',
        idempotent: true,
      },
      access: READ,
      priceFamily: LABEL_PRICES,
      rest: { method: 'POST', path: '/v1/shipping/compare' },
      graphql: 'compareAllCarriers',
      input: compareInput,
      output: z.object({
        result: z.literal(true),
        rates: z.array(rateSchema.extend({ cheapest: z.boolean(), fastest: z.boolean() })),
        cheapest_rate_id: z.string().nullable(),
        fastest_rate_id: z.string().nullable(),
        unavailable: unavailableSchema,
        price_hidden: priceHidden,
      }),
      handler: async (ctx, input) => ({ result: true as const, ...(await shipping.compare(ctx, input)) }),
    }),
    defineOperation({
      name: 'create_shipping_label',
      summary: 'Buy a shipping label: a label-service order with one PDF label per package',
      description:
        "Creates a label_service order (its packages get tracking numbers), buys each package's label, " +
        'records the PDF with the documents module and adds information_submitted to each tracking ' +
        'timeline. With rate_id, refused (RATE_CHANGED) unless the price is still that quote. A customer ' +
        'books for itself.',
      tag: 'LabelService',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        developer: 'create_shipping_label',
        user: 'create_shipping_label',
        guide:
          'Buy a shipping label for a shipment with a chosen carrier service: creates a label-service order and answers the label with its tracking number.',
      },
      access: WRITE,
      priceFamily: LABEL_PRICES,
      errors: [
        'CARRIER_NOT_FOUND',
        'CARRIER_SERVICE_NOT_FOUND',
        'RATE_UNAVAILABLE',
        'RATE_CHANGED',
        'ORDER_REF_TAKEN',
        'CUSTOMER_NOT_FOUND',
      ],
      rest: { method: 'POST', path: '/v1/labelservice/submitOrder' },
      graphql: 'labelserviceSubmitOrder',
      input: createLabelInput,
      output: shipped,
      handler: async (ctx, input) => ({ result: true as const, ...(await shipping.createLabel(ctx, input)) }),
    }),
    defineOperation({
      name: 'quote_and_ship',
      summary: 'Pick a carrier service by preference (cheapest or fastest) and buy its label',
      description:
        'Ranks the quotes exactly as compare_all_carriers marks them, buys the first (as create_shipping_label) ' +
        'and answers which preference chose it among how many quotes.',
      tag: 'Shipping',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'quote_and_ship',
        guide:
          'Quote a shipment with every carrier and buy the label of the best offer in one call (cheapest unless told otherwise).',
      },
      access: WRITE,
      priceFamily: LABEL_PRICES,
      errors: [
        'CARRIER_NOT_FOUND',
        'CARRIER_SERVICE_NOT_FOUND',
        'NO_CARRIER_AVAILABLE',
        'ORDER_REF_TAKEN',
        'CUSTOMER_NOT_FOUND',
      ],
      rest: { method: 'POST', path: '/v1/shipping/quote-and-ship' },
      graphql: 'quoteAndShip',
      input: quoteAndShipInput,
      output: shipped.extend({ prefer: z.enum(PREFERENCES), considered: z.int() }),
      handler: async (ctx, input) => ({
        result: true as const,
        ...(await shipping.quoteAndShip(ctx, input)),
      }),
    }),
    defineOperation({
      name: 'get_shipping_label',
      summary: 'One label by its tracking number; the PDF itself with Accept: application/pdf',
      description:
        'JSON by default (`include_pdf=true` adds the PDF in base64). Over REST, `Accept: application/pdf` ' +
        'answers the 4 x 6 in PDF as is. A customer reads the labels of its own orders.',
      tag: 'LabelService',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_shipping_label',
        guide:
          'One shipping label by its tracking number: carrier, service, price (unless hidden), and with include_pdf the 4 x 6 in PDF in base64.',
        idempotent: true,
      },
      access: READ,
      priceFamily: LABEL_PRICES,
      errors: ['LABEL_NOT_FOUND'],
      representations: [PDF],
      rest: { method: 'GET', path: '/v1/labelservice/labels/:tracking_number' },
      graphql: 'shippingLabel',
      input: z.object({
        tracking_number: z.string().trim().min(1).max(64),
        include_pdf: z.boolean().default(false).describe('Adds the PDF in base64 to the JSON answer'),
      }),
      output: z.object({ result: z.literal(true), label: labelSchema, price_hidden: priceHidden }),
      handler: async (ctx, input) => {
        const { view, pdf } = await shipping.label(ctx, input.tracking_number, input.include_pdf);
        if (ctx.representation === PDF) return new Representation(PDF, pdf);
        return { result: true as const, label: view };
      },
    }),
    defineOperation({
      name: 'get_shipping_carriers',
      summary: "The business's carriers with their rate cards",
      description:
        'The carriers configured for the business, each with its rate card, whether it is active, and its version.',
      tag: 'Shipping',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['labels:read'] },
      rest: { method: 'GET', path: '/v1/shipping/carriers' },
      graphql: 'shippingCarriers',
      input: z.object({}),
      output: z.object({ result: z.literal(true), carriers: z.array(carrierSchema) }),
      handler: async (ctx) => ({ result: true as const, carriers: await shipping.carriers(ctx) }),
    }),
    defineOperation({
      name: 'save_shipping_carrier',
      summary: 'Create or replace a built-in carrier and its rate card',
      description:
        'Zones by postal prefix or distance band, weight breaks per service and zone, dimensional weight, ' +
        'fuel, residential and oversize surcharges, tax and transit days (docs/shipping.md). Every change ' +
        "bumps the carrier's version, so rates quoted before no longer buy (RATE_CHANGED).",
      tag: 'Shipping',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['labels:write'] },
      errors: ['AMOUNT_TOO_PRECISE', 'CARRIER_CURRENCY_MISMATCH'],
      rest: { method: 'PUT', path: '/v1/shipping/carriers/:code' },
      graphql: 'saveShippingCarrier',
      input: saveCarrierInput,
      output: z.object({ result: z.literal(true), carrier: carrierSchema }),
      handler: async (ctx, input) => ({
        result: true as const,
        carrier: await shipping.saveCarrier(ctx, input),
      }),
    }),
  ];
}
