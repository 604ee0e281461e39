import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { orderSchema } from './schemas.ts';
import type { OrdersService } from './service.ts';
import { PROGRESS_STATUSES } from './statuses.ts';

const WRITE = { kinds: STAFF, scopes: ['orders:write'] };
const orderResult = z.object({ result: z.literal(true), order: orderSchema });

/**
 * The vocabulary of the tracking protocol that order inputs use. It is the tracking module's, and
 * tracking depends on orders: the composition root hands it over, so orders need not import it.
 */
export interface TrackingVocabulary {
  incidentReasons: readonly [string, ...string[]];
}

/** The lifecycle moves, one operation each; the transition table decides what is allowed. */
export function statusOperations(orders: OrdersService, tracking: TrackingVocabulary): Operation[] {
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
      errors: [
        'ORDER_NOT_FOUND',
        'ILLEGAL_STATUS_TRANSITION',
        'PROOF_NOT_FOUND',
        'RETURN_REASON_REQUIRED',
        'RETURN_REASON_NOT_FOUND',
        'RETURN_PHOTO_REQUIRED',
      ],
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
