import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import * as repo from './repository.ts';
import { ledgerView } from './views.ts';

/**
 * Reads of the ledger of handlings. Rows are only ever appended (by the flows that handle a
 * compartment), and the table refuses UPDATE, DELETE and TRUNCATE by trigger.
 */
export class LockerLedger {
  async list(
    ctx: OperationContext,
    query: {
      site_id?: number;
      compartment_id?: number;
      booking_id?: number;
      order_id?: number;
    } & CursorPageQuery,
  ) {
    const page = await repo.ledgerPage(
      ctx.db,
      businessOf(ctx),
      {
        ...(query.site_id !== undefined ? { siteId: query.site_id } : {}),
        ...(query.compartment_id !== undefined ? { compartmentId: query.compartment_id } : {}),
        ...(query.booking_id !== undefined ? { bookingId: query.booking_id } : {}),
        ...(query.order_id !== undefined ? { orderId: query.order_id } : {}),
      },
      cursorWindow(query),
    );
    return { result: true as const, ...cursorEnvelopeOf(query, page), entries: page.rows.map(ledgerView) };
  }
}
