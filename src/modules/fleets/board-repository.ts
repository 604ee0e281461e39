import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { BoardAction, FleetsTables, RouteBoardTables } from './tables.ts';

type Db = Queryable<RouteBoardTables & FleetsTables>;
type Entry = RouteBoardTables['route_board_entries'];

export function insertEntry(db: Db, entry: Insertable<Entry>) {
  return db.insertInto('route_board_entries').values(entry).returningAll().executeTakeFirstOrThrow();
}

/**
 * The route's board entry, locked for the rest of the transaction: every change of a board route
 * (claim, withdrawal, standby, pull-back) takes this lock first, so concurrent ones take turns
 * and each sees what the one before it committed.
 */
export function lockEntry(db: Db, businessId: number, routeId: number) {
  return db
    .selectFrom('route_board_entries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Holds a driver's day of the business until the transaction ends. Whoever weighs giving the
 * driver a route of that day (a claim, a reassignment, a promotion) takes it before reading the
 * driver's other routes, so a second one waits for the first to commit and then sees the route
 * it gave: two overlapping routes cannot both pass the window check. The route entries' own locks
 * do not serialise this, since the two routes are different entries.
 */
export async function holdDriverDay(db: Db, businessId: number, driverId: number, date: string) {
  const key = `route_board:${businessId}:${driverId}:${date}`;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

export function entryOf(db: Db, businessId: number, routeId: number) {
  return db
    .selectFrom('route_board_entries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .executeTakeFirst();
}

/** A fleet's board of a date, in departure order. */
export function entriesOfBoard(db: Db, businessId: number, fleetId: number, date: string) {
  return db
    .selectFrom('route_board_entries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('board_date', '=', date)
    .orderBy('window_start')
    .orderBy('route_id')
    .execute();
}

/** Every route on the fleet's boards, whatever the date. */
export function entriesOfFleet(db: Db, businessId: number, fleetId: number) {
  return db
    .selectFrom('route_board_entries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .orderBy('route_id')
    .execute();
}

/** The entries of these routes (another business's are absent). */
export function entriesOf(db: Db, businessId: number, routeIds: readonly number[]) {
  if (routeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('route_board_entries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', 'in', routeIds)
    .orderBy('board_date')
    .orderBy('window_start')
    .execute();
}

export async function deleteEntry(db: Db, businessId: number, routeId: number): Promise<void> {
  await db
    .deleteFrom('route_board_entries')
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .execute();
}

/** A route's standby queue, first in first. */
export function queueOf(db: Db, businessId: number, routeId: number) {
  return db
    .selectFrom('route_board_standby')
    .select(['driver_user_id', 'joined_at'])
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .orderBy('joined_at')
    .orderBy('id')
    .execute();
}

/** How long each route's queue is, and where the driver stands in it (1 = next). */
export async function queueFigures(
  db: Db,
  businessId: number,
  routeIds: readonly number[],
  driverId?: number,
) {
  if (routeIds.length === 0) return new Map<number, { length: number; position: number | null }>();
  const rows = await db
    .selectFrom('route_board_standby')
    .select([
      'route_id',
      'driver_user_id',
      sql<number>`row_number() OVER (PARTITION BY route_id ORDER BY joined_at, id)`.as('position'),
      sql<number>`count(*) OVER (PARTITION BY route_id)`.as('length'),
    ])
    .where('business_id', '=', businessId)
    .where('route_id', 'in', routeIds)
    .execute();
  const figures = new Map<number, { length: number; position: number | null }>();
  for (const row of rows) {
    const figure = figures.get(row.route_id) ?? { length: Number(row.length), position: null };
    if (row.driver_user_id === driverId) figure.position = Number(row.position);
    figures.set(row.route_id, figure);
  }
  return figures;
}

/** Puts the driver at the end of the route's queue; false when it was in it already (its place kept). */
export async function joinQueue(db: Db, businessId: number, routeId: number, driverId: number, at: Date) {
  const joined = await db
    .insertInto('route_board_standby')
    .values({ route_id: routeId, business_id: businessId, driver_user_id: driverId, joined_at: at })
    .onConflict((oc) => oc.columns(['business_id', 'route_id', 'driver_user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return joined !== undefined;
}

/** Takes these drivers out of the route's queue (all of them when none are named); answers who left. */
export async function leaveQueue(db: Db, businessId: number, routeId: number, driverIds?: readonly number[]) {
  const left = await db
    .deleteFrom('route_board_standby')
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .$if(driverIds !== undefined, (q) =>
      q.where('driver_user_id', 'in', driverIds!.length ? driverIds! : [-1]),
    )
    .returning('driver_user_id')
    .execute();
  return left.map((row) => row.driver_user_id);
}

/** The routes the driver waits for, with its place in each queue. */
export function standbyOfDriver(db: Db, businessId: number, driverId: number) {
  return db
    .selectFrom('route_board_standby')
    .select('route_id')
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .execute();
}

export interface HistoryLine {
  businessId: number;
  routeId: number;
  fleetId: number;
  action: BoardAction;
  driverId: number | null;
  actorId: number | null;
  details?: Record<string, unknown>;
}

export async function record(db: Db, lines: readonly HistoryLine[], at: Date): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('route_board_history')
    .values(
      lines.map((line) => ({
        business_id: line.businessId,
        route_id: line.routeId,
        fleet_id: line.fleetId,
        action: line.action,
        driver_user_id: line.driverId,
        actor_user_id: line.actorId,
        details: sql<Record<string, unknown>>`${JSON.stringify(line.details ?? {})}::jsonb`,
        at,
      })),
    )
    .execute();
}

/** A route's board history in the order it happened (the latest `limit` lines). */
export async function historyOf(db: Db, businessId: number, routeId: number, limit: number) {
  const rows = await db
    .selectFrom('route_board_history')
    .select(['id', 'action', 'driver_user_id', 'actor_user_id', 'details', 'at'])
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

export function settingsOf(db: Db, businessId: number) {
  return db
    .selectFrom('route_board_settings')
    .select(['withdrawal_cutoff_minutes'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveSettings(db: Db, businessId: number, cutoffMinutes: number, at: Date) {
  await db
    .insertInto('route_board_settings')
    .values({ business_id: businessId, withdrawal_cutoff_minutes: cutoffMinutes, updated_at: at })
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({ withdrawal_cutoff_minutes: cutoffMinutes, updated_at: at }),
    )
    .execute();
}
