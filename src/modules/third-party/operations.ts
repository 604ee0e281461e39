import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { ThirdPartyConnections } from './connections.ts';
import type { ThirdPartyIntake } from './intake.ts';
import { connectionInput, connectionSchema, providerOrderSchema, pullResultSchema } from './schemas.ts';
import { THIRD_PARTY_STATES } from './tables.ts';

const TAG = 'ThirdPartyDelivery';
const READ = { kinds: STAFF, scopes: ['orders:read'] };
const DISPATCH = { kinds: STAFF, scopes: ['orders:write'] };
// Connections hold a provider's credential: only the business's admins set them up.
const ADMIN = { kinds: ['client_admin'] as const, scopes: ['orders:write'] };

const connectionAnswer = z.object({ result: z.literal(true), connection: connectionSchema });
const orderAnswer = z.object({ result: z.literal(true), provider_order: providerOrderSchema });
const DECISION_ERRORS = [
  'THIRD_PARTY_ORDER_NOT_FOUND',
  'THIRD_PARTY_ORDER_DECIDED',
  'THIRD_PARTY_DEADLINE_PASSED',
  'THIRD_PARTY_PROVIDER_FAILED',
] as const;

export function thirdPartyOperations(
  connections: ThirdPartyConnections,
  intake: ThirdPartyIntake,
): Operation[] {
  return [
    defineOperation({
      name: 'create_third_party_connection',
      summary: 'Connect a third-party delivery provider',
      description:
        'A marketplace or delivery platform that hands orders to the fleet: its URL, credential (sealed at rest, shown as a hint) and a field mapping of JSON pointers. Its orders are pulled every `poll_seconds`; `push_token` (shown once) lets the provider push them to `push_url`. With `rules` orders are accepted or rejected as they arrive; without, a dispatcher decides.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN,
      errors: ['THIRD_PARTY_URL_REFUSED', 'THIRD_PARTY_ADAPTER_UNKNOWN'],
      rest: { method: 'POST', path: '/v1/third-party/connections' },
      graphql: 'createThirdPartyConnection',
      input: z.object(connectionInput),
      output: z.object({
        result: z.literal(true),
        connection: connectionSchema,
        push_token: z.string().describe('Shown here only: what the provider sends with its pushes'),
      }),
      handler: (ctx, input) => connections.create(ctx, input),
    }),
    defineOperation({
      name: 'list_third_party_connections',
      summary: 'Third-party delivery connections and their health',
      description:
        'Each connection with its last success, last error and failures in a row (a down provider is pulled less and less often, at most 30 minutes apart).',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/third-party/connections' },
      graphql: 'thirdPartyConnections',
      input: z.object({}),
      output: z.object({ result: z.literal(true), connections: z.array(connectionSchema) }),
      handler: (ctx) => connections.list(ctx),
    }),
    defineOperation({
      name: 'get_third_party_connection',
      summary: 'One third-party delivery connection',
      description: 'As `list_third_party_connections` shows each one.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['THIRD_PARTY_CONNECTION_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/third-party/connections/:connection_id' },
      graphql: 'thirdPartyConnection',
      input: z.object({ connection_id: id }),
      output: connectionAnswer,
      handler: (ctx, input) => connections.get(ctx, input.connection_id),
    }),
    defineOperation({
      name: 'update_third_party_connection',
      summary: 'Change a third-party delivery connection',
      description:
        'Any field of the connection; a new `credential` replaces the sealed one. `cursor: null` pulls from the start again. A change pulls at once and forgets the backoff.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN,
      errors: ['THIRD_PARTY_CONNECTION_NOT_FOUND', 'THIRD_PARTY_URL_REFUSED', 'THIRD_PARTY_ADAPTER_UNKNOWN'],
      rest: { method: 'PATCH', path: '/v1/third-party/connections/:connection_id' },
      graphql: 'updateThirdPartyConnection',
      input: z.object({
        connection_id: id,
        name: connectionInput.name.optional(),
        adapter: z.string().trim().min(1).max(40).optional(),
        base_url: connectionInput.base_url.optional(),
        credential: connectionInput.credential,
        mapping: connectionInput.mapping.optional(),
        family: connectionInput.family.unwrap().optional(),
        rules: connectionInput.rules.unwrap().nullable().optional(),
        poll_seconds: z.int().min(5).max(86_400).optional(),
        active: z.boolean().optional(),
        cursor: z.string().max(500).nullable().optional(),
      }),
      output: connectionAnswer,
      handler: (ctx, { connection_id, ...changes }) => connections.update(ctx, connection_id, changes),
    }),
    defineOperation({
      name: 'delete_third_party_connection',
      summary: 'Remove a third-party delivery connection',
      description:
        'Its provider orders and their unsent status changes go with it; local orders made from them stay.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN,
      errors: ['THIRD_PARTY_CONNECTION_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/third-party/connections/:connection_id' },
      graphql: 'deleteThirdPartyConnection',
      input: z.object({ connection_id: id }),
      output: z.object({ result: z.literal(true) }),
      handler: (ctx, input) => connections.remove(ctx, input.connection_id),
    }),
    defineOperation({
      name: 'pull_third_party_orders',
      summary: "Pull a provider's new orders now",
      description:
        'What the background loop does every `poll_seconds`, at once: new orders from the cursor, then the rules on pending ones. A failing provider is reported in `failed` and on the connection, not as an error.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DISPATCH,
      errors: ['THIRD_PARTY_CONNECTION_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/third-party/connections/:connection_id/pull' },
      graphql: 'pullThirdPartyOrders',
      input: z.object({ connection_id: id }),
      output: pullResultSchema.extend({ result: z.literal(true), failed: z.string().nullable() }),
      handler: (ctx, input) => intake.pullNow(ctx, input.connection_id),
    }),
    defineOperation({
      name: 'push_third_party_orders',
      summary: 'A provider pushes new orders',
      description:
        "Called by the provider, not by people: the connection's `push_token` and its orders in the provider's own shape (read through the connection's mapping). An order already known is not taken twice.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['THIRD_PARTY_PUSH_REFUSED'],
      rest: { method: 'POST', path: '/v1/third-party/connections/:connection_id/push' },
      input: z.object({
        connection_id: id,
        token: z.string().min(1).max(200),
        orders: z.array(z.record(z.string(), z.unknown())).max(100),
      }),
      output: pullResultSchema.extend({ result: z.literal(true) }),
      handler: (ctx, input) => intake.receivePush(ctx, input.connection_id, input.token, input.orders),
    }),
    defineOperation({
      name: 'list_third_party_orders',
      summary: 'Third-party provider orders',
      description:
        'Newest first, by connection or state (pending ones show their `accept_by` deadline), with the local order each accepted one became.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_third_party_orders',
        guide: 'Orders from delivery providers: state, deadline, local order id.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/third-party/orders' },
      graphql: 'thirdPartyOrders',
      input: z.object({
        connection_id: id.optional(),
        state: z.enum(THIRD_PARTY_STATES).optional(),
        ...cursorPageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        provider_orders: z.array(providerOrderSchema),
      }),
      handler: (ctx, input) => intake.list(ctx, input),
    }),
    defineOperation({
      name: 'get_third_party_order',
      summary: 'One provider order and the status changes sent back',
      description:
        'With each status change of its local order: its sequence number, when it reached the provider, tries and last error.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['THIRD_PARTY_ORDER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/third-party/orders/:provider_order_id' },
      graphql: 'thirdPartyOrder',
      input: z.object({ provider_order_id: id.describe('Our id of the provider order') }),
      output: orderAnswer.extend({
        status_pushes: z.array(
          z.object({
            sequence: z.int(),
            status: z.string(),
            at: z.string(),
            sent_at: z.string().nullable(),
            attempts: z.int(),
            last_error: z.string().nullable(),
          }),
        ),
      }),
      handler: (ctx, input) => intake.get(ctx, input.provider_order_id),
    }),
    defineOperation({
      name: 'accept_third_party_order',
      summary: 'Accept a provider order for the fleet',
      description:
        'Tells the provider, then creates the local order. Refused after the `accept_by` deadline (409 THIRD_PARTY_DEADLINE_PASSED) or once decided; a provider that refuses or is down leaves it pending (502).',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: DISPATCH,
      errors: DECISION_ERRORS,
      rest: { method: 'POST', path: '/v1/third-party/orders/:provider_order_id/accept' },
      graphql: 'acceptThirdPartyOrder',
      input: z.object({ provider_order_id: id }),
      output: orderAnswer,
      handler: (ctx, input) => intake.acceptByDispatcher(ctx, input.provider_order_id),
    }),
    defineOperation({
      name: 'reject_third_party_order',
      summary: 'Turn down a provider order',
      description: 'Tells the provider with the reason, before the `accept_by` deadline.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: DISPATCH,
      errors: DECISION_ERRORS,
      rest: { method: 'POST', path: '/v1/third-party/orders/:provider_order_id/reject' },
      graphql: 'rejectThirdPartyOrder',
      input: z.object({ provider_order_id: id, reason: z.string().trim().min(1).max(500) }),
      output: orderAnswer,
      handler: (ctx, input) => intake.rejectByDispatcher(ctx, input.provider_order_id, input.reason),
    }),
  ];
}
