import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { addressSchema, currencyCode, idParam as id } from '../../platform/schemas.ts';
import { timelineSchema } from '../tracking/index.ts';
import type { Consolidations } from './consolidations.ts';
import type { Forwarding } from './forwarding.ts';
import type { TrackingPushes } from './pushes.ts';
import {
  carrierInput,
  consolidationSchema,
  itemInput,
  MAX_ITEMS,
  MAX_PARCELS_PER_CONSOLIDATION,
  parcelSchema,
  quoteSchema,
  receiveInput,
  settingsSchema,
  suiteSchema,
  trackingNumberInput,
} from './schemas.ts';
import { PARCEL_STATES } from './tables.ts';

const TAG = 'Consolidation';
const PEOPLE = [...STAFF, 'customer'] as const;
const STAFF_READ = { kinds: STAFF, scopes: ['wms:read'] };
const STAFF_WRITE = { kinds: STAFF, scopes: ['wms:write'] };
/**
 * A customer whose label prices are hidden settles forwarding offline too: the answers it reads
 * (storage fees, carrier quotes, declared values) carry no money (docs/consolidation.md).
 */
const FORWARDING_PRICES = 'label_service';

/** Customers act on their own suite and parcels; staff name the customer. */
const CUSTOMER_READ = { kinds: PEOPLE, scopes: ['wms:read'] };
const CUSTOMER_WRITE = { kinds: PEOPLE, scopes: ['wms:write'] };
const customerId = id.optional().describe("Staff: the customer's account id (a customer acts for itself)");
const priceHidden = z
  .boolean()
  .optional()
  .describe('True when the business hides label prices from the caller: money fields are absent, not zero');
const parcelAnswer = z.object({ result: z.literal(true), parcel: parcelSchema, price_hidden: priceHidden });
const consolidationAnswer = z.object({
  result: z.literal(true),
  price_hidden: priceHidden,
  consolidation: consolidationSchema,
  quotes: z.array(quoteSchema).describe('Prices of every active carrier for the carton, cheapest first'),
  unavailable: z.array(z.object({ carrier: z.string(), service: z.string(), reason: z.string() })),
});

export function consolidationOperations(
  forwarding: Forwarding,
  pushes: TrackingPushes,
  consolidations: Consolidations,
): Operation[] {
  return [
    defineOperation({
      name: 'configure_forwarding',
      summary: 'Set free storage days, the daily storage fee and the tracking webhook secret',
      description:
        'Partial update. generate_webhook_secret makes a new secret for the AfterShip tracking webhook: the whole secret is in this answer only.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: STAFF_WRITE,
      rest: { method: 'PATCH', path: '/v1/consolidation/settings' },
      graphql: 'configureForwarding',
      input: z.object({
        free_storage_days: z.int().min(0).max(365).optional(),
        storage_fee_per_day: z.number().min(0).max(10_000).optional().describe('Major units, per parcel'),
        currency: currencyCode.optional(),
        generate_webhook_secret: z.boolean().optional(),
      }),
      output: z.object({
        result: z.literal(true),
        settings: settingsSchema,
        webhook_secret: z.string().optional().describe('Only in the answer that generated it'),
      }),
      handler: (ctx, input) => forwarding.configure(ctx, input),
    }),
    defineOperation({
      name: 'get_forwarding_settings',
      summary: 'The forwarding settings of the business',
      description:
        'Free storage days, the fee per day after them, and whether a webhook secret is set (its last characters).',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: STAFF_READ,
      rest: { method: 'GET', path: '/v1/consolidation/settings' },
      graphql: 'forwardingSettings',
      input: z.object({}),
      output: z.object({ result: z.literal(true), settings: settingsSchema }),
      handler: (ctx) => forwarding.settingsAnswer(ctx),
    }),
    defineOperation({
      name: 'assign_forwarding_suite',
      summary: "Give a customer a personal suite address at one of the business's warehouses",
      description:
        'One suite per customer: the answer holds the address the customer gives shops (the warehouse, with the suite code).',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { ...STAFF_WRITE, customer: 'customer_id' },
      errors: ['SUITE_EXISTS', 'WAREHOUSE_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/consolidation/suites' },
      graphql: 'assignForwardingSuite',
      input: z.object({ customer_id: id, warehouse_id: id }),
      output: z.object({ result: z.literal(true), suite: suiteSchema }),
      handler: (ctx, input) => forwarding.assignSuite(ctx, input),
    }),
    defineOperation({
      name: 'list_forwarding_suites',
      summary: 'Forwarding suites, with their addresses',
      description: "A customer reads its own suite; staff every customer's, or one customer's.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: CUSTOMER_READ,
      rest: { method: 'GET', path: '/v1/consolidation/suites' },
      graphql: 'forwardingSuites',
      input: z.object({
        customer_id: customerId,
        ...cursorPageParams,
      }),
      output: z.object({ result: z.literal(true), ...cursorPageEnvelope, suites: z.array(suiteSchema) }),
      handler: (ctx, input) => forwarding.suites(ctx, input),
    }),
    defineOperation({
      name: 'announce_inbound_parcel',
      summary: 'Pre-announce a parcel coming to the suite',
      description:
        'Carrier (AfterShip slug) and tracking number, and the contents: description, quantity, declared value, HS code and origin of each line. Tracking pushes for this number land on its timeline.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: CUSTOMER_WRITE,
      priceFamily: FORWARDING_PRICES,
      errors: ['SUITE_NOT_FOUND', 'INBOUND_PARCEL_EXISTS'],
      rest: { method: 'POST', path: '/v1/consolidation/parcels' },
      graphql: 'announceInboundParcel',
      input: z.object({
        customer_id: customerId,
        carrier: carrierInput,
        tracking_number: trackingNumberInput,
        items: z.array(itemInput).min(1).max(MAX_ITEMS),
      }),
      output: parcelAnswer,
      handler: (ctx, input) => forwarding.announce(ctx, input),
    }),
    defineOperation({
      name: 'list_inbound_parcels',
      summary: 'Inbound parcels',
      description:
        'Announced, received, consolidated and shipped parcels, oldest first, with storage days and fees.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_inbound_parcels',
        guide: 'Forwarded parcels with state, sizes, storage days and fee, oldest first.',
        idempotent: true,
      },
      access: CUSTOMER_READ,
      priceFamily: FORWARDING_PRICES,
      rest: { method: 'GET', path: '/v1/consolidation/parcels' },
      graphql: 'inboundParcels',
      // Undescribed fields: the agent tool list is near its size budget (docs/consolidation.md).
      input: z.object({
        customer_id: id.optional(),
        state: z.enum(PARCEL_STATES).optional(),
        ...cursorPageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        parcels: z.array(parcelSchema),
        price_hidden: priceHidden,
      }),
      handler: (ctx, input) => forwarding.list(ctx, input),
    }),
    defineOperation({
      name: 'get_inbound_parcel',
      summary: 'One inbound parcel with its tracking timeline',
      description:
        "The parcel and its OTEP timeline: the tracking provider's events and the warehouse's own.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: CUSTOMER_READ,
      priceFamily: FORWARDING_PRICES,
      errors: ['INBOUND_PARCEL_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/consolidation/parcels/:id' },
      input: z.object({ id }),
      output: z.object({
        result: z.literal(true),
        parcel: parcelSchema,
        timeline: timelineSchema.describe("The parcel's OTEP timeline"),
        price_hidden: priceHidden,
      }),
      handler: (ctx, input) => forwarding.detail(ctx, input.id) as never,
    }),
    defineOperation({
      name: 'receive_inbound_parcel',
      summary: 'Receive an announced parcel at the warehouse',
      description:
        "Found by its carrier's tracking number: weight, dimensions and photo links are kept and its free storage days start.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: STAFF_WRITE,
      errors: ['INBOUND_PARCEL_NOT_FOUND', 'INBOUND_PARCEL_STATE'],
      rest: { method: 'POST', path: '/v1/consolidation/parcels/receive' },
      graphql: 'receiveInboundParcel',
      input: z.object(receiveInput),
      output: parcelAnswer,
      handler: (ctx, input) => forwarding.receive(ctx, input),
    }),
    defineOperation({
      name: 'receive_aftership_tracking_push',
      summary: "The business's inbound tracking webhook, in AfterShip's format",
      description:
        "Public: AfterShip posts tracking updates here. The aftership-hmac-sha256 header must be the base64 HMAC-SHA256 of the raw body with the business's webhook secret (else 401); an event_id taken before or a ts more than 15 minutes off is a replay (401). Nothing changes on a refusal.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['TRACKING_PUSH_UNVERIFIED', 'TRACKING_PUSH_REPLAYED'],
      rest: {
        method: 'POST',
        path: '/v1/consolidation/tracking-webhooks/:business_id/aftership',
        body: { bytes: { field: 'body', mediaTypes: ['application/json'] }, limitBytes: 1_048_576 },
        headers: { 'aftership-hmac-sha256': 'signature' },
      },
      input: z.object({
        business_id: id,
        body: z.instanceof(Buffer).describe('The raw JSON body, as signed'),
        signature: z.string().max(200).optional().describe('The aftership-hmac-sha256 header'),
      }),
      output: z.object({
        result: z.literal(true),
        matched: z.boolean().describe('Whether an announced parcel has this carrier and number'),
        parcel_id: z.int().optional(),
        events: z.int().describe('Events written to the timeline'),
      }),
      handler: (ctx, input) => pushes.receive(ctx, input.business_id, input.body, input.signature),
    }),
    defineOperation({
      name: 'request_consolidation',
      summary: 'Ask for received parcels to go out together as one shipment',
      description:
        'The parcels are repacked into one carton (from their measured sizes) with a customs declaration of every item, and priced by every active carrier.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: CUSTOMER_WRITE,
      priceFamily: FORWARDING_PRICES,
      errors: ['INBOUND_PARCEL_NOT_FOUND', 'INBOUND_PARCEL_STATE'],
      rest: { method: 'POST', path: '/v1/consolidation/consolidations' },
      graphql: 'requestConsolidation',
      input: z.object({
        customer_id: customerId,
        parcel_ids: z.array(id).min(1).max(MAX_PARCELS_PER_CONSOLIDATION),
        dropoff: addressSchema,
        residential: z.boolean().default(true),
      }),
      output: consolidationAnswer,
      handler: (ctx, input) => consolidations.request(ctx, input),
    }),
    defineOperation({
      name: 'get_consolidation',
      summary: 'One consolidation with its customs declaration',
      description:
        'Its carton, customs declaration, and, until shipped, the current quotes; once shipped, its tracking number.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: CUSTOMER_READ,
      priceFamily: FORWARDING_PRICES,
      errors: ['CONSOLIDATION_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/consolidation/consolidations/:id' },
      graphql: 'consolidation',
      input: z.object({ id }),
      output: consolidationAnswer,
      handler: (ctx, input) => consolidations.detail(ctx, input.id),
    }),
    defineOperation({
      name: 'ship_consolidation',
      summary: 'Buy the label of a consolidation',
      description:
        'The carrier service named, or the cheapest of all: a label-service order with the label; the parcels leave storage.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: STAFF_WRITE,
      errors: [
        'CONSOLIDATION_NOT_FOUND',
        'CONSOLIDATION_SHIPPED',
        'RATE_UNAVAILABLE',
        'NO_CARRIER_AVAILABLE',
      ],
      rest: { method: 'POST', path: '/v1/consolidation/consolidations/:id/ship' },
      graphql: 'shipConsolidation',
      input: z.object({
        id,
        carrier: z.string().max(60).optional(),
        service: z.string().max(60).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        consolidation: consolidationSchema,
        rate: quoteSchema,
        labels: z.array(z.object({ tracking_number: z.string() }).loose()),
      }),
      handler: (ctx, input) => consolidations.ship(ctx, input),
    }),
  ];
}
