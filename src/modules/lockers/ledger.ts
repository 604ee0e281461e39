import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import * as repo from './repository.ts';
import { ledgerView } from './views.ts';

/**
 * Reads of the ledger of handlings. Rows are only ever appended (by the flows that handle a
 * compartment), and the table refuses UPDATE, DELETE and TRUNCATE by trigger.
 */
export class LockerLedger {
  async list(
    ctx: OperationContext,
    filter: {
      site_id?: number;
      compartment_id?: number;
      booking_id?: number;
      order_id?: number;
      after_id: number;
      limit: number;
    },
  ) {
    const rows = await repo.ledgerVisibleTo(ctx.db, businessOf(ctx), {
      ...(filter.site_id !== undefined ? { siteId: filter.site_id } : {}),
      ...(filter.compartment_id !== undefined ? { compartmentId: filter.compartment_id } : {}),
      ...(filter.booking_id !== undefined ? { bookingId: filter.booking_id } : {}),
      ...(filter.order_id !== undefined ? { orderId: filter.order_id } : {}),
      afterId: filter.after_id,
      limit: filter.limit,
    });
    return { result: true as const, entries: rows.map(ledgerView) };
  }
}
