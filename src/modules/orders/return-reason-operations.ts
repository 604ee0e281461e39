import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import type { OrdersService } from './service.ts';

const returnReason = z.object({
  code: z.string(),
  label: z
    .string()
    .describe("In the caller's language when the business wrote it, else English or the first"),
  labels: z.record(z.string(), z.string()),
  photo_required: z.boolean(),
});

/** The business's return reasons: what a driver or dispatcher names when an order comes back. */
export function returnReasonOperations(orders: OrdersService): Operation[] {
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
