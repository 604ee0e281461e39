import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { addressSchema, calendarDate, idParam as id } from '../../platform/schemas.ts';
import { LEGS } from './locations.ts';
import { orderSchema } from './schemas.ts';
import type { OrdersService } from './service.ts';

/** A warning about an order just created: it is taken, but something about it needs a hand. */
export const orderWarningSchema = z.object({
  code: z.enum(['location_missing']),
  field: z.enum(LEGS).describe('The leg that could not be placed on the map'),
  order_id: z.int(),
  message: z.string().describe("In the caller's language"),
});

/** Orders that cannot be placed on the map: the staff's list of them, and the fix that keeps the order. */
export function locationOperations(orders: OrdersService): Operation[] {
  return [
    defineOperation({
      name: 'get_orders_needing_location',
      summary: 'Open orders that cannot be placed on the map, and which leg lacks coordinates',
      description:
        'Local-delivery orders the business delivers itself, not in an end state, whose drop-off (D, P2P) or ' +
        'pickup (P, P2P) has no latitude/longitude: planning leaves them out as no_location. Fix each with set_order_location.',
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_orders_needing_location',
        guide:
          'List open orders that planning cannot place on the map (no coordinates on the drop-off or pickup), with the leg that lacks them; optionally for one scheduled date; paged. Fix each with set_order_location.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:read'] },
      rest: { method: 'GET', path: '/v1/client/orders/needs-location' },
      graphql: 'ordersNeedingLocation',
      input: z.object({ scheduled_date: calendarDate.optional(), ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        orders: z.array(
          z.object({
            missing: z.array(z.enum(LEGS)).describe('The needed legs without coordinates'),
            order: orderSchema,
          }),
        ),
      }),
      handler: (ctx, input) => orders.locations.needing(ctx, input),
    }),
    defineOperation({
      name: 'set_order_location',
      summary: "Place an order's drop-off or pickup on the map, keeping the order",
      description:
        "Give `lat` and `lng`, or a corrected `address` placed as creation places it (the business's own places, then the public geocoder when configured). " +
        'The order keeps its id, reference and tracking numbers; the audit trail records location_updated. ' +
        'The pickup may change before pickup (NEW_ORDER, HOLD, PLANNED); the drop-off until the order is out for delivery ' +
        '(NEW_ORDER, HOLD, PLANNED, PICKED_UP, AT_WAREHOUSE, FAILED_ATTEMPT). An order on a route keeps its stop: the answer names the route, whose times are stale.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'set_order_location',
        guide:
          "Fix where an order's drop-off (or pickup) is on the map, keeping the order: lat and lng, or a corrected address to geocode. For orders get_orders_needing_location lists; to deliver elsewhere use reroute_to_address.",
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:write'] },
      errors: [
        'ORDER_NOT_FOUND',
        'ORDER_LEG_UNUSED',
        'ORDER_LOCATION_LOCKED',
        'ADDRESS_NOT_PLACEABLE',
        'GEOCODER_UNAVAILABLE',
      ],
      rest: { method: 'PUT', path: '/v1/client/orders/:order_id/location' },
      graphql: 'setOrderLocation',
      input: z
        .object({
          order_id: id,
          leg: z
            .enum(LEGS)
            .optional()
            .describe('Which leg; by default the needed one that lacks coordinates (the drop-off first)'),
          lat: z.number().min(-90).max(90).optional(),
          lng: z.number().min(-180).max(180).optional(),
          address: addressSchema
            .optional()
            .describe('The corrected address; with lat and lng it is placed where it says'),
        })
        .refine((given) => (given.lat === undefined) === (given.lng === undefined), {
          ...fieldMessage('lat_lng_together'),
          path: ['lat'],
        })
        .refine((given) => (given.lat === undefined) !== (given.address === undefined), {
          ...fieldMessage('exactly_one_of', { fields: 'lat and lng, address' }),
          path: ['address'],
        }),
      output: z.object({
        result: z.literal(true),
        leg: z.enum(LEGS),
        order: orderSchema,
        route_id: z.int().nullable().describe('The route the order stays on, if any'),
        route_times_stale: z
          .boolean()
          .describe("True when the order is on a route: the route's planned times were for the old point"),
        hint: z.string().nullable().describe("What to do about the route, in the caller's language"),
      }),
      handler: (ctx, input) => orders.locations.set(ctx, input),
    }),
  ];
}
