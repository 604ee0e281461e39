import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { amountInput, currencyCode, idParam } from '../../platform/schemas.ts';
import type { PaymentsService } from './service.ts';

export function paymentsOperations(payments: PaymentsService): Operation[] {
  return [
    defineOperation({
      name: 'pay_order',
      summary:
        'Pay an order (or a label, which is a label-service order) online, by card or from account credits',
      description:
        "The amount is the order's shipping price, surcharges and tax. A customer pays its own orders. A family whose " +
        'prices the business hides from the customer is settled offline: 403 PRICE_HIDDEN_SETTLE_OFFLINE. ' +
        'The built-in test provider declines the card token `tok_decline` and accepts any other.',
      tag: 'Payments',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: { kinds: [...STAFF, 'customer'], scopes: ['orders:write'] },
      errors: [
        'ORDER_NOT_FOUND',
        'PRICE_HIDDEN_SETTLE_OFFLINE',
        'NOTHING_TO_PAY',
        'ORDER_ALREADY_PAID',
        'PAYMENT_DECLINED',
        'INSUFFICIENT_CREDIT',
        'CARD_TOKEN_REQUIRED',
      ],
      rest: { method: 'POST', path: '/v1/payments/orders/:order_id' },
      graphql: 'payOrder',
      input: z.object({
        order_id: idParam,
        method: z.enum(['card', 'credits']),
        card_token: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("The payment provider's token of the card"),
      }),
      output: z.object({
        result: z.literal(true),
        payment: z.object({
          id: z.int(),
          order_id: z.int(),
          family: z.string(),
          method: z.enum(['card', 'credits']),
          status: z.literal('succeeded'),
          reference: z.string(),
          amount: z.number().optional(),
          currency: z.string().optional(),
          created_at: z.string(),
        }),
      }),
      handler: (ctx, input) => payments.payOrder(ctx, input),
    }),
    defineOperation({
      name: 'get_account_credits',
      summary: "The signed-in customer's credit balance per currency and its latest ledger entries",
      description:
        'For customer accounts: the balance per currency, and the ledger entries, credits and payments alike, newest first a page at a time. Credits are always shown, even where prices are hidden.',
      tag: 'Customer',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_account_credits',
        guide: "A customer account's credit balance and ledger entries (customer accounts only).",
        idempotent: true,
      },
      access: { kinds: ['customer'], scopes: ['analytics:read'] },
      rest: { method: 'GET', path: '/v1/customer/credits' },
      graphql: 'accountCredits',
      input: z.object(cursorPageParams),
      output: z.object({
        result: z.literal(true),
        balances: z.array(z.object({ currency: z.string(), balance: z.number() })),
        ...cursorPageEnvelope,
        ledger: z.array(
          z.object({
            id: z.int(),
            amount: z.number(),
            currency: z.string(),
            reason: z.string(),
            payment_id: z.int().nullable(),
            created_at: z.string(),
          }),
        ),
      }),
      handler: (ctx, input) => payments.credits(ctx, input),
    }),
    defineOperation({
      name: 'add_account_credit',
      summary: "Credit a customer's account (a negative amount debits it)",
      description:
        "The entry is kept in the customer's ledger with its reason; the customer may pay orders from the balance (pay_order with method credits). High risk: an agent token must confirm it.",
      tag: 'Payments',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: { kinds: ['client_admin'], scopes: ['orders:write'], customer: 'customer_id' },
      errors: ['CUSTOMER_NOT_FOUND', 'AMOUNT_TOO_PRECISE'],
      rest: { method: 'POST', path: '/v1/client/customers/:customer_id/credits' },
      graphql: 'addAccountCredit',
      input: z.object({
        customer_id: idParam,
        amount: amountInput.refine((amount) => Number(amount) !== 0, fieldMessage('not_zero')),
        currency: currencyCode,
        reason: z.string().trim().min(1).max(200),
      }),
      output: z.object({
        result: z.literal(true),
        entry_id: z.int(),
        balance: z.number(),
        currency: z.string(),
      }),
      handler: (ctx, input) => payments.addCredit(ctx, input),
    }),
  ];
}
