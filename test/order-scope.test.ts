import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { demoContext } from '../src/demo/context.ts';
import { OrderQueries } from '../src/modules/orders/queries.ts';
import type { ContractorPools } from '../src/modules/orders/views.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, DROPOFF, type Tenant } from './support/fixtures.ts';

// Staff see their whole business: reading orders asks the contractors module for nothing. Only a
// contractor's reads are bounded by its rules and assignments, and only the planning pool asks
// who holds the orders it found.

describe('the order scope of staff', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let tenant: Tenant;
  let services: ReturnType<typeof createServices>;
  const clock = new ManualClock();
  const asked: string[] = [];

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    services = createServices(loadConfig({}), clock);
    tenant = await createTenant(handle.db, services, 'scope');
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  const recordingPools = (holders: Map<number, number>): ContractorPools => ({
    boundsOf: async () => {
      asked.push('boundsOf');
      return { assignedToCaller: [], assignedElsewhere: [] };
    },
    holdersOf: async (_db, _business, orderIds) => {
      asked.push('holdersOf');
      return new Map([...holders].filter(([order]) => orderIds.includes(order)));
    },
  });

  it('reads orders without asking for contractor bounds, and plans without orders a contractor holds', async () => {
    const staff = demoContext(handle.db, clock, {
      userId: tenant.userIds.client_admin,
      kind: 'client_admin',
      businessId: tenant.businessId,
    });
    const date = '2026-03-02';
    // Orders are created in a transaction, as every write is.
    const created = await handle.db.transaction().execute((trx) =>
      services.orders.intake.create({ ...staff, db: trx }, [
        { family: 'local_delivery', scheduled_date: date, dropoff: DROPOFF },
        { family: 'local_delivery', scheduled_date: date, dropoff: DROPOFF },
      ]),
    );
    const [held, free] = created.map((order) => order.id);
    const queries = new OrderQueries(clock, services.accounts, recordingPools(new Map([[held!, 999]])));

    const listed = await queries.list(staff, { page: 1, per_page: 10 });
    assert.equal(listed.total, 2);
    assert.equal((await queries.detail(staff, held!)).id, held);
    assert.deepEqual(asked, []);

    const pool = await queries.planningPool(staff, await queries.scopeOf(staff), date);
    assert.deepEqual(
      pool.map((order) => order.id),
      [free],
    );
    assert.deepEqual(asked, ['holdersOf']);
  });
});
