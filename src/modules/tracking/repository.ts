import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { TERMINAL_STORED_CODES } from './codebook.ts';
import type { TrackingTables } from './tables.ts';

export type EventRow = Omit<TrackingTables['tracking_events'], 'id'>;

/**
 * Stores events, skipping those already stored (same tracking number and event id). Returns the new ones.
 * The rows go as one array per column (`unnest`): a 500-event request is 14 parameters, not 5,500,
 * which PostgreSQL parses and plans markedly faster. The history is partitioned by month, where no
 * unique constraint can span months: an event is stored only if its key enters tracking_event_keys
 * (a concurrent writer of the same key waits for the first one's commit, as a unique index does).
 * Of one key sent twice in a request the first is kept. The keys go in their own order (sorted
 * here; an INSERT from unnest inserts in array order), so two requests sharing keys cannot wait on
 * each other crosswise; the events go in the request's order, which their ids follow. Only the
 * stored keys come back: the rest of each stored row is already here.
 */
export async function insertEvents(db: Queryable<TrackingTables>, rows: EventRow[]): Promise<EventRow[]> {
  if (rows.length === 0) return [];
  const keyOf = (row: Pick<EventRow, 'tracking_number' | 'event_id'>) =>
    `${row.tracking_number}\u0000${row.event_id}`;
  const firsts = new Map<string, EventRow>();
  for (const row of rows) if (!firsts.has(keyOf(row))) firsts.set(keyOf(row), row);
  const sent = [...firsts.values()];
  const keys = [...sent].sort((a, b) =>
    a.tracking_number === b.tracking_number
      ? compare(a.event_id, b.event_id)
      : compare(a.tracking_number, b.tracking_number),
  );
  const column = <K extends keyof EventRow>(of: EventRow[], key: K) => of.map((row) => row[key]);
  // The driver would write each Date in local time through its own formatter, and quote each
  // details object inside an array literal: ISO text and one JSON array cost both sides less.
  const instants = (of: EventRow[], key: 'occurred_at' | 'recorded_at') =>
    of.map((row) => row[key].toISOString());
  const result = await sql<Pick<EventRow, 'tracking_number' | 'event_id'>>`
    WITH new_keys AS (
      INSERT INTO tracking_event_keys (tracking_number, event_id, business_id)
      SELECT * FROM unnest(${column(keys, 'tracking_number')}::text[], ${column(keys, 'event_id')}::text[],
        ${column(keys, 'business_id')}::bigint[])
      ON CONFLICT (tracking_number, event_id, business_id) DO NOTHING
      RETURNING tracking_number, event_id
    ), stored AS (
      INSERT INTO tracking_events (business_id, tracking_number, package_id, event_id, otep_version,
        occurred_at, occurred_offset, recorded_at, status_code, source_type, details)
      SELECT business_id, tracking_number, package_id, event_id, otep_version, occurred_at,
        occurred_offset, recorded_at, status_code, source_type, details
      FROM unnest(
        ${column(sent, 'business_id')}::bigint[], ${column(sent, 'tracking_number')}::text[],
        ${column(sent, 'package_id')}::bigint[], ${column(sent, 'event_id')}::text[],
        ${column(sent, 'otep_version')}::text[], ${instants(sent, 'occurred_at')}::timestamptz[],
        ${column(sent, 'occurred_offset')}::text[], ${instants(sent, 'recorded_at')}::timestamptz[],
        ${column(sent, 'status_code')}::text[], ${column(sent, 'source_type')}::text[])
        WITH ORDINALITY AS sent (business_id, tracking_number, package_id, event_id, otep_version,
          occurred_at, occurred_offset, recorded_at, status_code, source_type, position)
      JOIN jsonb_array_elements(${JSON.stringify(column(sent, 'details'))}::jsonb)
        WITH ORDINALITY AS sent_details (details, position) USING (position)
      JOIN new_keys USING (tracking_number, event_id)
      ORDER BY position
    )
    SELECT tracking_number, event_id FROM new_keys`.execute(db);
  if (result.rows.length === sent.length) return sent;
  const stored = new Set(result.rows.map(keyOf));
  return sent.filter((row) => stored.has(keyOf(row)));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Which page of each timeline to read: pages count back from the newest event. */
export interface EventPage {
  page: number;
  perPage: number;
}

/**
 * Events of each of these tracking numbers, newest first, skipping the newest `offset` and
 * reading `limit` at most, in one statement (an index scan per number that stops there): from the
 * start, a timeline shorter than the limit is read whole. Each row says whether it is
 * `after_terminal`: not terminal itself, and after the timeline's first terminal event in its
 * order, which the statement finds whatever page it reads (by every stored form of the terminal
 * codes).
 */
export async function newestEventsOf(
  db: Queryable<TrackingTables>,
  trackingNumbers: string[],
  { offset, limit }: { offset: number; limit: number },
) {
  const terminal = TERMINAL_STORED_CODES;
  if (trackingNumbers.length === 0) return [];
  const result = await sql<
    Omit<Selectable<TrackingTables['tracking_events']>, 'business_id'> & { after_terminal: boolean }
  >`
    SELECT e.id, e.tracking_number, e.package_id, e.event_id, e.otep_version, e.occurred_at,
      e.occurred_offset, e.recorded_at, e.status_code, e.source_type, e.details,
      (t.id IS NOT NULL AND NOT e.status_code = ANY(${terminal}::text[])
        AND (e.occurred_at, e.recorded_at, e.id) > (t.occurred_at, t.recorded_at, t.id)) AS after_terminal
    FROM unnest(${trackingNumbers}::text[]) AS asked (tracking_number)
    CROSS JOIN LATERAL (
      SELECT * FROM tracking_events
      WHERE tracking_number = asked.tracking_number
      ORDER BY occurred_at DESC, recorded_at DESC, id DESC
      LIMIT ${limit} OFFSET ${offset}
    ) e
    LEFT JOIN LATERAL (
      SELECT occurred_at, recorded_at, id FROM tracking_events
      WHERE tracking_number = asked.tracking_number AND status_code = ANY(${terminal}::text[])
      ORDER BY occurred_at, recorded_at, id
      LIMIT 1
    ) t ON true
    ORDER BY asked.tracking_number, e.occurred_at DESC, e.recorded_at DESC, e.id DESC`.execute(db);
  return result.rows;
}

/**
 * Event count, highest id and current status of each of these timelines (those not read whole):
 * the latest terminal event's code once there is one, else the latest event's.
 */
export async function timelineSummaries(db: Queryable<TrackingTables>, trackingNumbers: string[]) {
  if (trackingNumbers.length === 0) return [];
  const terminal = TERMINAL_STORED_CODES;
  const result = await sql<{
    tracking_number: string;
    total: number;
    last_id: number;
    current_status: string;
  }>`
    SELECT tracking_number, count(*)::int AS total, max(id) AS last_id,
      coalesce(
        (array_agg(status_code ORDER BY occurred_at DESC, recorded_at DESC, id DESC)
          FILTER (WHERE status_code = ANY(${terminal}::text[])))[1],
        (array_agg(status_code ORDER BY occurred_at DESC, recorded_at DESC, id DESC))[1]
      ) AS current_status
    FROM tracking_events WHERE tracking_number = ANY(${trackingNumbers}::text[])
    GROUP BY tracking_number`.execute(db);
  return result.rows;
}

/** How many events a timeline has and its highest id: changes whenever an event is added. */
export async function timelineVersion(db: Queryable<TrackingTables>, trackingNumber: string) {
  const result = await sql<{ total: number; last_id: number | null }>`
    SELECT count(*)::int AS total, max(id) AS last_id
    FROM tracking_events WHERE tracking_number = ${trackingNumber}`.execute(db);
  return result.rows[0]!;
}

export async function insertProvider(
  db: Queryable<TrackingTables>,
  values: Omit<TrackingTables['tracking_providers'], 'id'>,
) {
  return (await db.insertInto('tracking_providers').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

export function providerByKeyHash(db: Queryable<TrackingTables>, keyHash: Buffer) {
  return db
    .selectFrom('tracking_providers')
    .select(['id', 'business_id', 'name'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function providersOf(db: Queryable<TrackingTables>, businessId: number) {
  return db
    .selectFrom('tracking_providers')
    .select(['id', 'name', 'created_at', 'revoked_at'])
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
}

export async function revokeProvider(
  db: Queryable<TrackingTables>,
  businessId: number,
  id: number,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('tracking_providers')
    .set({ revoked_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
