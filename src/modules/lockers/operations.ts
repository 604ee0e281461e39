import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams, pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { LockerBookings } from './bookings.ts';
import type { LockerLedger } from './ledger.ts';
import {
  bookingPurposeSchema,
  bookingSchema,
  bookingStateSchema,
  codesSchema,
  commandSchema,
  compartmentSchema,
  deviceInput,
  deviceSchema,
  ledgerEntrySchema,
  MAX_CODE_ATTEMPTS,
  openingKindSchema,
  siteInput,
  siteSchema,
  sizeClassSchema,
} from './schemas.ts';
import type { LockerSites } from './sites.ts';

const LOCKER = 'Smart Locker';
const DEVICES = 'Device Operations';
const READ = { kinds: STAFF, scopes: ['lockers:read'] };
const WRITE = { kinds: STAFF, scopes: ['lockers:write'] };

const bookingAnswer = z.object({ result: z.literal(true), booking: bookingSchema });
const commandAnswer = z.object({ result: z.literal(true), command: commandSchema });
const BOOKING_ERRORS = ['LOCKER_BOOKING_NOT_FOUND', 'LOCKER_BOOKING_CLOSED'] as const;
/** What a code typed at a locker may be: digits only. */
const code = z.string().regex(/^\d{6,12}$/, 'digits, 6 to 12');

export function lockerOperations(
  sites: LockerSites,
  bookings: LockerBookings,
  ledger: LockerLedger,
): Operation[] {
  return [
    defineOperation({
      name: 'create_locker_site',
      summary: 'Add a locker site the business operates',
      description:
        'A place holding lockers, kiosks or smart drops: address, opening hours, how long parcels wait, and what sending a parcel from it costs (`send_price`, for device orders).',
      tag: LOCKER,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      rest: { method: 'POST', path: '/v1/lockers/sites' },
      graphql: 'createLockerSite',
      input: z.object({
        ...siteInput,
        send_price: z
          .object({ amount: z.number().min(0).max(100_000), currency: z.string().regex(/^[A-Z]{3}$/) })
          .optional(),
      }),
      output: z.object({ result: z.literal(true), site: siteSchema }),
      handler: (ctx, input) => sites.create(ctx, input),
    }),
    defineOperation({
      name: 'list_locker_sites',
      summary: 'Locker sites operated or rented',
      description:
        'Each site with its devices (online or not) and compartments with their state. At a site of another business (locker resale) only the compartments holding your own bookings are shown.',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_locker_sites',
        guide: 'Locker sites, devices (online?) and compartments (size, state).',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/lockers/sites' },
      graphql: 'lockerSites',
      input: z.object({}),
      output: z.object({ result: z.literal(true), sites: z.array(siteSchema) }),
      handler: (ctx) => sites.list(ctx),
    }),
    defineOperation({
      name: 'get_locker_site',
      summary: 'One locker site with its devices and compartments',
      description: 'As `list_locker_sites` shows each site.',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['LOCKER_SITE_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/lockers/sites/:site_id' },
      graphql: 'lockerSite',
      input: z.object({ site_id: id }),
      output: z.object({ result: z.literal(true), site: siteSchema }),
      handler: (ctx, input) => sites.get(ctx, input.site_id),
    }),
    defineOperation({
      name: 'reserve_locker_compartment',
      summary: 'Hold a compartment for a delivery or a handover, with its two one-time codes',
      description:
        "The smallest free compartment on an online device that takes the order's packages (or of `size_class`). The answer carries the drop code (for whoever deposits) and the pickup code (for whoever collects, valid once deposited and until the site's hold time runs out): shown here only, kept hashed. " +
        'A handover names its receiver (`recipient_user_id`): the caller deposits, only the receiver collects. At a site of another business the booking counts against your quota there (locker resale). ' +
        "A delivery for an order with a pending stop on a route sends that stop to the locker site, re-timed there, or takes the order off its route, as the business's dispatch setting locker_reservation says; its driver is told.",
      tag: LOCKER,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: [...STAFF, 'customer'], scopes: ['lockers:write'] },
      errors: [
        'LOCKER_SITE_NOT_FOUND',
        'LOCKER_NO_COMPARTMENT_FREE',
        'LOCKER_QUOTA_EXHAUSTED',
        'ORDER_NOT_FOUND',
        'LOCKER_ORDER_ON_BOARD',
        'LOCKER_SITE_NOT_PLACED',
        // Re-timing the order's route to the locker site, as a plan edit would.
        'ROUTE_PAST_MIDNIGHT',
        'DRIVER_WITHOUT_DEPOT',
      ],
      rest: { method: 'POST', path: '/v1/lockers/bookings' },
      graphql: 'reserveLockerCompartment',
      input: z.object({
        site_id: id,
        purpose: z.enum(['delivery', 'handover']).default('delivery'),
        order_id: id
          .optional()
          .describe('The order delivered to the locker: its packages choose the compartment'),
        size_class: sizeClassSchema.optional(),
        recipient_user_id: id.optional().describe('Handover: the account that collects'),
        recipient_name: z.string().trim().max(200).optional(),
      }),
      output: z.object({ result: z.literal(true), booking: bookingSchema, codes: codesSchema }),
      handler: (ctx, input) => {
        const purpose = ctx.caller?.kind === 'customer' ? 'handover' : input.purpose;
        return bookings.reserve(ctx, { ...input, purpose });
      },
    }),
    defineOperation({
      name: 'open_locker_compartment',
      summary: 'Open a compartment with its code: the deposit, or the pickup',
      description:
        "What the locker's screen or the app sends when a person types a code: the booking's `reference` and the code. Before the deposit the drop code opens it, after it the pickup code. " +
        `Wrong codes count against the booking; after ${MAX_CODE_ATTEMPTS} it locks (423) until the business gives a new code. ` +
        'The answer carries the open command sent to the device; `get_locker_opening` says when the door opened (the command acked) and the booking moved on. Anyone holding the reference and code may call it, signed in or not.',
      tag: LOCKER,
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: [
        'LOCKER_BOOKING_NOT_FOUND',
        'LOCKER_CODE_WRONG',
        'LOCKER_CODE_LOCKED',
        'LOCKER_CODE_EXPIRED',
        'LOCKER_BOOKING_CLOSED',
        'LOCKER_COMPARTMENT_BUSY',
        'LOCKER_DEVICE_OFFLINE',
        'LOCKER_NOT_YOUR_HANDOVER',
        'RATE_LIMITED',
      ],
      rest: { method: 'POST', path: '/v1/lockers/open' },
      graphql: 'openLockerCompartment',
      input: z.object({ reference: z.string().trim().min(8).max(32), code }),
      output: z.object({
        result: z.literal(true),
        opening: openingKindSchema,
        booking: bookingSchema,
        command: commandSchema,
      }),
      handler: (ctx, input) => bookings.open(ctx, input),
    }),
    defineOperation({
      name: 'get_locker_opening',
      summary: 'Where an opening stands: the booking and its last open command',
      description:
        'For the person at the locker after `open_locker_compartment`: the command is `pending` until the device answers, then `acked` (the door opened) or `failed` (the code stays good).',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['LOCKER_BOOKING_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/lockers/open/:reference' },
      graphql: 'lockerOpening',
      input: z.object({ reference: z.string().trim().min(8).max(32) }),
      output: z.object({
        result: z.literal(true),
        booking: bookingSchema,
        command: commandSchema.nullable(),
      }),
      handler: (ctx, input) => bookings.opening(ctx, input.reference),
    }),
    defineOperation({
      name: 'get_locker_booking',
      summary: 'A locker booking by id',
      description: 'Bookings of the business, and every booking at the sites it operates.',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['LOCKER_BOOKING_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/lockers/bookings/:booking_id' },
      graphql: 'lockerBooking',
      input: z.object({ booking_id: id }),
      output: bookingAnswer,
      handler: (ctx, input) => bookings.get(ctx, input.booking_id),
    }),
    defineOperation({
      name: 'list_locker_bookings',
      summary: 'Locker bookings, by site, order, purpose or state',
      description: 'Oldest first, a page at a time (by `page`, or by the `next_cursor` of the page before).',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/lockers/bookings' },
      graphql: 'lockerBookings',
      input: z.object({
        site_id: id.optional(),
        order_id: id.optional(),
        purpose: bookingPurposeSchema.optional(),
        state: bookingStateSchema.optional(),
        ...cursorPageParams,
      }),
      output: z.object({ result: z.literal(true), ...cursorPageEnvelope, bookings: z.array(bookingSchema) }),
      handler: (ctx, input) => bookings.list(ctx, input),
    }),
    defineOperation({
      name: 'cancel_locker_booking',
      summary: 'Give back a reserved compartment nothing was deposited in',
      description:
        "Its codes stop and the compartment is offered again; a locker drop it made on the order's route goes back to the door, re-timed. Once something is deposited, collect it instead.",
      tag: LOCKER,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [...BOOKING_ERRORS, 'ROUTE_PAST_MIDNIGHT', 'DRIVER_WITHOUT_DEPOT'],
      rest: { method: 'POST', path: '/v1/lockers/bookings/:booking_id/cancel' },
      graphql: 'cancelLockerBooking',
      input: z.object({ booking_id: id }),
      output: bookingAnswer,
      handler: (ctx, input) => bookings.cancel(ctx, input.booking_id),
    }),
    defineOperation({
      name: 'collect_locker_parcel',
      summary:
        "Open a booking's compartment without its code: a courier's collection, or taking a parcel back",
      description:
        "For the business's staff and drivers: a parcel sent from the locker (device order) is collected (its order is picked up); any other deposited or expired parcel is retrieved (back to its sender). The device must be online.",
      tag: LOCKER,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: [...STAFF, 'driver'], scopes: ['lockers:write'] },
      errors: [...BOOKING_ERRORS, 'LOCKER_COMPARTMENT_BUSY', 'LOCKER_DEVICE_OFFLINE'],
      rest: { method: 'POST', path: '/v1/lockers/bookings/:booking_id/collect' },
      graphql: 'collectLockerParcel',
      input: z.object({ booking_id: id }),
      output: commandAnswer,
      handler: (ctx, input) => bookings.retrieve(ctx, input.booking_id),
    }),
    defineOperation({
      name: 'reissue_locker_code',
      summary: 'A new code for a booking: unlocks it after wrong codes, and the old code stops',
      description:
        'Before the deposit the drop code is replaced, after it the pickup code. The code is in this answer only.',
      tag: LOCKER,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...BOOKING_ERRORS],
      rest: { method: 'POST', path: '/v1/lockers/bookings/:booking_id/code' },
      graphql: 'reissueLockerCode',
      input: z.object({ booking_id: id }),
      output: z.object({ result: z.literal(true), booking: bookingSchema, code: z.string() }),
      handler: (ctx, input) => bookings.reissue(ctx, input.booking_id),
    }),
    defineOperation({
      name: 'list_locker_ledger',
      summary: 'The locker ledger of handlings',
      description:
        'Append-only: no operation changes or deletes a row. By site, compartment, booking or order, oldest first, a page at a time (by `page` or `cursor`). The operator reads its sites; a tenant reads the rows of its own bookings. Codes appear as `code_ref`, a piece of their hash.',
      tag: LOCKER,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_locker_ledger',
        guide: 'Locker ledger by site, compartment, booking or order: who did what, when.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/lockers/ledger' },
      graphql: 'lockerLedger',
      input: z.object({
        site_id: id.optional(),
        compartment_id: id.optional(),
        booking_id: id.optional(),
        order_id: id.optional(),
        ...cursorPageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        entries: z.array(ledgerEntrySchema),
      }),
      handler: (ctx, input) => ledger.list(ctx, input),
    }),
    defineOperation({
      name: 'register_locker_device',
      summary: 'Add a locker, kiosk or smart drop to a site, with its compartments and its own credential',
      description:
        'The credential (`tmsdev_...`) is what the device connects to the MQTT broker with (docs/lockers.md): shown in this answer only, kept hashed. A device holds at most 200 compartments, a site 50 devices.',
      tag: DEVICES,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['LOCKER_SITE_NOT_FOUND', 'LOCKER_NUMBERS_TAKEN', 'LOCKER_SITE_FULL'],
      rest: { method: 'POST', path: '/v1/lockers/devices' },
      graphql: 'registerLockerDevice',
      input: z.object(deviceInput),
      output: z.object({ result: z.literal(true), device: deviceSchema, credential: z.string() }),
      handler: (ctx, input) => sites.register(ctx, input),
    }),
    defineOperation({
      name: 'rotate_locker_device_credential',
      summary: "Replace a device's credential; the old one stops working",
      description:
        'A device still connected with the old credential is disconnected at the next check (a minute).',
      tag: DEVICES,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['LOCKER_DEVICE_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/lockers/devices/:device_id/credential' },
      graphql: 'rotateLockerDeviceCredential',
      input: z.object({ device_id: id }),
      output: z.object({ result: z.literal(true), device_id: z.int(), credential: z.string() }),
      handler: (ctx, input) => sites.rotateCredential(ctx, input.device_id),
    }),
    defineOperation({
      name: 'send_locker_device_command',
      summary: 'Send a device a command (reboot)',
      description:
        'The command has an id and a deadline; the device answers it once. Not answered in time, it is reported failed and never sent again. Refused while the device is offline.',
      tag: DEVICES,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['LOCKER_DEVICE_NOT_FOUND', 'LOCKER_DEVICE_OFFLINE'],
      rest: { method: 'POST', path: '/v1/lockers/devices/:device_id/commands' },
      graphql: 'sendLockerDeviceCommand',
      input: z.object({ device_id: id, action: z.enum(['reboot']) }),
      output: commandAnswer,
      handler: (ctx, input) => sites.command(ctx, input),
    }),
    defineOperation({
      name: 'list_locker_device_commands',
      summary: "A device's latest commands with their answers",
      description:
        'Newest first: `pending` until the device answers, then `acked`, or `failed` with the reason (refused, or not answered in time).',
      tag: DEVICES,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['LOCKER_DEVICE_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/lockers/devices/:device_id/commands' },
      graphql: 'lockerDeviceCommands',
      input: z.object({ device_id: id, ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, commands: z.array(commandSchema) }),
      handler: (ctx, input) => sites.commandsOf(ctx, input),
    }),
    defineOperation({
      name: 'set_locker_compartment_state',
      summary: 'Take a free compartment out of order, or put it back in service',
      description:
        'An out-of-order compartment is never offered to a booking. One holding a booking must be emptied first.',
      tag: DEVICES,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['LOCKER_COMPARTMENT_NOT_FOUND', 'LOCKER_COMPARTMENT_IN_USE'],
      rest: { method: 'PUT', path: '/v1/lockers/compartments/:compartment_id/state' },
      graphql: 'setLockerCompartmentState',
      input: z.object({ compartment_id: id, out_of_order: z.boolean() }),
      output: z.object({ result: z.literal(true), compartment: compartmentSchema }),
      handler: (ctx, input) => sites.setCompartmentState(ctx, input),
    }),
  ];
}
