import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type {
  BoardVersionTables,
  DispatchTables,
  DriverWorkTables,
  PlanEditTables,
  StopKind,
  StopStatus,
} from './tables.ts';

// SQL of the dispatch board: a day's routes with their vehicle and depot, drivers' last positions,
// the version of a read, and the word that the board changed.

type Db = Queryable<DispatchTables & DriverWorkTables & PlanEditTables & BoardVersionTables>;

/** The channel every instance listens on for board changes; a NOTIFY fires only if its transaction commits. */
export const BOARD_CHANNEL = 'tms_board';

/** Most routes one board shows (a day of 250 routes is the size the service is measured at). */
export const MAX_BOARD_ROUTES = 1000;

/**
 * The routes of a date (or only these ids of it), with the vehicle type they drive (the route's
 * vehicle, else the driver's profile) and their own depot, the depot filter applied.
 */
export function boardRoutes(
  db: Db,
  businessId: number,
  filter: { date: string; depotId: number | null; ids?: readonly number[] },
) {
  return (
    db
      .selectFrom('routes as r')
      .leftJoin('driver_profiles as p', 'p.user_id', 'r.driver_user_id')
      .leftJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select([
        'r.id',
        'r.driver_user_id',
        'r.status',
        'r.locked',
        'r.plan_version',
        'r.vehicle_id',
        'r.departure',
        'r.started_at',
        'r.finished_at',
        'r.depot_id',
        sql<string | null>`coalesce(v.vehicle_type, p.vehicle_type)`.as('vehicle_type'),
      ])
      .where('r.business_id', '=', businessId)
      .where('r.route_date', '=', filter.date)
      // A route open on a fleet's route board has no driver yet: nothing is driven to observe.
      .where('r.driver_user_id', 'is not', null)
      .$narrowType<{ driver_user_id: number }>()
      .$if(filter.depotId !== null, (q) => q.where('r.depot_id', '=', filter.depotId!))
      .$if(filter.ids !== undefined, (q) =>
        q.where('r.id', 'in', filter.ids!.length ? [...filter.ids!] : [-1]),
      )
      .orderBy('r.id')
      .limit(MAX_BOARD_ROUTES)
      .execute()
  );
}

/** An instant as JavaScript's toISOString writes it, in SQL. */
const iso = (column: string) =>
  sql<string | null>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The stops of these routes in sequence, as one JSON array of arrays: a day's 5,000 stops arrive
 * and parse several times faster than rows.
 */
export async function boardStops(db: Db, routeIds: readonly number[]) {
  if (routeIds.length === 0) return [];
  type Row = [
    number,
    number,
    number,
    'pickup' | 'delivery',
    StopStatus,
    string | null,
    string | null,
    StopKind,
    number | null,
    number | null,
  ];
  // A locker drop is drawn at its locker site: its coordinates come with it.
  const result = await sql<{ rows: Row[] }>`SELECT coalesce(json_agg(json_build_array(
      s.route_id, s.sequence, s.order_id, s.leg, s.status, ${iso('s.arrived_at')}, ${iso('s.completed_at')},
      s.kind, s.locker -> 'address' -> 'lat', s.locker -> 'address' -> 'lng')
      ORDER BY s.route_id, s.sequence), '[]') AS rows
    FROM route_stops s WHERE s.route_id = ANY(${[...routeIds]}::bigint[])`.execute(db);
  return result.rows[0]!.rows.map((row) => ({
    route_id: row[0],
    sequence: row[1],
    order_id: row[2],
    leg: row[3],
    status: row[4],
    arrived_at: row[5],
    completed_at: row[6],
    kind: row[7],
    locker: row[8] === null || row[9] === null ? null : { lat: row[8], lng: row[9] },
  }));
}

/** Each driver's last reported position (by the phone's time), whatever the route; one statement. */
export async function lastPositions(db: Db, businessId: number, driverIds: readonly number[]) {
  if (driverIds.length === 0) return [];
  const result = await sql<{
    driver_user_id: number;
    route_id: number;
    lat: number;
    lng: number;
    accuracy_meters: number | null;
    device_time: Date;
  }>`SELECT d.id AS driver_user_id, p.route_id, p.lat, p.lng, p.accuracy_meters, p.device_time
    FROM unnest(${[...new Set(driverIds)]}::bigint[]) AS d(id)
    CROSS JOIN LATERAL (
      SELECT route_id, lat, lng, accuracy_meters, device_time FROM driver_positions
      WHERE business_id = ${businessId} AND driver_user_id = d.id
      ORDER BY device_time DESC LIMIT 1) AS p`.execute(db);
  return result.rows;
}

/**
 * The version of what a read sees: how many board changes of the business it sees committed (the
 * folded counter plus the changes not folded yet, in the read's snapshot). Another business's
 * writes never move it; a change of this business always does, and it never goes back.
 */
export async function readVersion(db: Db, businessId: number): Promise<number> {
  const result = await sql<{ version: string }>`SELECT
      coalesce((SELECT folded FROM dispatch_board_versions WHERE business_id = ${businessId}), 0)
      + (SELECT count(*) FROM dispatch_board_changes WHERE business_id = ${businessId}) AS version`.execute(
    db,
  );
  return Number(result.rows[0]!.version);
}

/** What of a business's board a change touched: some routes, some orders, or anything (`all`). */
export interface BoardChange {
  routeIds?: readonly number[];
  orderIds?: readonly number[];
  all?: boolean;
}

/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more: a longer change says "anything". */
const PAYLOAD_BYTES = 7_000;

/**
 * In the writer's transaction: counts a change of the business's board (its version) and tells
 * every instance, once it commits (never for a change rolled back, a dry run included), what of
 * the board the change touched. One statement. The change is a row of its own, so writers of one
 * business never wait on each other here (a counter row would hold each of them until the one
 * before commits); whoever finds the business's counter free (SKIP LOCKED) folds the committed
 * rows into it, which leaves the count a read sees the same.
 */
export async function signalBoard(db: Queryable, businessId: number, change: BoardChange): Promise<void> {
  let payload = JSON.stringify(
    change.all
      ? { b: businessId, a: 1 }
      : { b: businessId, r: change.routeIds ?? [], o: change.orderIds ?? [] },
  );
  if (payload.length > PAYLOAD_BYTES) payload = JSON.stringify({ b: businessId, a: 1 });
  await sql`WITH noted AS (
      INSERT INTO dispatch_board_changes (business_id) VALUES (${businessId})
    ), counter AS (
      -- Only when there is none: an upsert would wait for whoever is folding into it.
      INSERT INTO dispatch_board_versions (business_id)
      SELECT ${businessId}
      WHERE NOT EXISTS (SELECT 1 FROM dispatch_board_versions WHERE business_id = ${businessId})
      ON CONFLICT DO NOTHING
    ), folder AS (
      SELECT business_id FROM dispatch_board_versions WHERE business_id = ${businessId}
      FOR UPDATE SKIP LOCKED
    ), folded AS (
      DELETE FROM dispatch_board_changes c USING folder WHERE c.business_id = folder.business_id
      RETURNING 1
    ), counted AS (
      UPDATE dispatch_board_versions v SET folded = v.folded + (SELECT count(*) FROM folded)
      FROM folder WHERE v.business_id = folder.business_id
    )
    SELECT pg_notify(${BOARD_CHANNEL}, ${payload})`.execute(db);
}

/** A notification's payload read back; undefined for anything else. */
export function changeOf(payload: string): ({ businessId: number } & BoardChange) | undefined {
  try {
    const parsed = JSON.parse(payload) as { b?: unknown; r?: unknown; o?: unknown; a?: unknown };
    if (typeof parsed.b !== 'number') return undefined;
    const ids = (value: unknown) =>
      Array.isArray(value) ? value.filter((id) => typeof id === 'number') : [];
    return { businessId: parsed.b, all: parsed.a === 1, routeIds: ids(parsed.r), orderIds: ids(parsed.o) };
  } catch {
    return undefined;
  }
}
