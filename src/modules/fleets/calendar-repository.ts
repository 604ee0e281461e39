import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { FleetsTables, SignupState } from './tables.ts';

type Db = Queryable<FleetsTables>;
export type PatternRow = Selectable<FleetsTables['fleet_shift_patterns']>;
export type ShiftRow = Selectable<FleetsTables['fleet_shifts']>;
export type SignupRow = Selectable<FleetsTables['fleet_shift_signups']>;

/** What a shift or a pattern says of the work: its hours, depot, vehicle kind and slots. */
export interface ShiftTerms {
  start_time: string;
  end_time: string;
  depot_id: number | null;
  vehicle_kind: string;
  slots: number;
}

/** The business's local date and time of day (`HH:MM:SS`): what separates past shifts from upcoming ones. */
export interface LocalNow {
  date: string;
  time: string;
}

// ----- patterns -----

export function patternsOf(db: Db, businessId: number, fleetId: number) {
  return db
    .selectFrom('fleet_shift_patterns')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
}

/** The pattern, locked for the change the caller's transaction makes to it and its shifts. */
export function lockPattern(db: Db, businessId: number, fleetId: number, patternId: number) {
  return db
    .selectFrom('fleet_shift_patterns')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('id', '=', patternId)
    .forUpdate()
    .executeTakeFirst();
}

export function insertPattern(
  db: Db,
  pattern: Omit<PatternRow, 'id' | 'created_at' | 'updated_at'>,
  now: Date,
) {
  return db
    .insertInto('fleet_shift_patterns')
    .values({ ...pattern, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updatePattern(db: Db, pattern: Omit<PatternRow, 'created_at' | 'updated_at'>, now: Date) {
  const { id, business_id, fleet_id, ...changes } = pattern;
  return db
    .updateTable('fleet_shift_patterns')
    .set({ ...changes, updated_at: now })
    .where('business_id', '=', business_id)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePattern(db: Db, businessId: number, patternId: number) {
  await db
    .deleteFrom('fleet_shift_patterns')
    .where('business_id', '=', businessId)
    .where('id', '=', patternId)
    .execute();
}

/**
 * Generates the fleet's patterns' shifts on every matching date from max(valid_from, today) to
 * `through`, skipping the dates a pattern already has a shift on (kept, edited or cancelled):
 * idempotent. The patterns are read FOR SHARE, so a pattern change in flight is waited for and
 * its new weekdays are the ones generated. Answers how many shifts were added.
 */
export async function generateShifts(
  db: Db,
  fleet: { businessId: number; fleetId: number; patternId?: number },
  days: { today: string; through: string },
  now: Date,
): Promise<number> {
  const onePattern = fleet.patternId === undefined ? sql`` : sql`AND p.id = ${fleet.patternId}`;
  const added = await sql`
    INSERT INTO fleet_shifts (business_id, fleet_id, pattern_id, shift_date, start_time, end_time,
                              depot_id, vehicle_kind, slots, created_at, updated_at)
    SELECT p.business_id, p.fleet_id, p.id, d.day::date, p.start_time, p.end_time,
           p.depot_id, p.vehicle_kind, p.slots, ${now}, ${now}
    FROM (SELECT * FROM fleet_shift_patterns
          WHERE business_id = ${fleet.businessId} AND fleet_id = ${fleet.fleetId}
          FOR SHARE) p
    CROSS JOIN LATERAL generate_series(
      greatest(p.valid_from, ${days.today}::date),
      least(coalesce(p.valid_to, ${days.through}::date), ${days.through}::date),
      interval '1 day') AS d(day)
    WHERE extract(isodow FROM d.day)::smallint = ANY (p.weekdays) ${onePattern}
    ON CONFLICT (business_id, pattern_id, shift_date) WHERE pattern_id IS NOT NULL DO NOTHING`.execute(db);
  return Number(added.numAffectedRows ?? 0);
}

// ----- shifts -----

/** The fleet's shifts from one date to another (both included), by date and start. */
export function shiftsOf(db: Db, businessId: number, fleetId: number, range: { from: string; to: string }) {
  return db
    .selectFrom('fleet_shifts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('shift_date', '>=', range.from)
    .where('shift_date', '<=', range.to)
    .orderBy('shift_date')
    .orderBy('start_time')
    .orderBy('id')
    .execute();
}

/**
 * The pattern's shifts that have not started yet (past and started shifts never change), each
 * with how many drivers are signed up for it.
 */
export function upcomingShiftsOfPattern(db: Db, businessId: number, patternId: number, now: LocalNow) {
  return db
    .selectFrom('fleet_shifts')
    .selectAll('fleet_shifts')
    .select((eb) =>
      eb
        .selectFrom('fleet_shift_signups')
        .whereRef('fleet_shift_signups.shift_id', '=', 'fleet_shifts.id')
        .select(eb.fn.countAll<string>().as('n'))
        .as('signups'),
    )
    .where('business_id', '=', businessId)
    .where('pattern_id', '=', patternId)
    .where(sql<boolean>`(shift_date, start_time) > (${now.date}::date, ${now.time}::time)`)
    .orderBy('shift_date')
    .forUpdate()
    .execute();
}

export function shiftById(db: Db, businessId: number, shiftId: number) {
  return db
    .selectFrom('fleet_shifts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', shiftId)
    .executeTakeFirst();
}

/** The shift, locked: signups, changes and cancellation of one shift go one at a time. */
export function lockShift(db: Db, businessId: number, fleetId: number, shiftId: number) {
  return db
    .selectFrom('fleet_shifts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('id', '=', shiftId)
    .forUpdate()
    .executeTakeFirst();
}

export function insertShift(
  db: Db,
  shift: ShiftTerms & { business_id: number; fleet_id: number; shift_date: string },
  now: Date,
) {
  return db
    .insertInto('fleet_shifts')
    .values({ ...shift, pattern_id: null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateShifts(
  db: Db,
  businessId: number,
  shiftIds: readonly number[],
  changes: Partial<ShiftTerms> & { cancelled?: boolean },
  now: Date,
) {
  if (shiftIds.length === 0) return;
  await db
    .updateTable('fleet_shifts')
    .set({ ...changes, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', 'in', shiftIds)
    .execute();
}

export async function deleteShifts(db: Db, businessId: number, shiftIds: readonly number[]) {
  if (shiftIds.length === 0) return;
  await db
    .deleteFrom('fleet_shifts')
    .where('business_id', '=', businessId)
    .where('id', 'in', shiftIds)
    .execute();
}

// ----- signups -----

export function signupsOf(db: Db, businessId: number, shiftIds: readonly number[]) {
  if (shiftIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('fleet_shift_signups')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('shift_id', 'in', shiftIds)
    .orderBy('signed_up_at')
    .orderBy('driver_user_id')
    .execute();
}

export function insertSignup(
  db: Db,
  signup: { businessId: number; shiftId: number; driverId: number },
  now: Date,
) {
  return db
    .insertInto('fleet_shift_signups')
    .values({
      shift_id: signup.shiftId,
      business_id: signup.businessId,
      driver_user_id: signup.driverId,
      signed_up_at: now,
      updated_at: now,
    })
    .execute();
}

export async function deleteSignup(db: Db, businessId: number, shiftId: number, driverId: number) {
  await db
    .deleteFrom('fleet_shift_signups')
    .where('business_id', '=', businessId)
    .where('shift_id', '=', shiftId)
    .where('driver_user_id', '=', driverId)
    .execute();
}

export async function setSignupState(
  db: Db,
  signup: { businessId: number; shiftId: number; driverId: number },
  state: SignupState,
  now: Date,
) {
  await db
    .updateTable('fleet_shift_signups')
    .set({ state, updated_at: now })
    .where('business_id', '=', signup.businessId)
    .where('shift_id', '=', signup.shiftId)
    .where('driver_user_id', '=', signup.driverId)
    .execute();
}

/** A driver's shifts from one date to another across its fleets, with its signup state and the fleet's name. */
export function shiftsOfDriver(
  db: Db,
  businessId: number,
  driverId: number,
  range: { from: string; to: string },
) {
  return db
    .selectFrom('fleet_shift_signups as s')
    .innerJoin('fleet_shifts as f', 'f.id', 's.shift_id')
    .innerJoin('fleets', 'fleets.id', 'f.fleet_id')
    .selectAll('f')
    .select(['s.state', 'fleets.name as fleet_name'])
    .where('s.business_id', '=', businessId)
    .where('s.driver_user_id', '=', driverId)
    .where('f.shift_date', '>=', range.from)
    .where('f.shift_date', '<=', range.to)
    .orderBy('f.shift_date')
    .orderBy('f.start_time')
    .orderBy('f.id')
    .execute();
}

/** The shifts that set drivers' working windows on a date: not cancelled, the driver scheduled or checked in. */
export function workingShiftsOn(db: Db, businessId: number, date: string, driverIds: readonly number[]) {
  if (driverIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('fleet_shift_signups as s')
    .innerJoin('fleet_shifts as f', 'f.id', 's.shift_id')
    .select(['s.driver_user_id', 'f.start_time', 'f.end_time', 'f.depot_id'])
    .where('s.business_id', '=', businessId)
    .where('s.driver_user_id', 'in', driverIds)
    .where('s.state', 'in', ['scheduled', 'checked_in'])
    .where('f.shift_date', '=', date)
    .where('f.cancelled', '=', false)
    .orderBy('f.start_time')
    .orderBy('f.id')
    .execute();
}

/**
 * Whether the fleet keeps a shift calendar: a pattern or a shift, whatever its date. Its drivers
 * then claim board routes only on days they have a shift.
 */
export async function keepsCalendar(db: Db, businessId: number, fleetId: number): Promise<boolean> {
  const found = await db
    .selectFrom('fleet_shift_patterns')
    .select('id')
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .unionAll(
      db
        .selectFrom('fleet_shifts')
        .select('id')
        .where('business_id', '=', businessId)
        .where('fleet_id', '=', fleetId),
    )
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}
