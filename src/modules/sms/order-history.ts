import type { Queryable } from '../../platform/db/database.ts';

/**
 * The orders a business's subscribers made, as segments need them (docs/sms-marketing.md,
 * "Segments"). The orders module answers it from its own tables (orders keep their recipients'
 * phones as typed); a subscriber matches an order when the order's recipient phone, normalised
 * to E.164 in the business's SMS region, is the subscriber's.
 */
export interface OrderHistory {
  /**
   * The E.164 phones of the business's order recipients with an order made since `since`
   * ('ordered'), or delivered since then ('delivered').
   */
  phonesSince(
    db: Queryable,
    businessId: number,
    region: string,
    since: Date,
    what: 'ordered' | 'delivered',
  ): Promise<string[]>;
  /** Whether this order is the business's own (a redemption names one). */
  isOrderOf(db: Queryable, businessId: number, orderId: number): Promise<boolean>;
}
