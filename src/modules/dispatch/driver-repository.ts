import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { DispatchTables, DriverWorkTables, StopStatus } from './tables.ts';

// SQL of the driver's working day: the caller's own routes and stops, replays, positions.

type Db = Queryable<DispatchTables & DriverWorkTables>;
export type Leg = 'pickup' | 'delivery';

/**
 * A route of the business driven by this driver now (the check is always against the route's
 * current driver); locked for update when a write is to follow, so writes on one route queue.
 */
export function driverRoute(
  db: Db,
  businessId: number,
  driverId: number,
  routeId: number,
  options: { lock?: boolean } = {},
) {
  return db
    .selectFrom('routes')
    .select(['id', 'route_date', 'status', 'started_at', 'finished_at'])
    .where('id', '=', routeId)
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
}

export function stopsOfRoute(db: Db, routeId: number) {
  return db
    .selectFrom('route_stops')
    .selectAll()
    .where('route_id', '=', routeId)
    .orderBy('sequence')
    .execute();
}

export async function startRoute(db: Db, routeId: number, at: Date): Promise<void> {
  await db
    .updateTable('routes')
    .set({ status: 'started', started_at: at })
    .where('id', '=', routeId)
    .execute();
}

export async function finishRoute(db: Db, routeId: number, at: Date): Promise<void> {
  await db
    .updateTable('routes')
    .set({ status: 'finished', finished_at: at })
    .where('id', '=', routeId)
    .execute();
}

/** Records what happened at a stop; arriving keeps an earlier arrival time, completing sets one if none. */
export async function updateStop(
  db: Db,
  routeId: number,
  stop: { order_id: number; leg: Leg },
  change: { status: StopStatus; at: Date },
): Promise<void> {
  const completed = change.status === 'done' || change.status === 'failed';
  await db
    .updateTable('route_stops')
    .set((eb) => ({
      status: change.status,
      arrived_at: eb.fn.coalesce('arrived_at', eb.val(change.at)),
      ...(completed ? { completed_at: change.at } : {}),
    }))
    .where('route_id', '=', routeId)
    .where('order_id', '=', stop.order_id)
    .where('leg', '=', stop.leg)
    .execute();
}

/**
 * Claims a client id for a write: true when this call is the first; false when a write with the
 * same id exists. A concurrent first call holding the same key makes this insert wait for its
 * transaction, so two replays never both apply.
 */
export async function claimWrite(
  db: Db,
  write: Omit<Insertable<DriverWorkTables['driver_writes']>, 'answer'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('driver_writes')
    .values({ ...write, answer: null })
    .onConflict((oc) => oc.columns(['business_id', 'driver_user_id', 'client_id']).doNothing())
    .returning('client_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function writeOf(db: Db, driverId: number, clientId: string) {
  return db
    .selectFrom('driver_writes')
    .select(['operation', 'route_id', 'order_id', 'leg', 'answer'])
    .where('driver_user_id', '=', driverId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export async function saveAnswer(db: Db, driverId: number, clientId: string, answer: unknown): Promise<void> {
  await db
    .updateTable('driver_writes')
    .set({ answer: JSON.stringify(answer) })
    .where('driver_user_id', '=', driverId)
    .where('client_id', '=', clientId)
    .execute();
}

/** Forgets the writes kept since before `before`; answers how many. */
export async function pruneWrites(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('driver_writes').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPositions(
  db: Db,
  positions: ReadonlyArray<Insertable<DriverWorkTables['driver_positions']>>,
): Promise<void> {
  if (positions.length === 0) return;
  await db.insertInto('driver_positions').values(positions).execute();
}
