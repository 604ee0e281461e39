import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { orderTypeSchema } from '../orders/index.ts';
import type { RidersService } from './service.ts';
import { DEFAULT_RIDER_SETTINGS, FRESH_POSITION_MS } from './settings.ts';
import { DISPATCH_STATES, OFFER_REASONS, OFFER_STATES } from './tables.ts';

const RIDER = ['driver'] as const;
/** Every rider operation is refused to a driver the business has not granted instant delivery. */
const RIDER_ERRORS = ['RIDER_NOT_GRANTED'] as const;
const OFFER_ERRORS = [...RIDER_ERRORS, 'OFFER_NOT_FOUND', 'OFFER_ALREADY_TAKEN', 'OFFER_EXPIRED'] as const;
/** Pings one call sends at most. */
const MAX_PINGS = 60;

const person = z.object({ id: z.int(), name: z.string() });

// The instant-delivery vocabulary, one named type each in the contract.
const offerStateSchema = z.enum(OFFER_STATES).meta({ title: 'InstantOfferState' });
const dispatchStateSchema = z.enum(DISPATCH_STATES).meta({ title: 'InstantDispatchState' });
const routeUnderWaySchema = z
  .object({ id: z.int(), stops_left: z.int().describe('Its stops not yet done or failed') })
  .meta({ title: 'RiderRouteUnderWay' });
const offerReasonSchema = z
  .object({
    code: z
      .enum(OFFER_REASONS)
      .meta({ title: 'InstantOfferReasonCode' })
      .describe(
        'nearest_free: among the nearest riders, online and free (no instant order, no route under way); nearest_on_route: among the nearest, driving a route under way, which the business lets riders take offers on (offer_riders_on_route)',
      ),
    rank: z.int().describe("Its place in the wave's ranking, nearest first"),
    distance_meters: z.int(),
    waiting_since: z
      .string()
      .nullable()
      .describe('Online and free since: ties in distance go to whoever has waited longest'),
    route: routeUnderWaySchema.nullable().describe('The route under way it is driving (nearest_on_route)'),
  })
  .meta({ title: 'InstantOfferReason' })
  .nullable()
  .describe('Why the offer went to this rider; null for offers made before reasons were kept');

const riderSchema = z
  .object({
    driver: person,
    granted_at: z.string(),
    online: z.boolean(),
    online_since: z.string().nullable(),
    waiting_since: z
      .string()
      .nullable()
      .describe('Online and free since: ties in distance go to whoever has waited longest'),
    busy_order_id: z.int().nullable().describe('The instant order it accepted and has not finished'),
    route_under_way: routeUnderWaySchema
      .nullable()
      .describe(
        'The route it is driving now (started, stops left): busy for instant offers unless the business sets offer_riders_on_route',
      ),
    position: z
      .object({
        lat: z.number(),
        lng: z.number(),
        accuracy_meters: z.number().nullable(),
        at: z.string().describe("The phone's time of the last kept ping"),
        received_at: z.string(),
        fresh: z
          .boolean()
          .describe(
            `Received within ${FRESH_POSITION_MS / 1000} s: only riders with a fresh position are offered orders`,
          ),
      })
      .meta({ title: 'RiderPosition' })
      .nullable()
      .describe('The last known position; null before the first ping'),
  })
  .meta({ title: 'Rider' });

const settingsSchema = z.object({
  wave_size: z.int().min(1).max(50).describe('Riders offered an order at once (a wave)'),
  offer_seconds: z.int().min(5).max(600).describe('Seconds each offer stays open'),
  offer_riders_on_route: z
    .boolean()
    .describe(
      'Riders driving a route under way (started, stops left) may be offered orders too; off: they are busy and passed over',
    ),
});

const legSchema = z
  .object({
    line1: z.string(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
    lat: z.number().optional(),
    lng: z.number().optional(),
  })
  .meta({ title: 'InstantOfferPlace' })
  .nullable();

const offerSchema = z
  .object({
    id: z.int(),
    state: offerStateSchema,
    wave: z.int(),
    distance_meters: z
      .int()
      .describe(
        'Straight-line distance from the rider to where it must go first (the pickup; a delivery: the drop-off)',
      ),
    offered_at: z.string(),
    expires_at: z.string(),
    seconds_left: z.int(),
    reason: offerReasonSchema,
    order: z
      .object({
        id: z.int(),
        order_ref: z.string(),
        rerouted_from: z
          .int()
          .nullable()
          .describe('The order this one replaces after a reroute: a rerouted instant order is offered again'),
        type: orderTypeSchema.nullable(),
        pickup: legSchema,
        dropoff: legSchema,
        packages: z.int(),
        time_window: z.object({ start: z.string(), end: z.string() }).nullable(),
      })
      .meta({ title: 'InstantOfferOrder' }),
  })
  .meta({ title: 'InstantOffer' });

export function ridersOperations(riders: RidersService): Operation[] {
  return [
    defineOperation({
      name: 'set_rider_grant',
      summary: 'Grant a driver instant delivery (a rider), or revoke it',
      description:
        'A rider goes online, sends its position and is offered instant orders, with its ordinary driver login. Revoking declines the offers it holds; an order it already accepted stays on its route.',
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['drivers:write'] },
      errors: ['DRIVER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/drivers/:driver_id/rider' },
      graphql: 'setRiderGrant',
      input: z.object({ driver_id: id, granted: z.boolean() }),
      output: z.object({
        result: z.literal(true),
        driver_id: z.int(),
        granted: z.boolean(),
        rider: riderSchema.nullable(),
      }),
      handler: (ctx, input) => riders.setGrant(ctx, input.driver_id, input.granted),
    }),
    defineOperation({
      name: 'get_riders',
      summary: 'The riders of the business: online or not, busy or waiting, and their last position',
      description:
        'Riders online first. Also how instant orders are offered (wave size, seconds an offer stays open).',
      tag: 'InstantRider',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['drivers:read'] },
      rest: { method: 'GET', path: '/v1/client/riders' },
      graphql: 'riders',
      input: z.object(pageParams),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        settings: settingsSchema,
        fresh_position_seconds: z.int(),
        riders: z.array(riderSchema),
      }),
      handler: (ctx, input) => riders.riders(ctx, input),
    }),
    defineOperation({
      name: 'set_rider_settings',
      summary: 'How instant orders are offered: riders per wave, seconds per offer, riders on a route or not',
      description: `Defaults: ${DEFAULT_RIDER_SETTINGS.wave_size} rider a wave, ${DEFAULT_RIDER_SETTINGS.offer_seconds} seconds an offer, riders driving a route under way not offered (offer_riders_on_route ${DEFAULT_RIDER_SETTINGS.offer_riders_on_route}). Fields left out keep their value. Applies to the waves sent from now on.`,
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['drivers:write'] },
      rest: { method: 'PUT', path: '/v1/client/riders/settings' },
      graphql: 'setRiderSettings',
      input: settingsSchema.partial(),
      output: z.object({ result: z.literal(true), settings: settingsSchema }),
      handler: (ctx, input) => riders.updateSettings(ctx, input),
    }),
    defineOperation({
      name: 'get_instant_dispatch',
      summary: "An instant order's dispatch: its state, the rider who took it, and every offer made",
      description:
        'state: offering (a wave of offers is open), accepted (by the rider, on route_id), exhausted (nobody was left: the order waits in the ordinary pool) or withdrawn (the order left the pool otherwise). dispatch is null for an order that is not instant.',
      tag: 'InstantRider',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['orders:read'] },
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/orders/:order_id/instant-dispatch' },
      graphql: 'instantDispatch',
      input: z.object({ order_id: id }),
      output: z.object({
        result: z.literal(true),
        order_id: z.int(),
        instant: z.boolean(),
        dispatch: z
          .object({
            state: dispatchStateSchema,
            wave: z.int().describe('Waves sent so far'),
            origin: z
              .object({ lat: z.number(), lng: z.number() })
              .nullable()
              .describe(
                'Where riders are ranked from; null: the address had no coordinates, so nobody was offered',
              ),
            rider: person.nullable(),
            route_id: z.int().nullable(),
            created_at: z.string(),
            updated_at: z.string(),
            offers: z.array(
              z.object({
                id: z.int(),
                rider: person,
                wave: z.int(),
                state: offerStateSchema,
                distance_meters: z.int(),
                offered_at: z.string(),
                expires_at: z.string(),
                answered_at: z.string().nullable(),
                reason: offerReasonSchema,
              }),
            ),
          })
          .nullable(),
      }),
      handler: (ctx, input) => riders.instant.orderDispatch(ctx, input.order_id),
    }),
    defineOperation({
      name: 'go_online',
      summary: 'I am available for instant orders',
      description: `Offers come while the rider's position is fresh (a ping within ${FRESH_POSITION_MS / 1000} s): send pings too. Going online again changes nothing.`,
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: RIDER, scopes: ['routes:drive'] },
      errors: [...RIDER_ERRORS],
      rest: { method: 'POST', path: '/v1/rider/online' },
      graphql: 'goOnline',
      input: z.object({}),
      output: z.object({ result: z.literal(true), rider: riderSchema }),
      handler: (ctx) => riders.goOnline(ctx),
    }),
    defineOperation({
      name: 'go_offline',
      summary: 'I take no more instant orders; the offers I hold are declined',
      description: 'An order already accepted stays mine on its route.',
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: RIDER, scopes: ['routes:drive'] },
      errors: [...RIDER_ERRORS],
      rest: { method: 'POST', path: '/v1/rider/offline' },
      graphql: 'goOffline',
      input: z.object({}),
      output: z.object({ result: z.literal(true), rider: riderSchema }),
      handler: (ctx) => riders.goOffline(ctx),
    }),
    defineOperation({
      name: 'send_rider_pings',
      summary: "My phone's positions, a batch at a time",
      description: `At most ${MAX_PINGS} pings a call. At most one a second is kept: a ping less than 1 s (phone time) after the last kept one is dropped and counted in the answer, not refused. The last kept ping is the rider's position.`,
      tag: 'InstantRider',
      kind: 'mutation',
      writes: 'telemetry',
      risk: 'low',
      access: { kinds: RIDER, scopes: ['routes:drive'] },
      errors: [...RIDER_ERRORS, 'DEVICE_TIME_OUT_OF_RANGE'],
      rest: { method: 'POST', path: '/v1/rider/pings' },
      graphql: 'sendRiderPings',
      input: z.object({
        pings: z
          .array(
            z.object({
              lat: z.number().min(-90).max(90),
              lng: z.number().min(-180).max(180),
              accuracy_meters: z.number().min(0).max(100_000).optional(),
              at: z.iso
                .datetime({ offset: true })
                .describe(
                  "The phone's time of the position, ISO 8601; at most 5 minutes ahead of the server",
                ),
            }),
          )
          .min(1)
          .max(MAX_PINGS),
      }),
      output: z.object({
        result: z.literal(true),
        kept: z.int(),
        dropped: z.int().describe('Pings less than 1 s after the last kept one'),
        position: riderSchema.shape.position,
      }),
      handler: (ctx, input) => riders.ping(ctx, input.pings),
    }),
    defineOperation({
      name: 'get_my_offers',
      summary: 'The instant orders offered to me now',
      description:
        "Each open offer with its order (legs, parcels), distance and deadline. Offers are pushed on the rider's MQTT topic too (type instant_offer); this is the poll.",
      tag: 'InstantRider',
      kind: 'query',
      risk: 'low',
      access: { kinds: RIDER, scopes: ['routes:read'] },
      errors: [...RIDER_ERRORS],
      rest: { method: 'GET', path: '/v1/rider/offers' },
      graphql: 'myOffers',
      input: z.object({}),
      output: z.object({ result: z.literal(true), offers: z.array(offerSchema) }),
      handler: (ctx) => riders.myOffers(ctx),
    }),
    defineOperation({
      name: 'accept_offer',
      summary: 'Take the order of an open offer: it becomes my one-order route',
      description:
        'Exactly one rider gets the order: a rider answering after it was taken gets 409 OFFER_ALREADY_TAKEN, after the deadline 409 OFFER_EXPIRED. A rider still on an instant order gets 409 RIDER_BUSY; one driving a route under way 409 RIDER_ON_ROUTE, unless the business sets offer_riders_on_route. The route leaves from my last position; work it with start_route, arrive_at_stop and complete_stop.',
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: RIDER, scopes: ['routes:drive'] },
      errors: [...OFFER_ERRORS, 'RIDER_BUSY', 'RIDER_ON_ROUTE'],
      rest: { method: 'POST', path: '/v1/rider/offers/:offer_id/accept' },
      graphql: 'acceptOffer',
      input: z.object({ offer_id: id }),
      output: z.object({
        result: z.literal(true),
        offer: offerSchema,
        order_id: z.int(),
        route_id: z.int().describe('My route of this order (get_my_routes)'),
      }),
      handler: (ctx, input) => riders.accept(ctx, input.offer_id),
    }),
    defineOperation({
      name: 'decline_offer',
      summary: 'Decline an open offer: the order goes to the next rider',
      description: "When the wave's last open offer is declined, the next wave goes out at once.",
      tag: 'InstantRider',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: RIDER, scopes: ['routes:drive'] },
      errors: [...OFFER_ERRORS],
      rest: { method: 'POST', path: '/v1/rider/offers/:offer_id/decline' },
      graphql: 'declineOffer',
      input: z.object({ offer_id: id }),
      output: z.object({ result: z.literal(true), offer: offerSchema }),
      handler: (ctx, input) => riders.decline(ctx, input.offer_id),
    }),
  ];
}
