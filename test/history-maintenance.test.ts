import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { HISTORIES } from '../src/history.ts';
import { monthPartitions } from '../src/platform/db/partitions.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`not within 30 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('partitioned history: the service makes the months ahead as it starts', () => {
  let server: TestServer;
  let second: TestInstance | undefined;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await second?.close();
    await server.close();
  });

  it('creates the current month and three ahead of both tables from two instances at once, moving a waiting row', async () => {
    server.clock.set(new Date('2035-01-10T08:00:00Z'));
    const business = await sql<{ id: number }>`INSERT INTO businesses (code, name, created_at)
      VALUES ('ahead', 'Ahead', now()) RETURNING id`.execute(server.db);
    // Recorded while no partition took January 2035: it waits in the default partition.
    await sql`INSERT INTO operation_audit (at, operation, door, business_id)
      VALUES ('2035-01-09T10:00:00Z', 'early', 'rest', ${business.rows[0]!.id})`.execute(server.db);
    const where = async () =>
      (
        await sql<{ partition: string }>`SELECT tableoid::regclass::text AS partition FROM operation_audit
          WHERE operation = 'early'`.execute(server.db)
      ).rows[0]!.partition;
    assert.equal(await where(), 'operation_audit_default');

    const [, instance] = await Promise.all([server.app.startBackground(server.pool), startInstance(server)]);
    second = instance;
    const wanted = (table: string) =>
      ['2035_01', '2035_02', '2035_03', '2035_04'].map((m) => `${table}_${m}`);
    for (const history of HISTORIES) {
      await until(async () => {
        const names = (await monthPartitions(server.db, history)).map((partition) => partition.name);
        return wanted(history.table).every((name) => names.includes(name));
      }, `the months ahead of ${history.table}`);
    }
    assert.equal(await where(), 'operation_audit_2035_01');
  });
});
