import { sql } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import { updateRoute } from './edits-repository.ts';
import type { DispatchTables, LockerPlace } from './tables.ts';

// SQL of the stops a locker changes: an order's open stops with their routes, a delivery sent to a
// locker site (or back to its door) on a route not timed for anyone, stops closed by the locker.

type Db = Queryable<DispatchTables>;

/**
 * The order's stops still open (pending, or arrived at), with their route's driver and state;
 * only on routes not finished, unless `finished` says otherwise.
 */
export function openStopsOfOrder(
  db: Db,
  businessId: number,
  orderId: number,
  options: { finished?: boolean } = {},
) {
  return db
    .selectFrom('route_stops as s')
    .innerJoin('routes as r', (join) =>
      join.onRef('r.id', '=', 's.route_id').onRef('r.business_id', '=', 's.business_id'),
    )
    .select([
      's.route_id',
      's.leg',
      's.status',
      's.kind',
      's.locker',
      'r.driver_user_id',
      'r.status as route_status',
    ])
    .where('s.business_id', '=', businessId)
    .where('s.order_id', '=', orderId)
    .where('s.status', 'in', ['pending', 'arrived'])
    .$if(options.finished !== true, (q) => q.where('r.status', '!=', 'finished'))
    .orderBy('s.route_id')
    .orderBy('s.sequence')
    .execute();
}

/**
 * Sends the order's pending delivery stop on a route to a locker site (or back to its door) as it
 * stands, its times kept: a route open on a route board, timed once a driver takes it. Another
 * place is another plan: the route's plan version moves (plan-versions.ts).
 */
export async function placeDelivery(
  db: Db,
  businessId: number,
  routeId: number,
  orderId: number,
  locker: LockerPlace | null,
): Promise<void> {
  await db
    .updateTable('route_stops')
    .set({ kind: locker ? 'locker' : 'door', locker: locker ? jsonb(locker) : null })
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .where('order_id', '=', orderId)
    .where('leg', '=', 'delivery')
    .where('status', '=', 'pending')
    .execute();
  await updateRoute(db, businessId, routeId, {});
}

/**
 * Closes the order's open stops as done at `at` (an arrival kept, else `at`): every one, or only
 * the locker drops of one booking. Answers the routes they were on.
 */
export async function closeStops(
  db: Db,
  businessId: number,
  orderId: number,
  at: Date,
  only: { bookingId?: number } = {},
): Promise<number[]> {
  const rows = await db
    .updateTable('route_stops')
    .set((eb) => ({
      status: 'done',
      arrived_at: eb.fn.coalesce('arrived_at', eb.val(at)),
      completed_at: at,
    }))
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .where('status', 'in', ['pending', 'arrived'])
    .$if(only.bookingId !== undefined, (q) =>
      q.where('kind', '=', 'locker').where(sql<string>`locker ->> 'booking_id'`, '=', String(only.bookingId)),
    )
    .returning('route_id')
    .execute();
  return [...new Set(rows.map((row) => row.route_id))];
}
