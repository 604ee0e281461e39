import { z } from 'zod';
import { withoutUnknownFields } from '../../platform/catalog/input-checks.ts';
import { callerOf, defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import {
  addressSchema,
  alliedBusinessParam,
  calendarDate,
  idParam as id,
  timeWindowSchema,
} from '../../platform/schemas.ts';
import type { AccountsService } from '../accounts/index.ts';
import { locationOperations, orderWarningSchema } from './location-operations.ts';
import { bulkOrderSchema, orderInputSchema, orderSchema } from './schemas.ts';
import type { OrdersService } from './service.ts';
import { ORDER_STATUSES, PROGRESS_STATUSES } from './statuses.ts';

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

/**
 * The vocabulary of the tracking protocol that order inputs use. It is the tracking module's, and
 * tracking depends on orders: the composition root hands it over, so orders need not import it.
 */
export interface TrackingVocabulary {
  incidentReasons: readonly [string, ...string[]];
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
      errors: ['ORDER_REF_TAKEN', 'CUSTOMER_NOT_FOUND', 'AMOUNT_TOO_PRECISE'],
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
      description: 'A contractor sees the orders inside its rules only; a customer its own orders.',
      tag: 'Client',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        user: 'get_orders',
        guide:
          "List the business's orders, newest first, filtered by status (a list), scheduled date, reference, tracking number, route or driver; paged. Use it to browse; to fetch one order by reference or tracking number use find_order.",
        idempotent: true,
      },
      access: SHARED_READ,
      errors: ['BUSINESS_REQUIRED', 'CLIENT_NOT_ACCESSIBLE'],
      rest: { method: 'GET', path: '/v1/client/orders' },
      graphql: 'orders',
      input: z.object({
        status: z
          .array(z.enum(ORDER_STATUSES))
          .max(ORDER_STATUSES.length)
          .optional()
          .describe(
            'Orders in any of these statuses (over REST: comma-separated, or the parameter repeated)',
          ),
        scheduled_date: calendarDate.optional(),
        order_ref: z.string().max(64).optional(),
        tracking_number: z.string().max(64).optional(),
        route_id: id.optional(),
        driver_id: id.optional().describe('Orders planned with this driver'),
        business_id: alliedBusinessParam,
        ...pageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
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
      input: z.object({ limit: z.int().min(1).max(200).default(100) }),
      output: z.object({
        result: z.literal(true),
        exceptions: z.array(z.object({ reason: z.enum(['failed', 'held', 'late']), order: orderSchema })),
      }),
      handler: async (ctx, input) =>
        orders.queries.exceptions(ctx, input, await accounts.timeZoneOf(ctx.db, callerOf(ctx).businessId)),
    }),
    defineOperation({
      name: 'get_operation_events',
      summary: 'The audit trail of orders: every change with actor, time, source and before/after values',
      description:
        'Name orders by ids or references: every change made to them, through any door, with the action, the actor and the fields before and after. Use it to explain how an order got to its state.',
      tag: 'Tracking',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_operation_events',
        user: 'get_operation_events',
        guide:
          'The audit trail of orders (who changed what, when, through which door), by order ids or references. Use it to explain how an order got to its state.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'POST', path: '/v1/tracking/operationevents' },
      graphql: 'trackingOperationevents',
      input: z
        .object({
          order_ids: z.array(z.int().positive()).max(100).optional(),
          order_refs: z.array(z.string().min(1).max(64)).max(100).optional(),
        })
        .refine((by) => by.order_ids?.length || by.order_refs?.length, {
          ...fieldMessage('at_least_one_of', { fields: 'order_ids, order_refs' }),
          path: ['order_ids'],
        }),
      output: z.object({
        result: z.literal(true),
        events: z.array(
          z.object({
            order_id: z.int(),
            order_ref: z.string(),
            at: z.string(),
            actor: z.object({ id: z.int(), name: z.string() }).nullable(),
            source: z.string(),
            action: z.string(),
            changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
          }),
        ),
      }),
      handler: (ctx, input) => orders.queries.operationEvents(ctx, input),
    }),
  ];
}

/** The lifecycle moves, one operation each; the transition table decides what is allowed. */
const returnReason = z.object({
  code: z.string(),
  label: z
    .string()
    .describe("In the caller's language when the business wrote it, else English or the first"),
  labels: z.record(z.string(), z.string()),
  photo_required: z.boolean(),
});

/** The business's return reasons: what a driver or dispatcher names when an order comes back. */
function returnReasonOperations(orders: OrdersService): Operation[] {
  return [
    defineOperation({
      name: 'list_return_reasons',
      summary: "The business's return reasons, with their labels and whether a photo is needed",
      description:
        "Read it before setting an order to RETURNED: once the list holds a reason, a return must name one of its codes. Each label is in the caller's language when written in it.",
      tag: 'ReturnReasons',
      kind: 'query',
      risk: 'low',
      access: { kinds: [...STAFF, 'driver'], scopes: ['orders:read'] },
      rest: { method: 'GET', path: '/v1/client/return-reasons' },
      graphql: 'returnReasons',
      input: z.object({}),
      output: z.object({ result: z.literal(true), reasons: z.array(returnReason) }),
      handler: (ctx) => orders.returns.list(ctx),
    }),
    defineOperation({
      name: 'save_return_reason',
      summary: 'Add a return reason, or change one, by its code',
      description:
        'Creates the reason under its code, or replaces its labels and photo requirement. From the first reason on, every return must name one.',
      tag: 'ReturnReasons',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      rest: { method: 'PUT', path: '/v1/client/return-reasons/:code' },
      graphql: 'saveReturnReason',
      input: z.object({
        code: z
          .string()
          .regex(/^[a-z0-9][a-z0-9_-]{1,62}$/, fieldMessage('app_code'))
          .describe('2 to 63 lower-case letters, digits, - and _'),
        labels: z
          .partialRecord(z.enum(LANGUAGES), z.string().trim().min(1).max(100))
          .refine(
            (labels) => Object.keys(labels).length > 0,
            fieldMessage('at_least_one_of', { fields: 'labels' }),
          )
          .describe('The label in each language: {"en": "Refused by the recipient", "fr": "..."}'),
        photo_required: z.boolean().default(false),
      }),
      output: z.object({ result: z.literal(true), reason: returnReason }),
      handler: (ctx, input) =>
        orders.returns.save(
          ctx,
          input as { code: string; labels: Record<string, string>; photo_required: boolean },
        ),
    }),
    defineOperation({
      name: 'delete_return_reason',
      summary: 'Remove a return reason',
      description:
        'Orders already returned keep the reason they were given. When the last reason goes, orders are returned freely again.',
      tag: 'ReturnReasons',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      errors: ['RETURN_REASON_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/return-reasons/:code' },
      graphql: 'deleteReturnReason',
      input: z.object({ code: z.string().max(63) }),
      output: z.object({ result: z.literal(true), deleted: z.string() }),
      handler: (ctx, input) => orders.returns.remove(ctx, input.code),
    }),
  ];
}

function statusOperations(orders: OrdersService, tracking: TrackingVocabulary): Operation[] {
  const move = (
    name: string,
    summary: string,
    description: string,
    path: string,
    to: 'CANCELLED' | 'HOLD' | 'NEW_ORDER',
    risk: 'high',
    graphql: string,
    guide: string,
  ) =>
    defineOperation({
      name,
      summary,
      description,
      tag: 'Client',
      kind: 'mutation',
      risk,
      // Cancelling twice is refused; holding or releasing again leaves the order as it is.
      tool: { user: name, guide, idempotent: to !== 'CANCELLED' },
      confirm: true,
      access: WRITE,
      errors: ['ORDER_NOT_FOUND', 'ILLEGAL_STATUS_TRANSITION'],
      rest: { method: 'POST', path: `/v1/client/orders/:order_id/${path}` },
      graphql,
      input: z.object({ order_id: id }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.changes.changeStatus(ctx, input.order_id, to),
      }),
    });
  return [
    move(
      'cancel_order',
      'Cancel an order that is not delivered yet',
      'Any order not yet DELIVERED, RETURNED or CANCELLED: it leaves its route and goes no further. High risk: an agent token must confirm it.',
      'cancel',
      'CANCELLED',
      'high',
      'cancelOrder',
      'Cancel an order that is not delivered yet; it leaves any route. High risk: call with confirm=true (without it you get a preview), or propose it for approval.',
    ),
    move(
      'hold_order',
      'Keep an order out of dispatch until it is released',
      'The order goes to HOLD and leaves its route; route building skips it until release_order. High risk: an agent token must confirm it.',
      'hold',
      'HOLD',
      'high',
      'holdOrder',
      'Keep an order out of dispatch (status HOLD) until release_order; it leaves its route.',
    ),
    move(
      'release_order',
      'Release a held order back to NEW_ORDER',
      'Use it on an order in HOLD: it goes back to NEW_ORDER, so route building may plan it again. High risk: an agent token must confirm it.',
      'release',
      'NEW_ORDER',
      'high',
      'releaseOrder',
      'Release a held order back to NEW_ORDER so it can be planned again.',
    ),
    defineOperation({
      name: 'update_order_status',
      summary:
        'Record progress of an order: picked up, at warehouse, out for delivery, delivered, failed, returned',
      description:
        "Moves an order along its lifecycle by the allowed transitions only, with proof of delivery or an incident reason carried into its tracking timeline. RETURNED needs one of the business's return reasons once it has any.",
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['ORDER_NOT_FOUND', 'ILLEGAL_STATUS_TRANSITION', 'PROOF_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/orders/:order_id/status' },
      graphql: 'updateOrderStatus',
      input: z.object({
        order_id: id,
        status: z.enum(PROGRESS_STATUSES),
        proof_of_delivery: z
          .object({
            recipient: z.string().trim().max(200).optional(),
            signature_url: z
              .url({ protocol: /^https$/ })
              .max(2000)
              .optional(),
            photo_urls: z
              .array(z.url({ protocol: /^https$/ }).max(2000))
              .max(10)
              .optional(),
            signature_proof_id: id
              .optional()
              .describe('A signature uploaded for this order (upload_proof, kind=signature)'),
            photo_proof_ids: z
              .array(id)
              .max(10)
              .optional()
              .describe('Photos uploaded for this order (upload_proof, kind=photo)'),
            note: z.string().max(500).optional(),
          })
          .optional()
          .describe(
            'With PICKED_UP or DELIVERED: who took it, signature and photos; goes into the tracking timeline. ' +
              'Uploaded proof files are shown on the public tracking page once the parcel is delivered',
          ),
        incident_reason: z
          .object({ code: z.enum(tracking.incidentReasons), message: z.string().max(500).optional() })
          .optional()
          .describe('With FAILED_ATTEMPT: why; goes into the tracking timeline'),
        return_reason: z
          .object({ code: z.string().trim().min(1).max(63), note: z.string().max(500).optional() })
          .optional()
          .describe("With RETURNED: one of the business's return reasons (required once it keeps a list)"),
      }),
      output: orderResult,
      handler: async (ctx, input) => ({
        result: true as const,
        order: await orders.changes.changeStatus(ctx, input.order_id, input.status, {
          pod: input.proof_of_delivery,
          incident_reason: input.incident_reason,
          return_reason: input.return_reason,
        }),
      }),
    }),
  ];
}
