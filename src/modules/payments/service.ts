import { createHash } from 'node:crypto';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { toMajor, toMinor } from '../../platform/money.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import type { OrdersService } from '../orders/index.ts';
import type { PricingService } from '../pricing/index.ts';
import type { PaymentProvider } from './provider.ts';
import * as repo from './repository.ts';

/** Online payment of orders (a label is a label-service order) and customers' account credits. */
export class PaymentsService {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly pricing: PricingService,
    private readonly provider: PaymentProvider,
  ) {}

  /**
   * Pays an order by card or from the customer's credits. A family whose prices the business
   * hides from this customer is settled offline: 403 PRICE_HIDDEN_SETTLE_OFFLINE.
   */
  async payOrder(
    ctx: OperationContext,
    input: { order_id: number; method: 'card' | 'credits'; card_token?: string },
  ) {
    const caller = callerOf(ctx);
    const order = await this.orders.queries.amountDue(ctx, input.order_id);
    if (
      caller.kind === 'customer' &&
      (await this.pricing.isHidden(ctx.db, order.businessId, caller.userId, order.family))
    ) {
      throw new AppError('PRICE_HIDDEN_SETTLE_OFFLINE', { params: { family: order.family } });
    }
    if (!order.due || order.due.minor <= 0)
      throw new AppError('NOTHING_TO_PAY', { params: { order: order.orderId } });
    // Payments of one order take turns: a second one waits, then finds the first and charges nothing.
    await repo.lockPaymentsOf(ctx.db, order.orderId);
    if (await repo.succeededPaymentOf(ctx.db, order.businessId, order.orderId)) {
      throw new AppError('ORDER_ALREADY_PAID', { params: { order: order.orderId } });
    }
    const { currency, minor } = order.due;
    const payer = order.customerUserId;
    let status: 'succeeded' | 'declined';
    let reference: string;
    if (input.method === 'credits') {
      if (payer === null || (caller.kind === 'customer' && payer !== caller.userId)) {
        throw new AppError('INSUFFICIENT_CREDIT', { params: { currency } });
      }
      const balance = await repo.creditBalance(ctx.db, order.businessId, payer, currency);
      if (balance < minor) throw new AppError('INSUFFICIENT_CREDIT', { params: { currency } });
      status = 'succeeded';
      reference = `credits:${payer}`;
    } else {
      if (!input.card_token) throw new AppError('CARD_TOKEN_REQUIRED');
      const charge = {
        amountMinor: minor,
        currency,
        cardToken: input.card_token,
        reference: `order:${order.orderId}`,
        // The same order and card make the same request: a client retrying after a lost answer
        // gets the first outcome, while another card is another charge.
        idempotencyKey: `order:${order.orderId}:card:${createHash('sha256').update(input.card_token).digest('base64url')}`,
      };
      ({ status, reference } = await ctx.outside.perform(
        {
          kind: 'payment',
          description: `charge ${toMajor(minor, currency)} ${currency} to the card through ${this.provider.name}`,
        },
        () => this.provider.charge(charge),
        () => ({ status: 'succeeded', reference: 'dry-run' }),
      ));
    }
    // A declined charge changes nothing here: the provider keeps its own record of the attempt.
    if (status === 'declined') throw new AppError('PAYMENT_DECLINED');
    const now = this.clock.now();
    const paymentId = await repo.insertPayment(ctx.db, {
      business_id: order.businessId,
      order_id: order.orderId,
      payer_user_id: caller.userId,
      amount_minor: minor,
      currency,
      method: input.method,
      provider: input.method === 'credits' ? 'credits' : this.provider.name,
      provider_reference: reference,
      status,
      created_at: now,
    });
    if (input.method === 'credits') {
      await repo.insertCredit(ctx.db, {
        business_id: order.businessId,
        customer_user_id: payer!,
        amount_minor: -minor,
        currency,
        reason: `Payment of order ${order.orderId}`,
        payment_id: paymentId,
        created_at: now,
      });
    }
    return {
      result: true as const,
      payment: {
        id: paymentId,
        order_id: order.orderId,
        family: order.family,
        method: input.method,
        status,
        reference,
        amount: toMajor(minor, currency),
        currency,
        created_at: now.toISOString(),
      },
    };
  }

  /** A customer's credit balance per currency and a page of its ledger, newest first. */
  async credits(ctx: OperationContext, query: CursorPageQuery) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const ledger = await repo.ledgerOf(ctx.db, businessId, caller.userId, cursorWindow(query));
    const balances = await repo.balancesOf(ctx.db, businessId, caller.userId);
    return {
      result: true as const,
      balances: balances.map(({ currency, minor }) => ({ currency, balance: toMajor(minor, currency) })),
      ...cursorEnvelopeOf(query, ledger),
      ledger: ledger.rows.map((entry) => ({
        id: entry.id,
        amount: toMajor(entry.amount_minor, entry.currency),
        currency: entry.currency,
        reason: entry.reason,
        payment_id: entry.payment_id,
        created_at: entry.created_at.toISOString(),
      })),
    };
  }

  /** Client admins credit (or debit, with a negative amount) a customer's account. */
  async addCredit(
    ctx: OperationContext,
    input: { customer_id: number; amount: number | string; currency: string; reason: string },
  ) {
    const businessId = businessOf(ctx);
    const minor = toMinor(input.amount, input.currency);
    if (minor === null)
      throw new AppError('AMOUNT_TOO_PRECISE', {
        params: { amount: input.amount, currency: input.currency },
      });
    const id = await repo.insertCredit(ctx.db, {
      business_id: businessId,
      customer_user_id: input.customer_id,
      amount_minor: minor,
      currency: input.currency,
      reason: input.reason,
      payment_id: null,
      created_at: this.clock.now(),
    });
    const balance = await repo.creditBalance(ctx.db, businessId, input.customer_id, input.currency);
    return {
      result: true as const,
      entry_id: id,
      balance: toMajor(balance, input.currency),
      currency: input.currency,
    };
  }
}
