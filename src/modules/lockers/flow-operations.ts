import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { addressSchema, idParam as id } from '../../platform/schemas.ts';
import { packageInputSchema } from '../orders/index.ts';
import type { LockerBookings } from './bookings.ts';
import type { DeviceOrders } from './device-orders.ts';
import type { LuggageRelays } from './relays.ts';
import type { LockerResale } from './resale.ts';
import {
  bookingSchema,
  codesSchema,
  ledgerEntrySchema,
  MAX_RELAY_HOPS,
  quotaInput,
  quotaSchema,
  relaySchema,
  sizeClassSchema,
} from './schemas.ts';

const READ = { kinds: STAFF, scopes: ['lockers:read'] };
const WRITE = { kinds: STAFF, scopes: ['lockers:write'] };

/** The flows over lockers: device orders, locker resale, luggage relay and (read-only) locker storage. */
export function lockerFlowOperations(
  deviceOrders: DeviceOrders,
  resale: LockerResale,
  relays: LuggageRelays,
  bookings: LockerBookings,
): Operation[] {
  return [
    defineOperation({
      name: 'send_from_locker',
      summary: 'Send a parcel from a locker: a device order, and a compartment to drop it in',
      description:
        "The `send` and `return` quick actions. The order is of the `device_order` family, picked up at the site at the site's send price (hidden from customers the business hides that family's prices from; settled offline then). " +
        'The answer carries the drop code (shown here only); the business collects the parcel with `collect_locker_parcel`, which marks the order picked up.',
      tag: 'Device Orders',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: [...STAFF, 'customer'], scopes: ['orders:write'] },
      errors: ['LOCKER_SITE_NOT_FOUND', 'LOCKER_NO_COMPARTMENT_FREE'],
      rest: { method: 'POST', path: '/v1/lockers/sends' },
      graphql: 'sendFromLocker',
      input: z.object({
        site_id: id,
        dropoff: addressSchema,
        packages: z.array(packageInputSchema).min(1).max(5),
        note: z.string().trim().max(500).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        order_id: z.int(),
        tracking_numbers: z.array(z.string()),
        booking: bookingSchema,
        drop_code: z.string(),
      }),
      handler: (ctx, input) => deviceOrders.send(ctx, input),
    }),
    defineOperation({
      name: 'offer_locker_quota',
      summary: 'Offer compartments of a site to another business (locker resale)',
      description:
        'A quota per size class: how many compartments the tenant may hold at once, at a price per period, from `starts_on` (to `ends_on`). Calling again for the same site, tenant and size changes it.',
      tag: 'Locker Resale',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['LOCKER_SITE_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/lockers/quotas' },
      graphql: 'offerLockerQuota',
      input: z.object(quotaInput),
      output: z.object({ result: z.literal(true), quota: quotaSchema }),
      handler: (ctx, input) => resale.offer(ctx, input),
    }),
    defineOperation({
      name: 'list_locker_quotas',
      summary: 'Locker quotas the business sells and holds, with the compartments in use',
      description:
        'As operator: the quotas it offers at its sites; as tenant: the ones it holds. `in_use` counts the bookings holding a compartment now.',
      tag: 'Locker Resale',
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/lockers/quotas' },
      graphql: 'lockerQuotas',
      input: z.object({}),
      output: z.object({ result: z.literal(true), quotas: z.array(quotaSchema) }),
      handler: (ctx) => resale.list(ctx),
    }),
    defineOperation({
      name: 'withdraw_locker_quota',
      summary: 'End a locker quota: the tenant books no more there',
      description: 'What the tenant holds stays until it is collected.',
      tag: 'Locker Resale',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['LOCKER_QUOTA_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/lockers/quotas/:quota_id' },
      graphql: 'withdrawLockerQuota',
      input: z.object({ quota_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => resale.withdraw(ctx, input.quota_id),
    }),
    defineOperation({
      name: 'create_luggage_relay',
      summary: 'Relay a bag between sites in hops, a compartment reserved at each',
      description:
        "Each hop's drop code is for whoever brings the bag to that site, its pickup code for whoever takes it on (the last one: the owner). Codes are in this answer only. The relay's ledger is the bag's chain of custody.",
      tag: 'Luggage Relay',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [
        'LUGGAGE_TAG_TAKEN',
        'LOCKER_SITE_NOT_FOUND',
        'LOCKER_NO_COMPARTMENT_FREE',
        'LOCKER_QUOTA_EXHAUSTED',
      ],
      rest: { method: 'POST', path: '/v1/luggage/relays' },
      graphql: 'createLuggageRelay',
      input: z.object({
        bag_tag: z.string().trim().min(1).max(64),
        owner_name: z.string().trim().max(200).optional(),
        site_ids: z.array(id).min(1).max(MAX_RELAY_HOPS),
        size_class: sizeClassSchema.default('L'),
      }),
      output: z.object({
        result: z.literal(true),
        relay_id: z.int(),
        bag_tag: z.string(),
        hops: z.array(z.object({ booking: bookingSchema, codes: codesSchema })),
      }),
      handler: (ctx, input) => relays.create(ctx, input),
    }),
    defineOperation({
      name: 'get_luggage_relay',
      summary: 'A luggage relay with its hops and its chain of custody',
      description:
        "Each hop's booking and state, and every ledger row of them in order: who deposited and collected the bag where, and when.",
      tag: 'Luggage Relay',
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['LUGGAGE_RELAY_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/luggage/relays/:relay_id' },
      graphql: 'luggageRelay',
      input: z.object({ relay_id: id }),
      output: z.object({ result: z.literal(true), relay: relaySchema }),
      handler: (ctx, input) => relays.get(ctx, { id: input.relay_id }),
    }),
    defineOperation({
      name: 'list_locker_storage',
      summary: 'Short-term storage periods at the lockers (read-only)',
      description:
        "Storage is sold at the kiosk (its own flow over the device protocol); over the API it is read-only. Oldest first, a page at a time (by `page` or `cursor`); `state: 'occupied'` for what is stored now.",
      tag: 'Locker Storage',
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/lockers/storage' },
      graphql: 'lockerStorage',
      input: z.object({
        site_id: id.optional(),
        state: z.enum(['occupied', 'collected', 'expired', 'retrieved']).optional(),
        ...cursorPageParams,
      }),
      output: z.object({ result: z.literal(true), ...cursorPageEnvelope, bookings: z.array(bookingSchema) }),
      handler: (ctx, input) => bookings.list(ctx, { ...input, purpose: 'storage' }),
    }),
    defineOperation({
      name: 'get_locker_storage',
      summary: 'One storage period with its history',
      description:
        'The booking (compartment, paid until, state) and its ledger rows, from the kiosk starting it to the pickup.',
      tag: 'Locker Storage',
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['LOCKER_BOOKING_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/lockers/storage/:booking_id' },
      graphql: 'lockerStoragePeriod',
      input: z.object({ booking_id: id }),
      output: z.object({
        result: z.literal(true),
        booking: bookingSchema,
        history: z.array(ledgerEntrySchema),
      }),
      handler: (ctx, input) => bookings.storagePeriod(ctx, input.booking_id),
    }),
  ];
}
