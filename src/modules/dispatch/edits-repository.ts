import type { Insertable, Updateable } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { DispatchTables, DriverWorkTables, PlanEditTables } from './tables.ts';

type Tables = DispatchTables & PlanEditTables & DriverWorkTables;
type Vehicle = Tables['vehicles'];

/**
 * Locks these routes of the business for update, in id order (two edits of the same routes
 * queue up instead of deadlocking), and answers them; another business's are absent.
 */
export function lockRoutes(db: Queryable<Tables>, businessId: number, routeIds: readonly number[]) {
  return db
    .selectFrom('routes')
    .select([
      'id',
      'business_id',
      'driver_user_id',
      'vehicle_id',
      'route_date',
      'departure',
      'status',
      'locked',
      'distance_source',
      'plan_version',
      'depot_id',
    ])
    .where('business_id', '=', businessId)
    .where('id', 'in', routeIds.length ? routeIds : [-1])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export type LockedRoute = Awaited<ReturnType<typeof lockRoutes>>[number];

/** The last position (by the phone's time) this driver reported on this route; undefined when none. */
export function lastPositionOnRoute(
  db: Queryable<Tables>,
  businessId: number,
  routeId: number,
  driverId: number,
) {
  return db
    .selectFrom('driver_positions')
    .select(['lat', 'lng', 'device_time'])
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .where('driver_user_id', '=', driverId)
    .orderBy('device_time', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Writes a route's stops anew, in the order given (sequence 1, 2, ...). */
export async function replaceStops(
  db: Queryable<Tables>,
  businessId: number,
  routeId: number,
  stops: ReadonlyArray<Omit<Insertable<Tables['route_stops']>, 'business_id' | 'route_id' | 'sequence'>>,
): Promise<void> {
  await db
    .deleteFrom('route_stops')
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .execute();
  if (stops.length === 0) return;
  await db
    .insertInto('route_stops')
    .values(
      stops.map((stop, index) => ({
        ...stop,
        locker: stop.locker ? jsonb(stop.locker) : null,
        business_id: businessId,
        route_id: routeId,
        sequence: index + 1,
      })),
    )
    .execute();
}

/** Changes a route's plan: every change moves its plan version (plan-versions.ts). */
export async function updateRoute(
  db: Queryable<DispatchTables>,
  businessId: number,
  routeId: number,
  changes: Omit<Updateable<DispatchTables['routes']>, 'plan_version'>,
): Promise<void> {
  await db
    .updateTable('routes')
    .set((eb) => ({ ...changes, plan_version: eb('plan_version', '+', 1) }))
    .where('business_id', '=', businessId)
    .where('id', '=', routeId)
    .execute();
}

/** The vehicle each of these routes drives; absent: its driver's own. */
export async function vehiclesOfRoutes(db: Queryable<Tables>, routeIds: readonly number[]) {
  if (routeIds.length === 0) return new Map<number, { id: number; name: string }>();
  const rows = await db
    .selectFrom('routes as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .select(['r.id as route_id', 'v.id', 'v.name'])
    .where('r.id', 'in', routeIds)
    .execute();
  return new Map(rows.map((row) => [row.route_id, { id: row.id, name: row.name }]));
}

export async function insertVehicle(db: Queryable<Tables>, vehicle: Insertable<Vehicle>): Promise<number> {
  return (await db.insertInto('vehicles').values(vehicle).returning('id').executeTakeFirstOrThrow()).id;
}

export function vehiclesOf(db: Queryable<Tables>, businessId: number, ids?: readonly number[]) {
  return db
    .selectFrom('vehicles')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!.length ? ids! : [-1]))
    .orderBy('id')
    .execute();
}
