import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { OrderStatus } from './statuses.ts';
import type { OrdersTables } from './tables.ts';

// The dispatch board's reads of orders (queries.ts answers them to dispatch): set-based, in one
// statement each, for a day of thousands of orders.

type OrderRow = OrdersTables['orders'];

/**
 * What the dispatch board shows of orders, in one statement: these orders, and those of the date
 * waiting on no route (in `waiting` statuses, delivered by the business itself) or held, at most
 * `limit` of the latter. Coordinates only, never names or phones.
 */
export async function boardOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  ids: readonly number[],
  waiting: { date: string; statuses: readonly OrderStatus[]; limit: number } | null,
) {
  // One JSON array of arrays: a day's 5,000 orders arrive and parse several times faster than rows.
  const columns = sql`json_build_array(o.id, o.order_ref, o.type, o.status, to_char(o.window_start, 'HH24:MI'),
    to_char(o.window_end, 'HH24:MI'), o.route_id,
    (o.pickup ->> 'lat')::float8, (o.pickup ->> 'lng')::float8,
    (o.dropoff ->> 'lat')::float8, (o.dropoff ->> 'lng')::float8`;
  const listed = sql`SELECT ${columns}, false) AS row FROM orders o
    WHERE o.business_id = ${businessId} AND o.id = ANY(${[...ids]}::bigint[])`;
  const query = waiting
    ? sql`${listed} UNION ALL (SELECT ${columns}, true) AS row FROM orders o
        WHERE o.business_id = ${businessId} AND o.scheduled_date = ${waiting.date}::date
          AND o.carrier IS NULL
          AND (o.status = 'HOLD' OR (o.route_id IS NULL AND o.status = ANY(${[...waiting.statuses]}::text[])))
        ORDER BY o.id LIMIT ${waiting.limit})`
    : listed;
  type Row = [
    number,
    string,
    OrderRow['type'],
    OrderStatus,
    string | null,
    string | null,
    number | null,
    number | null,
    number | null,
    number | null,
    number | null,
    boolean,
  ];
  const result = await sql<{
    rows: Row[];
  }>`SELECT coalesce(json_agg(q.row), '[]') AS rows FROM (${query}) AS q`.execute(db);
  return result.rows[0]!.rows.map((row) => ({
    id: row[0],
    order_ref: row[1],
    type: row[2],
    status: row[3],
    window_start: row[4],
    window_end: row[5],
    route_id: row[6],
    pickup_lat: row[7],
    pickup_lng: row[8],
    dropoff_lat: row[9],
    dropoff_lng: row[10],
    waiting: row[11],
  }));
}

/** How many orders of the date wait on no route, and how many are held (the board's totals). */
export async function countWaiting(
  db: Queryable<OrdersTables>,
  businessId: number,
  date: string,
  statuses: readonly OrderStatus[],
) {
  const result = await sql<{ unplanned: number; held: number }>`SELECT
      count(*) FILTER (WHERE o.route_id IS NULL AND o.status = ANY(${[...statuses]}::text[]))::int AS unplanned,
      count(*) FILTER (WHERE o.status = 'HOLD')::int AS held
    FROM orders o WHERE o.business_id = ${businessId} AND o.scheduled_date = ${date}::date AND o.carrier IS NULL`.execute(
    db,
  );
  return result.rows[0] ?? { unplanned: 0, held: 0 };
}

/**
 * The self-delivered orders of the date in HOLD, each with when it was last put on hold and when
 * an address of it was last placed anew (a `location_updated` event), from its audit trail.
 */
export async function heldOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  date: string,
  limit: number,
) {
  const result = await sql<{ id: number; held_at: Date | null; located_at: Date | null }>`SELECT o.id,
      (SELECT max(e.at) FROM order_events e WHERE e.order_id = o.id AND e.business_id = o.business_id
        AND e.action = 'status_changed' AND e.changes -> 'status' ->> 'to' = 'HOLD') AS held_at,
      (SELECT max(e.at) FROM order_events e WHERE e.order_id = o.id AND e.business_id = o.business_id
        AND e.action = 'location_updated') AS located_at
    FROM orders o
    WHERE o.business_id = ${businessId} AND o.scheduled_date = ${date}::date AND o.status = 'HOLD'
      AND o.carrier IS NULL
    ORDER BY o.id LIMIT ${limit}`.execute(db);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}
