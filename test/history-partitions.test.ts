import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { runCli } from '../src/cli.ts';
import { HISTORIES } from '../src/history.ts';
import { TRACKING_HISTORY } from '../src/modules/tracking/index.ts';
import { type EventRow, insertEvents, newestEventsOf } from '../src/modules/tracking/repository.ts';
import { AUDIT_HISTORY } from '../src/platform/catalog/audit.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import {
  createMonthPartition,
  ensureMonthPartitions,
  MONTHS_AHEAD,
  monthPartitions,
} from '../src/platform/db/partitions.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';

const utc = (text: string) => new Date(`${text}T00:00:00Z`);

describe('partitioned history: tracking events and the operation audit by month', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let businessId: number;

  const event = (
    trackingNumber: string,
    eventId: string,
    recordedAt: Date,
    status = 'in_transit',
  ): EventRow => ({
    business_id: businessId,
    tracking_number: trackingNumber,
    package_id: null,
    event_id: eventId,
    otep_version: '0.1',
    occurred_at: recordedAt,
    occurred_offset: 'Z',
    recorded_at: recordedAt,
    status_code: status,
    source_type: 'carrier',
    details: {},
  });
  const partitionOf = async (trackingNumber: string, eventId: string) =>
    (
      await sql<{ partition: string }>`SELECT tableoid::regclass::text AS partition FROM tracking_events
        WHERE tracking_number = ${trackingNumber} AND event_id = ${eventId}`.execute(handle.db)
    ).rows.map((row) => row.partition);
  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['node', 'tms', ...args], {
      env: { DATABASE_URL: database.url },
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      stdin: () => '',
    });
    return { code, stdout: out.join(''), stderr: err.join('') };
  };

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    businessId = (
      await sql<{ id: number }>`INSERT INTO businesses (code, name, created_at)
        VALUES ('history', 'History', now()) RETURNING id`.execute(handle.db)
    ).rows[0]!.id;
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('partitions both tables by range of their time, with a default partition', async () => {
    const { rows } = await sql<{ table: string; strategy: string; column: string; fallback: string | null }>`
      SELECT partrelid::regclass::text AS table, partstrat AS strategy, attname AS column,
        partdefid::regclass::text AS fallback
      FROM pg_partitioned_table
      JOIN pg_attribute ON attrelid = partrelid AND attnum = partattrs[0]
      WHERE partrelid IN ('tracking_events'::regclass, 'operation_audit'::regclass)
      ORDER BY 1`.execute(handle.db);
    assert.deepEqual(rows, [
      { table: 'operation_audit', strategy: 'r', column: 'at', fallback: 'operation_audit_default' },
      { table: 'tracking_events', strategy: 'r', column: 'recorded_at', fallback: 'tracking_events_default' },
    ]);
    assert.deepEqual(
      HISTORIES.map((history) => history.table),
      ['tracking_events', 'operation_audit'],
    );
  });

  it('puts a row in the partition of its month, and a row no month takes in the default one', async () => {
    const now = new Date();
    await insertEvents(handle.db, [event('HIST-NOW', 'e1', now), event('HIST-FAR', 'e1', utc('2040-06-10'))]);
    const label = now.toISOString().slice(0, 7).replace('-', '_');
    assert.deepEqual(await partitionOf('HIST-NOW', 'e1'), [`tracking_events_${label}`]);
    assert.deepEqual(await partitionOf('HIST-FAR', 'e1'), ['tracking_events_default']);
  });

  it('creates the current month and the months ahead, harmlessly twice and from two instances at once', async () => {
    const second = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      const now = utc('2031-03-17');
      const [one, other] = await Promise.all([
        ensureMonthPartitions(handle.db, TRACKING_HISTORY, now),
        ensureMonthPartitions(second.db, TRACKING_HISTORY, now),
      ]);
      const created = [...one, ...other].map((partition) => partition.name).sort();
      assert.deepEqual(created, [
        'tracking_events_2031_03',
        'tracking_events_2031_04',
        'tracking_events_2031_05',
        'tracking_events_2031_06',
      ]);
      assert.equal(created.length, MONTHS_AHEAD + 1);
      assert.deepEqual(await ensureMonthPartitions(handle.db, TRACKING_HISTORY, now), []);
      const months = (await monthPartitions(handle.db, TRACKING_HISTORY)).map((p) => p.name);
      for (const name of created) assert.ok(months.includes(name), name);
      // The audit's own maintenance, on the same terms.
      const audit = await ensureMonthPartitions(handle.db, AUDIT_HISTORY, now);
      assert.deepEqual(
        audit.map((partition) => partition.name),
        [
          'operation_audit_2031_03',
          'operation_audit_2031_04',
          'operation_audit_2031_05',
          'operation_audit_2031_06',
        ],
      );
    } finally {
      await second.close();
    }
  });

  it('creates a partition beside a writer that changed a table the history refers to, then writes the history', async () => {
    // A writer's order: a business's row (the history's foreign keys refer to it), then its history.
    const writer = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const upkeep = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let changed!: () => void;
      const businessChanged = new Promise<void>((resolve) => {
        changed = resolve;
      });
      const writing = writer.db.transaction().execute(async (trx) => {
        await sql`UPDATE businesses SET name = 'History, renamed' WHERE id = ${businessId}`.execute(trx);
        changed();
        await released;
        await insertEvents(trx, [event('HIST-BESIDE', 'e1', utc('2041-03-05'))]);
      });
      await businessChanged;
      const creating = createMonthPartition(upkeep.db, TRACKING_HISTORY, utc('2041-03-01'));
      // The partition's creation waits for the writer; then the writer writes its history.
      for (let waiting = 0; waiting === 0; ) {
        waiting = (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`.execute(
            handle.db,
          )
        ).rows[0]!.n;
      }
      release();
      await writing;
      assert.equal((await creating)?.name, 'tracking_events_2041_03');
      assert.deepEqual(await partitionOf('HIST-BESIDE', 'e1'), ['tracking_events_2041_03']);
    } finally {
      await writer.close();
      await upkeep.close();
    }
  });

  it("moves rows out of the default partition when their month's partition is created", async () => {
    const [before] = (
      await sql<{ id: number }>`SELECT id FROM tracking_events WHERE tracking_number = 'HIST-FAR'`.execute(
        handle.db,
      )
    ).rows;
    const created = await ensureMonthPartitions(handle.db, TRACKING_HISTORY, utc('2040-05-02'));
    assert.deepEqual(
      created.map(({ name, moved }) => ({ name, moved })),
      [
        { name: 'tracking_events_2040_05', moved: 0 },
        { name: 'tracking_events_2040_06', moved: 1 },
        { name: 'tracking_events_2040_07', moved: 0 },
        { name: 'tracking_events_2040_08', moved: 0 },
      ],
    );
    assert.deepEqual(await partitionOf('HIST-FAR', 'e1'), ['tracking_events_2040_06']);
    const [afterwards] = (
      await sql<{ id: number }>`SELECT id FROM tracking_events WHERE tracking_number = 'HIST-FAR'`.execute(
        handle.db,
      )
    ).rows;
    assert.equal(afterwards!.id, before!.id);
    // The moved-into partition has the parent's indexes and foreign key, as any other.
    const { rows } = await sql<{ indexes: number; keys: number }>`
      SELECT (SELECT count(*)::int FROM pg_index WHERE indrelid = 'tracking_events_2040_06'::regclass) AS indexes,
        (SELECT count(*)::int FROM pg_constraint WHERE conrelid = 'tracking_events_2040_06'::regclass
          AND contype = 'f') AS keys`.execute(handle.db);
    assert.deepEqual(rows[0], { indexes: 2, keys: 1 });
  });

  it('refuses a duplicate event: again later, twice in one request, from two writers at once, across months', async () => {
    const first = await insertEvents(handle.db, [event('HIST-DUP', 'd1', utc('2031-03-20'))]);
    assert.equal(first.length, 1);
    // The same key recorded in another month is still the same event.
    assert.deepEqual(await insertEvents(handle.db, [event('HIST-DUP', 'd1', utc('2031-05-02'))]), []);
    const batch = await insertEvents(handle.db, [
      event('HIST-DUP', 'd2', utc('2031-03-21'), 'first'),
      event('HIST-DUP', 'd2', utc('2031-03-21'), 'second'),
    ]);
    assert.deepEqual(
      batch.map((row) => row.status_code),
      ['first'],
    );
    const second = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    try {
      const racing = await Promise.all([
        insertEvents(handle.db, [event('HIST-DUP', 'd3', utc('2031-03-22'))]),
        insertEvents(second.db, [event('HIST-DUP', 'd3', utc('2031-04-22'))]),
      ]);
      assert.equal(racing.flat().length, 1);
    } finally {
      await second.close();
    }
    const { rows } = await sql<{ event_id: string; copies: number }>`
      SELECT event_id, count(*)::int AS copies FROM tracking_events WHERE tracking_number = 'HIST-DUP'
      GROUP BY event_id ORDER BY event_id`.execute(handle.db);
    assert.deepEqual(rows, [
      { event_id: 'd1', copies: 1 },
      { event_id: 'd2', copies: 1 },
      { event_id: 'd3', copies: 1 },
    ]);
  });

  it('detaches the months before a date with `tms history detach`, leaving the rest of the history as it read', async () => {
    await createMonthPartition(handle.db, TRACKING_HISTORY, utc('2025-01-01'));
    await createMonthPartition(handle.db, TRACKING_HISTORY, utc('2025-02-01'));
    await insertEvents(handle.db, [
      event('HIST-OLD', 'o1', utc('2025-01-10'), 'created'),
      event('HIST-OLD', 'o2', utc('2025-02-10'), 'in_transit'),
    ]);
    const page = { offset: 0, limit: 50 };
    const kept = await newestEventsOf(handle.db, ['HIST-DUP', 'HIST-NOW', 'HIST-FAR'], page);

    const refused = await cli('history', 'detach', '--before', '2099-01');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /current month .* detach months before it only/);

    const run = await cli('history', 'detach', '--before', '2025-02');
    assert.equal(run.code, undefined, run.stderr);
    assert.match(
      run.stdout,
      /tracking_events: detaching the months before 2025-02\n {2}detached tracking_events_2025_01\n/,
    );
    assert.match(run.stdout, /operation_audit: detaching the months before 2025-02\n {2}none attached\n/);
    assert.match(run.stdout, /Detached 1 partitions; they remain as tables \(tracking_events_2025_01\)/);

    // Detached, not dropped: the table keeps its rows for the operator.
    const { rows } = await sql<{ event_id: string }>`SELECT event_id FROM tracking_events_2025_01`.execute(
      handle.db,
    );
    assert.deepEqual(rows, [{ event_id: 'o1' }]);
    const old = await newestEventsOf(handle.db, ['HIST-OLD'], page);
    assert.deepEqual(
      old.map((row) => row.event_id),
      ['o2'],
    );
    assert.deepEqual(await newestEventsOf(handle.db, ['HIST-DUP', 'HIST-NOW', 'HIST-FAR'], page), kept);
    // Its keys stay: an event of a detached month sent again is still a duplicate.
    assert.deepEqual(await insertEvents(handle.db, [event('HIST-OLD', 'o1', new Date())]), []);

    const again = await cli('history', 'detach', '--before', '2025-02');
    assert.equal(again.code, undefined, again.stderr);
    assert.match(again.stdout, /Nothing to detach before 2025-02\./);
  });
});
