import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { hashOfferCode } from './offers.ts';
import type { OrderHistory } from './order-history.ts';
import type { SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;

/**
 * Redeems an offer code of the caller's business, once. The discount itself is the business's
 * affair: the answer names the campaign the code came with, and the redemption counts in that
 * campaign's report.
 */
export async function redeemOfferCode(
  ctx: OperationContext,
  input: { code: string; order_id?: number },
  orders: Pick<OrderHistory, 'isOrderOf'>,
) {
  const db = ctx.db as Db;
  const businessId = businessOf(ctx);
  // An order named must be one of the business's: the redemption is reconciled against it.
  if (input.order_id !== undefined && !(await orders.isOrderOf(ctx.db, businessId, input.order_id)))
    throw new AppError('ORDER_NOT_FOUND', { params: { order: input.order_id } });
  const codeHash = hashOfferCode(input.code);
  const now = ctx.clock.now();
  // One conditional update: of concurrent redemptions of a code exactly one finds it unredeemed.
  const redeemed = await db
    .updateTable('sms_offer_codes')
    .set({ redeemed_at: now, redeemed_order_id: input.order_id ?? null })
    .where('business_id', '=', businessId)
    .where('code_hash', '=', codeHash)
    .where('redeemed_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['campaign_id', 'redeemed_at', 'redeemed_order_id', 'expires_at'])
    .executeTakeFirst();
  if (redeemed) return { result: true as const, redemption: view(redeemed) };
  const code = await db
    .selectFrom('sms_offer_codes')
    .select(['redeemed_at', 'redeemed_order_id', 'expires_at'])
    .where('business_id', '=', businessId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  if (!code) throw new AppError('SMS_OFFER_CODE_NOT_FOUND');
  if (code.redeemed_at) {
    const redeemedAt = code.redeemed_at.toISOString();
    throw new AppError('SMS_OFFER_CODE_REDEEMED', {
      params: { redeemed_at: redeemedAt },
      details: { redeemed_at: redeemedAt, order_id: code.redeemed_order_id },
    });
  }
  const expiresAt = code.expires_at.toISOString();
  throw new AppError('SMS_OFFER_CODE_EXPIRED', {
    params: { expires_at: expiresAt },
    details: { expires_at: expiresAt },
  });
}

function view(row: {
  campaign_id: number;
  redeemed_at: Date | null;
  redeemed_order_id: number | null;
  expires_at: Date;
}) {
  return {
    campaign_id: row.campaign_id,
    order_id: row.redeemed_order_id,
    redeemed_at: (row.redeemed_at as Date).toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
