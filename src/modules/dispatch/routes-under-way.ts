import type { Queryable } from '../../platform/db/database.ts';
import type { DispatchTables } from './tables.ts';

/** A route its driver is working now: started, with stops still to do. */
export interface RouteUnderWay {
  id: number;
  /** Its stops not yet done or failed (pending, or arrived at). */
  stopsLeft: number;
}

/**
 * The routes these drivers of the business are working now, by driver: started and not finished,
 * with a stop still pending or arrived at. A started route whose every stop is done or failed is
 * over in all but name (its driver has not finished it yet), so it keeps nobody busy. With
 * several, the one started first.
 */
export async function routesUnderWay(
  db: Queryable<DispatchTables>,
  businessId: number,
  driverIds: readonly number[],
): Promise<Map<number, RouteUnderWay>> {
  const found = new Map<number, RouteUnderWay>();
  if (driverIds.length === 0) return found;
  const rows = await db
    .selectFrom('routes as r')
    .innerJoin('route_stops as s', 's.route_id', 'r.id')
    .select(['r.id', 'r.driver_user_id', (eb) => eb.fn.countAll<string>().as('stops_left')])
    .where('r.business_id', '=', businessId)
    .where('r.status', '=', 'started')
    .where('r.driver_user_id', 'in', driverIds)
    .where('s.status', 'in', ['pending', 'arrived'])
    .groupBy(['r.id', 'r.driver_user_id', 'r.started_at'])
    .orderBy('r.started_at')
    .orderBy('r.id')
    .execute();
  for (const row of rows) {
    if (row.driver_user_id === null || found.has(row.driver_user_id)) continue;
    found.set(row.driver_user_id, { id: row.id, stopsLeft: Number(row.stops_left) });
  }
  return found;
}
