import { sql } from 'kysely';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Queryable } from '../../platform/db/database.ts';
import { yieldToEventLoop } from '../../platform/slices.ts';
import type { OrdersTables } from './tables.ts';

/** Orders read per statement; the event loop is let go between pages. */
const PAGE = 2000;

/**
 * The phones of a business's order recipients: the drop-off phone of each order, as typed,
 * normalised to E.164 in the region given (phones that do not parse as valid numbers there are
 * left out), and whether an order is the business's. A module that reaches people who ordered
 * reads them through its own port (the SMS module's `OrderHistory`, for its segments and
 * redemptions); the composition root hands this over.
 */
export class RecipientPhones {
  /** Whether the order is the business's own. */
  async isOrderOf(db: Queryable, businessId: number, orderId: number): Promise<boolean> {
    const found = await (db as Queryable<OrdersTables>)
      .selectFrom('orders')
      .select('id')
      .where('id', '=', orderId)
      .where('business_id', '=', businessId)
      .executeTakeFirst();
    return found !== undefined;
  }

  /** The recipients' phones of orders made ('ordered') or delivered ('delivered') since `since`. */
  async phonesSince(
    db: Queryable,
    businessId: number,
    region: string,
    since: Date,
    what: 'ordered' | 'delivered',
  ): Promise<string[]> {
    const orders = db as Queryable<OrdersTables>;
    const phones = new Set<string>();
    const parsed = new Map<string, string | undefined>();
    let after = 0;
    for (;;) {
      let query = orders
        .selectFrom('orders as o')
        .select(['o.id', sql<string | null>`o.dropoff ->> 'phone'`.as('phone')])
        .where('o.business_id', '=', businessId)
        .where('o.id', '>', after)
        .where(sql<boolean>`o.dropoff ->> 'phone' IS NOT NULL`);
      if (what === 'ordered') query = query.where('o.created_at', '>=', since);
      // Delivered since `since`: a status change to DELIVERED recorded since (the order was
      // updated then too, which narrows the scan).
      else
        query = query
          .where('o.updated_at', '>=', since)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('order_events as e')
                .select('e.id')
                .whereRef('e.order_id', '=', 'o.id')
                .where('e.at', '>=', since)
                .where(sql<boolean>`e.changes -> 'status' ->> 'to' = 'DELIVERED'`),
            ),
          );
      const rows = await query.orderBy('o.id').limit(PAGE).execute();
      for (const row of rows) {
        const raw = row.phone;
        if (!raw) continue;
        if (!parsed.has(raw)) {
          const number = parsePhoneNumberFromString(raw, region as CountryCode);
          parsed.set(raw, number?.isValid() ? number.number : undefined);
        }
        const phone = parsed.get(raw);
        if (phone) phones.add(phone);
      }
      if (rows.length < PAGE) return [...phones];
      after = rows[rows.length - 1]!.id;
      await yieldToEventLoop();
    }
  }
}
