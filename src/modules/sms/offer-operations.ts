import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { OrderHistory } from './order-history.ts';
import { redeemOfferCode } from './redemption.ts';
import { FEATURE, TAG } from './settings-operations.ts';

/** Business staff redeem codes (at the counter, at order creation): employees as well as admins. */
const STAFF_REDEEM = { kinds: STAFF, scopes: ['sms:write'] };

export function offerOperations(orders: Pick<OrderHistory, 'isOrderOf'>): Operation[] {
  return [
    defineOperation({
      name: 'redeem_sms_offer_code',
      summary: 'Redeem an offer code a campaign sent',
      description:
        'A code is good once, until its expiry; typed case- and space-insensitively. The answer names the campaign the code came with; what it is worth is for the business to decide. `order_id`, when given, must be an order of the business (404 otherwise) and is recorded with the redemption.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      feature: FEATURE,
      access: STAFF_REDEEM,
      errors: [
        'SMS_OFFER_CODE_NOT_FOUND',
        'SMS_OFFER_CODE_EXPIRED',
        'SMS_OFFER_CODE_REDEEMED',
        'ORDER_NOT_FOUND',
      ],
      rest: { method: 'POST', path: '/v1/sms/offer-codes/redeem' },
      graphql: 'redeemSmsOfferCode',
      input: z.object({
        code: z.string().trim().min(4).max(40),
        order_id: id.optional().describe('The order the code was redeemed for'),
      }),
      output: z.object({
        result: z.literal(true),
        redemption: z.object({
          campaign_id: z.int(),
          order_id: z.int().nullable(),
          redeemed_at: z.string(),
          expires_at: z.string(),
        }),
      }),
      handler: (ctx, input) => redeemOfferCode(ctx, input, orders),
    }),
  ];
}
