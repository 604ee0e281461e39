import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { createEmptyDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';

const TABLES = ['tracking_events', 'operation_audit'];

/** What `\d` shows of a table: its columns, constraints (without names of generated indexes) and indexes. */
async function described(handle: DatabaseHandle, table: string) {
  const columns = await sql<Record<string, unknown>>`
    SELECT attname, format_type(atttypid, atttypmod) AS type, attnotnull, attidentity,
      pg_get_expr(adbin, adrelid) AS default
    FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
    WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`.execute(
    handle.db,
  );
  // NOT NULL constraints (PostgreSQL 18 lists them) apart: the keys are what changes.
  const constraints = await sql<{ name: string; definition: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid = ${table}::regclass AND contype <> 'n' ORDER BY conname`.execute(handle.db);
  const notNull = await sql<{ name: string; definition: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid = ${table}::regclass AND contype = 'n' ORDER BY conname`.execute(handle.db);
  const indexes = await sql<{ name: string }>`
    SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = ${table}::regclass ORDER BY 1`.execute(
    handle.db,
  );
  const referencing = await sql<{ name: string }>`
    SELECT conname AS name FROM pg_constraint WHERE confrelid = ${table}::regclass`.execute(handle.db);
  const grants = await sql<{ grantee: string; privilege: string }>`
    SELECT grantee, privilege_type AS privilege FROM information_schema.role_table_grants
    WHERE table_name = ${table} ORDER BY 1, 2`.execute(handle.db);
  const sequence = await sql<{ name: string | null }>`
    SELECT pg_get_serial_sequence(${table}, 'id') AS name`.execute(handle.db);
  return {
    columns: columns.rows,
    constraints: constraints.rows,
    notNull: notNull.rows,
    indexes: indexes.rows.map((row) => row.name),
    referencing: referencing.rows,
    grants: grants.rows,
    sequence: sequence.rows[0]!.name,
  };
}

describe('migration 0057: the history tables rebuilt as partitioned tables, every row kept', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let before56: Record<string, Awaited<ReturnType<typeof described>>>;
  let eventsBefore: Record<string, unknown>[];
  let auditBefore: Record<string, unknown>[];
  let businessId: number;

  const reader = () => `${database.name}_reader`;
  const events = () =>
    sql<Record<string, unknown>>`SELECT * FROM tracking_events ORDER BY id`
      .execute(handle.db)
      .then((r) => r.rows);
  const audit = () =>
    sql<Record<string, unknown>>`SELECT * FROM operation_audit ORDER BY id`
      .execute(handle.db)
      .then((r) => r.rows);

  before(async () => {
    database = await createEmptyDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    await migrateToLatest(handle.db, '0056_sms_early_reports');
    businessId = (
      await sql<{ id: number }>`INSERT INTO businesses (code, name, created_at)
        VALUES ('moving', 'Moving', now()) RETURNING id`.execute(handle.db)
    ).rows[0]!.id;
    // Events over several months, the last one years ahead; one removed, so ids have a gap, and
    // the highest id handed out removed too, so the identity stands past the highest row.
    await sql`INSERT INTO tracking_events (business_id, tracking_number, event_id, otep_version, occurred_at,
        occurred_offset, recorded_at, status_code, source_type, details)
      SELECT ${businessId}, 'MOVE-' || (g % 3), 'e' || g, '0.1', recorded - interval '1 hour', '+01:00', recorded,
        'in_transit', 'carrier', jsonb_build_object('description', 'event ' || g)
      FROM generate_series(1, 12) AS g,
        LATERAL (SELECT timestamptz '2025-11-20 23:30:00+00' + g * interval '17 days' AS recorded) AS t`.execute(
      handle.db,
    );
    await sql`INSERT INTO tracking_events (business_id, tracking_number, event_id, otep_version, occurred_at,
        occurred_offset, recorded_at, status_code, source_type)
      VALUES (${businessId}, 'MOVE-FAR', 'far', '0.1', '2033-04-01', 'Z', '2033-04-01', 'created', 'service'),
        (${businessId}, 'MOVE-GONE', 'gone', '0.1', '2026-01-01', 'Z', '2026-01-01', 'created', 'service')`.execute(
      handle.db,
    );
    await sql`DELETE FROM tracking_events WHERE event_id IN ('e5', 'gone')`.execute(handle.db);
    await sql`INSERT INTO operation_audit (at, operation, door, actor_user_id, business_id, request_id)
      SELECT timestamptz '2025-12-31 23:59:59+00' + g * interval '11 days', 'op_' || g, 'rest',
        NULL, CASE WHEN g % 2 = 0 THEN ${businessId}::bigint END, 'req-' || g
      FROM generate_series(1, 6) AS g`.execute(handle.db);
    // Roles belong to the whole server: one of this database's own.
    await sql`CREATE ROLE ${sql.id(reader())}`.execute(handle.db);
    await sql`GRANT SELECT ON tracking_events, operation_audit TO ${sql.id(reader())}`.execute(handle.db);
    before56 = {};
    for (const table of TABLES) before56[table] = await described(handle, table);
    eventsBefore = await events();
    auditBefore = await audit();
    await migrateToLatest(handle.db);
  });
  after(async () => {
    await handle.close();
    await database.drop();
    const admin = openDatabase(process.env.TMS_TEST_ADMIN_URL!, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      await sql`DROP ROLE IF EXISTS ${sql.id(reader())}`.execute(admin.db);
    } finally {
      await admin.close();
    }
  });

  it('keeps every row with its id and values', async () => {
    assert.equal(eventsBefore.length, 12);
    assert.deepEqual(await events(), eventsBefore);
    assert.deepEqual(await audit(), auditBefore);
    const { rows } = await sql<{
      keys: number;
    }>`SELECT count(*)::int AS keys FROM tracking_event_keys`.execute(handle.db);
    assert.equal(rows[0]!.keys, 12);
  });

  it("puts each row in its month's partition: the months with rows, the current one and three ahead", async () => {
    const { rows } = await sql<{ id: number; partition: string; month: string }>`
      SELECT id, tableoid::regclass::text AS partition,
        to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY_MM') AS month FROM tracking_events`.execute(handle.db);
    for (const row of rows) assert.equal(row.partition, `tracking_events_${row.month}`, `event ${row.id}`);
    const audited = await sql<{ partition: string; month: string }>`
      SELECT tableoid::regclass::text AS partition, to_char(at AT TIME ZONE 'UTC', 'YYYY_MM') AS month
      FROM operation_audit`.execute(handle.db);
    for (const row of audited.rows) assert.equal(row.partition, `operation_audit_${row.month}`);
    const partitions = await sql<{ name: string }>`
      SELECT inhrelid::regclass::text AS name FROM pg_inherits
      WHERE inhparent = 'tracking_events'::regclass ORDER BY 1`.execute(handle.db);
    const names = partitions.rows.map((row) => row.name);
    for (let offset = 0; offset <= 3; offset++) {
      const now = new Date();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      assert.ok(names.includes(`tracking_events_${month.toISOString().slice(0, 7).replace('-', '_')}`));
    }
    assert.ok(names.includes('tracking_events_2033_04'));
    assert.ok(names.includes('tracking_events_default'));
  });

  it('loses no column, NOT NULL, index, foreign key, grant or identity; keys now carry the partition column', async () => {
    for (const table of TABLES) {
      const now = await described(handle, table);
      const was = before56[table]!;
      assert.deepEqual(now.columns, was.columns, table);
      assert.deepEqual(now.notNull, was.notNull, table);
      assert.deepEqual(
        now.indexes,
        was.indexes.filter((name) => !name.endsWith('_key')),
        table,
      );
      // No foreign key referred to either table by id (one could not survive), nor does one now.
      assert.deepEqual(was.referencing, [], table);
      assert.deepEqual(now.referencing, [], table);
      assert.deepEqual(now.grants, was.grants, table);
      assert.equal(now.sequence, was.sequence, table);
    }
    assert.deepEqual((await described(handle, 'tracking_events')).constraints, [
      {
        name: 'tracking_events_business_id_fkey',
        definition: 'FOREIGN KEY (business_id) REFERENCES businesses(id)',
      },
      { name: 'tracking_events_pkey', definition: 'PRIMARY KEY (business_id, id, recorded_at)' },
    ]);
    assert.deepEqual((await described(handle, 'operation_audit')).constraints, [
      { name: 'operation_audit_pkey', definition: 'PRIMARY KEY (id, at)' },
    ]);
    // What was there before, less the keys that became (business_id, id, recorded_at) and the dedup table.
    assert.deepEqual(before56.tracking_events!.constraints, [
      {
        name: 'tracking_events_business_id_fkey',
        definition: 'FOREIGN KEY (business_id) REFERENCES businesses(id)',
      },
      { name: 'tracking_events_pkey', definition: 'PRIMARY KEY (id)' },
      {
        name: 'tracking_events_tracking_number_event_id_key',
        definition: 'UNIQUE (tracking_number, event_id)',
      },
    ]);
  });

  it('continues the ids where the old identity stood', async () => {
    const { rows } = await sql<{ id: number }>`
      INSERT INTO tracking_events (business_id, tracking_number, event_id, otep_version, occurred_at,
        occurred_offset, recorded_at, status_code, source_type)
      VALUES (${businessId}, 'MOVE-NEW', 'new', '0.1', now(), 'Z', now(), 'created', 'service') RETURNING id`.execute(
      handle.db,
    );
    // 12 events, then 'far' (13) and 'gone' (14, removed): the next is 15.
    assert.equal(Number(rows[0]!.id), 15);
    const audited = await sql<{ id: number }>`
      INSERT INTO operation_audit (at, operation, door) VALUES (now(), 'op_new', 'rest') RETURNING id`.execute(
      handle.db,
    );
    assert.equal(Number(audited.rows[0]!.id), 7);
  });
});
