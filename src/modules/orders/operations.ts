import { z } from 'zod';
import { withoutUnknownFields } from '../../platform/catalog/input-checks.ts';
import { callerOf, defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { cursorPageEnvelope, cursorPageParams, pageEnvelope, pageParams } from '../../platform/pagination.ts';
import {
  addressSchema,
  alliedBusinessParam,
  calendarDate,
  idParam as id,
  timeWindowSchema,
} from '../../platform/schemas.ts';
import type { AccountsService } from '../accounts/index.ts';
import { locationOperations, orderWarningSchema } from './location-operations.ts';
import { returnReasonOperations } from './return-reason-operations.ts';
import { bulkOrderSchema, orderInputSchema, orderSchema, orderStatusSchema } from './schemas.ts';
import type { OrdersService } from './service.ts';
import { statusOperations, type TrackingVocabulary } from './status-operations.ts';
import { ORDER_STATUSES } from './statuses.ts';

const READ = { kinds: STAFF, scopes: ['orders:read'] };
const WRITE = { kinds: STAFF, scopes: ['orders:write'] };
/** Reads contractors (within the pool their rules give them) and customers (their own orders) may make too. */
const SCOPED_READ = {
  kinds: [...STAFF, 'contractor', 'customer'] as const,
  scopes: ['orders:read'],
  business: 'acting' as const,
};
/**
 * The order reads an allied business's staff may make too, naming it in `business_id`, when it
 * grants theirs `see_orders` (alliances): reads only, prices hidden (the pricing policy).
 */
const SHARED_READ = {
  ...SCOPED_READ,
  allied: { grant: 'see_orders', kinds: STAFF, scopes: ['alliance:read'] },
};

const orderResult = z.object({ result: z.literal(true), order: orderSchema });

/** A single order, or `{ orders: [...] }` with up to 100. */
const oneOrMany = z.preprocess(
  (body, ctx) => {
    if (body && typeof body === 'object' && 'orders' in body) return body;
    // One order sent as it is: its refusals name its own fields (dropoff), not orders.0.dropoff,
    // a field it does not know included (as every write refuses one). Each goes on as zod raised
    // it (with the check that named its message), unworded: the caller's language map words it.
    const raised: z.core.$ZodRawIssue[] = [];
    const one = withoutUnknownFields(orderInputSchema).safeParse(body, {
      error: (issue) => {
        raised.push(issue);
        return undefined;
      },
    });
    if (one.success) return { orders: [body] };
    for (const { message: _message, ...issue } of one.error.issues) {
      const path = JSON.stringify(issue.path);
      const raw = raised.find(
        (candidate) => candidate.code === issue.code && JSON.stringify(candidate.path) === path,
      );
      ctx.addIssue((raw ?? issue) as never);
    }
    // Unknown fields alone do not stop the parse (zod reads on past them): the order goes on
    // without them, so they are not named a second time as orders.0.<field>.
    const unknownOnly = one.error.issues.every((issue) => issue.code === 'unrecognized_keys');
    return unknownOnly ? { orders: [withoutKeys(body, one.error.issues)] } : body;
  },
  z.object({ orders: z.array(orderInputSchema).min(1).max(100) }),
);

/** A copy of the value without the keys that unrecognized_keys issues name, at their paths. */
function withoutKeys(value: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const copy = structuredClone(value);
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const holder = issue.path.reduce<unknown>(
      (node, key) => (node as Record<PropertyKey, unknown>)[key],
      copy,
    ) as Record<string, unknown>;
    for (const key of issue.keys) delete holder[key];
  }
  return copy;
}

export function ordersOperations(
  orders: OrdersService,
  accounts: AccountsService,
  tracking: TrackingVocabulary,
): Operation[] {
  return [
    defineOperation({
      name: 'create_order',
      summary: 'Create one order, or several at once (all or nothing)',
      description:
        'Send one order object, or `{ "orders": [...] }` with up to 100: either all are created or none. ' +
        'Local-delivery orders have a type: D delivery (needs dropoff), P pickup (needs pickup), P2P (needs both). ' +
        'Each package gets its own tracking number. Use bulk_create_orders for per-order success or failure. ' +
        'A customer account books for itself: customer_id is always its own. ' +
        'An order whose drop-off (D, P2P) or pickup (P, P2P) cannot be placed on the map is still created, with a location_missing warning.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        developer: 'create_order',
        user: 'create_order',
        guide:
          'Create one order: type D (delivery, needs dropoff), P (pickup, needs pickup) or P2P (both); answers the order id and its tracking numbers. For many orders at once use bulk_create_orders.',
      },
      access: { kinds: [...STAFF, 'customer'], scopes: ['orders:write'] },
      errors: ['ORDER_REF_TAKEN', 'CUSTOMER_NOT_FOUND', 'SAVED_ADDRESS_NOT_FOUND', 'AMOUNT_TOO_PRECISE'],
      rest: { method: 'POST', path: '/v1/client/orderCreate' },
      graphql: 'clientOrderCreate',
      input: oneOrMany,
      output: z.object({
        result: z.literal(true),
        order_id: z.int().describe('Id of the first order created'),
        tracking_number: z.string().describe('Tracking number of its first package'),
        orders: z.array(orderSchema),
        warnings: z
          .array(orderWarningSchema)
          .describe('What needs a hand in the orders created (none: empty)'),
      }),
      handler: async (ctx, input) => {
        const created = await orders.intake.create(ctx, input.orders);
        const first = created[0]!;
        return {
          result: true as const,
          order_id: first.id,
          tracking_number: first.packages[0]!.tracking_number,
          orders: created,
          warnings: orders.locations.warningsOf(ctx, created),
        };
      },
    }),
    defineOperation({
      name: 'bulk_create_orders',
      summary: 'Create up to 100 orders, each on its own, with a per-order success or failure list',
      description:
        "Use it for imports, where one bad order must not stop the others: each order is created or refused on its own, and the answer lists each one's outcome by its index. For all-or-nothing creation use create_order.",
      tag: 'Client',
      kind: 'mutation',
      expensive: true,
      risk: 'high',
      tool: {
        user: 'bulk_create_orders',
        guide:
          'Create up to 100 orders in one call, each on its own: the answer lists success or failure per order (index, order id or error).',
      },
      confirm: true,
      access: WRITE,
      rest: { method: 'POST', path: '/v1/client/orders/bulk' },
      graphql: 'bulkCreateOrders',
      input: z.object({ orders: z.array(bulkOrderSchema).min(1).max(100) }),
      output: z.object({
        result: z.boolean(),
        created: z.int(),
        failed: z.int(),
        results: z.array(
          z.object({
            index: z.int(),
            success: z.boolean(),
            order_id: z.int().optional(),
            order_ref: z.string().optional(),
            tracking_numbers: z.array(z.string()).optional(),
            warnings: z.array(orderWarningSchema).optional().describe('With success: what needs a hand'),
            error_code: z.string().optional(),
            message: z.string().optional(),
            details: z.record(z.string(), z.unknown()).optional(),
          }),
        ),
      }),
      handler: (ctx, input) => orders.intake.bulkCreate(ctx, input.orders),
    }),
    defineOperation({
      name: 'get_orders',
      summary: 'List orders with filters, newest first',
      description:
        'A contractor sees the orders inside its rules only; a customer its own orders. `search` finds the orders whose reference, a tracking number, or the recipient’s (or sender’s) name or first address line contains its words, whatever their case.',
      tag: 'Client',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        user: 'get_orders',
        guide:
          "List the business's orders, newest first, filtered by status (a list), scheduled date, reference, tracking number, route or driver, or found by words (search: in the reference, a tracking number, a name or an address line); paged. Use it to browse; to fetch one order by reference or tracking number use find_order.",
        idempotent: true,
      },
      access: SHARED_READ,
      errors: ['BUSINESS_REQUIRED', 'CLIENT_NOT_ACCESSIBLE'],
      rest: { method: 'GET', path: '/v1/client/orders' },
      graphql: 'orders',
      input: z.object({
        status: z
          .array(orderStatusSchema)
          .max(ORDER_STATUSES.length)
          .optional()
          .describe(
            'Orders in any of these statuses (over REST: comma-separated, or the parameter repeated)',
          ),
        scheduled_date: calendarDate.optional(),
        order_ref: z.string().max(64).optional(),
        tracking_number: z.string().max(64).optional(),
        search: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe(
            'Words the reference, a tracking number, or the drop-off’s or pickup’s name or first address line contains, whatever their case',
          ),
        route_id: id.optional(),
        driver_id: id.optional().describe('Orders planned with this driver'),
        business_id: alliedBusinessParam,
        ...cursorPageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        orders: z.array(orderSchema),
      }),
      handler: (ctx, input) => orders.queries.list(ctx, input),
    }),
    defineOperation({
      name: 'find_order',
      summary: 'Find one order by its reference or a tracking number',
      description:
        'Give exactly one of order_ref or tracking_number. A contractor finds only orders inside its rules; staff may name an allied business in business_id when it grants see_orders.',
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'find_order',
        guide:
          'Find one order by its reference (order_ref) or one of its tracking numbers; give exactly one. Use it when a person quotes a reference or tracking number.',
        idempotent: true,
      },
      access: SHARED_READ,
      errors: ['ORDER_NOT_FOUND', 'BUSINESS_REQUIRED', 'CLIENT_NOT_ACCESSIBLE'],
      rest: { method: 'GET', path: '/v1/client/orders/find' },
      graphql: 'findOrder',
      input: z
        .object({
          order_ref: z.string().max(64).optional(),
          tracking_number: z.string().max(64).optional(),
          business_id: alliedBusinessParam,
        })
        .refine((by) => (by.order_ref === undefined) !== (by.tracking_number === undefined), {
          ...fieldMessage('exactly_one_of', { fields: 'order_ref, tracking_number' }),
          path: ['order_ref'],
        }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.queries.find(ctx, input),
      }),
    }),
    defineOperation({
      name: 'get_order_detail',
      summary: 'One order with its packages',
      description:
        'Addresses, window, packages and their tracking numbers, status, route and driver, and prices unless hidden from the caller. Staff may name an allied business in business_id when it grants see_orders; its prices are never shown.',
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_order_detail',
        guide:
          'One order in full by its id: addresses, window, packages and tracking numbers, status, route and driver, prices (unless hidden from the caller). Use it after get_orders or find_order gave you the id.',
        idempotent: true,
      },
      access: SHARED_READ,
      errors: ['ORDER_NOT_FOUND', 'BUSINESS_REQUIRED', 'CLIENT_NOT_ACCESSIBLE'],
      rest: { method: 'GET', path: '/v1/client/orders/:order_id' },
      graphql: 'order',
      input: z.object({ order_id: id, business_id: alliedBusinessParam }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.queries.detail(ctx, input.order_id),
      }),
    }),
    ...statusOperations(orders, tracking),
    ...returnReasonOperations(orders),
    ...locationOperations(orders),
    defineOperation({
      name: 'reroute_to_address',
      summary: 'Send an order not yet picked up to a new address',
      description:
        'Cancels the original order and creates a copy with the new drop-off address (reference suffixed -R1, -R2, ...). ' +
        'The packages and their tracking numbers move to the new order.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'high',
      tool: {
        user: 'reroute_to_address',
        guide:
          'Send an order not yet picked up to a new drop-off address: a new order with the same tracking numbers replaces it. ' +
          'To fix the map location of the same address, use set_order_location.',
      },
      confirm: true,
      access: WRITE,
      errors: ['ORDER_NOT_FOUND', 'ILLEGAL_STATUS_TRANSITION'],
      rest: { method: 'POST', path: '/v1/client/orders/:order_id/reroute' },
      graphql: 'rerouteToAddress',
      input: z.object({ order_id: id, dropoff: addressSchema }),
      output: z.object({ result: z.literal(true), cancelled_order_id: z.int(), order: orderSchema }),
      handler: (ctx, input) => orders.changes.reroute(ctx, input.order_id, input.dropoff),
    }),
    defineOperation({
      name: 'update_delivery_instruction',
      summary: 'Replace the delivery instruction of an order',
      description:
        'What the driver should do at the door (leave with a neighbour, ring twice); the driver sees it at the stop. An empty text removes it.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'update_delivery_instruction',
        guide:
          "Replace an order's delivery instruction (what the driver should do at the door); an empty text removes it.",
        idempotent: true,
      },
      access: WRITE,
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/orders/:order_id/delivery-instruction' },
      graphql: 'updateDeliveryInstruction',
      input: z.object({ order_id: id, delivery_instruction: z.string().max(2000) }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.changes.updateText(
          ctx,
          input.order_id,
          'delivery_instruction',
          input.delivery_instruction,
        ),
      }),
    }),
    defineOperation({
      name: 'update_order_note',
      summary: 'Replace the note of an order',
      description: "The order's own note, which the driver also sees at the stop; an empty text removes it.",
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'update_order_note',
        guide:
          "Replace an order's note, which dispatchers and the order's driver read on its stop; an empty text removes it.",
        idempotent: true,
      },
      access: WRITE,
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/orders/:order_id/note' },
      graphql: 'updateOrderNote',
      input: z.object({ order_id: id, note: z.string().max(2000) }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.changes.updateText(ctx, input.order_id, 'note', input.note),
      }),
    }),
    defineOperation({
      name: 'update_time_window_by_refs',
      summary: 'Set the delivery time window (and optionally the date) of orders named by reference',
      description:
        'Use it when a customer moves the slot of several orders at once: the orders that can change do, and each reference that cannot is listed in errors with the reason.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'update_time_window_by_refs',
        guide:
          'Set the delivery time window (and optionally the date) of orders named by reference; references that cannot change are reported, the others change.',
        idempotent: true,
      },
      access: WRITE,
      rest: { method: 'POST', path: '/v1/client/orders/time-window' },
      graphql: 'updateTimeWindowByRefs',
      input: z.object({
        order_refs: z.array(z.string().min(1).max(64)).min(1).max(100),
        time_window: timeWindowSchema,
        scheduled_date: calendarDate.optional(),
      }),
      output: z.object({
        result: z.boolean(),
        updated: z.int(),
        errors: z.array(z.object({ order_ref: z.string(), message: z.string() })),
      }),
      handler: (ctx, input) => orders.changes.updateTimeWindows(ctx, input),
    }),
    defineOperation({
      name: 'order_snapshot',
      summary: 'How many orders of a date are in each status',
      description:
        "A count of the business's orders of one date by status, for a quick view of a day's progress.",
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'order_snapshot',
        guide:
          'How many orders the business has in each status on a date. Use it for a quick overview of a day.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/orders/snapshot' },
      graphql: 'orderSnapshot',
      input: z.object({ date: calendarDate }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        total: z.int(),
        by_status: z.record(z.enum(ORDER_STATUSES), z.int()),
      }),
      handler: (ctx, input) => orders.queries.snapshot(ctx, input.date),
    }),
    defineOperation({
      name: 'list_exceptions',
      summary: 'Orders needing attention: failed, held, or past their date or window',
      description:
        'Use it to decide what to act on first: each order comes with the reason it needs attention.',
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_exceptions',
        guide:
          'Orders that need attention now: failed attempts, held orders and orders late against their window.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/orders/exceptions' },
      graphql: 'orderExceptions',
      input: z.object(pageParams),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        exceptions: z.array(z.object({ reason: z.enum(['failed', 'held', 'late']), order: orderSchema })),
      }),
      handler: async (ctx, input) =>
        orders.queries.exceptions(ctx, input, await accounts.timeZoneOf(ctx.db, callerOf(ctx).businessId)),
    }),
  ];
}
