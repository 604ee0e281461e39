import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { TrackingTables } from './tables.ts';

export type EventRow = Omit<TrackingTables['tracking_events'], 'id'>;

/**
 * Stores events, skipping those already stored (same tracking number and event id). Returns the new ones.
 * The rows go as one array per column (`unnest`): a 500-event request is 11 parameters, not 5,500,
 * which PostgreSQL parses and plans markedly faster.
 */
export async function insertEvents(db: Queryable, rows: EventRow[]) {
  if (rows.length === 0) return [];
  const column = <K extends keyof EventRow>(key: K) => rows.map((row) => row[key]);
  const result = await sql<
    Pick<EventRow, 'tracking_number' | 'event_id' | 'status_code' | 'occurred_at' | 'source_type'>
  >`
    INSERT INTO tracking_events (business_id, tracking_number, package_id, event_id, otep_version,
      occurred_at, occurred_offset, recorded_at, status_code, source_type, details)
    SELECT * FROM unnest(
      ${column('business_id')}::bigint[], ${column('tracking_number')}::text[],
      ${column('package_id')}::bigint[], ${column('event_id')}::text[], ${column('otep_version')}::text[],
      ${column('occurred_at')}::timestamptz[], ${column('occurred_offset')}::text[],
      ${column('recorded_at')}::timestamptz[], ${column('status_code')}::text[],
      ${column('source_type')}::text[], ${rows.map((row) => JSON.stringify(row.details))}::jsonb[])
    ON CONFLICT (tracking_number, event_id) DO NOTHING
    RETURNING tracking_number, event_id, status_code, occurred_at, source_type`.execute(db);
  return result.rows;
}

/** The events of these tracking numbers in timeline order. */
export function eventsOf(db: Queryable, trackingNumbers: string[]) {
  if (trackingNumbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tracking_events')
    .select([
      'tracking_number',
      'package_id',
      'event_id',
      'otep_version',
      'occurred_at',
      'occurred_offset',
      'recorded_at',
      'status_code',
      'source_type',
      'details',
    ])
    .where('tracking_number', 'in', trackingNumbers)
    .orderBy('tracking_number')
    .orderBy('occurred_at')
    .orderBy('recorded_at')
    .orderBy('id')
    .execute();
}

export async function insertProvider(
  db: Queryable,
  values: Omit<TrackingTables['tracking_providers'], 'id'>,
) {
  return (await db.insertInto('tracking_providers').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

export function providerByKeyHash(db: Queryable, keyHash: Buffer) {
  return db
    .selectFrom('tracking_providers')
    .select(['id', 'business_id', 'name'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function providersOf(db: Queryable, businessId: number) {
  return db
    .selectFrom('tracking_providers')
    .select(['id', 'name', 'created_at', 'revoked_at'])
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
}

export async function revokeProvider(
  db: Queryable,
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
