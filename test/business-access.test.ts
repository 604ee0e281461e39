import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { Executor, type Invocation } from '../src/platform/catalog/executor.ts';
import { businessOf, defineOperation } from '../src/platform/catalog/operation.ts';
import { Catalog } from '../src/platform/catalog/registry.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { actingBusinessParam, idParam } from '../src/platform/schemas.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, type Tenant } from './support/fixtures.ts';

// Whose objects a call acts on is declared on the operation and resolved by the executor, once,
// before the handler runs (Access.business, Access.customer).

const actingIn = defineOperation({
  name: 'acting_in',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { kinds: ['client_admin', 'contractor'], scopes: ['orders:read'], business: 'acting' },
  input: z.object({ business_id: actingBusinessParam }),
  output: z.object({ business: z.int() }),
  handler: async (ctx) => ({ business: businessOf(ctx) }),
});

const ownBusiness = defineOperation({
  name: 'own_business',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { kinds: ['client_admin', 'contractor'], scopes: ['orders:read'] },
  input: z.object({}),
  output: z.object({ business: z.int() }),
  handler: async (ctx) => ({ business: businessOf(ctx) }),
});

const aboutCustomer = defineOperation({
  name: 'about_customer',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { kinds: ['client_admin'], scopes: ['orders:read'], customer: 'customer_id' },
  input: z.object({ customer_id: idParam }),
  output: z.object({ customer: z.int() }),
  handler: async (_ctx, input) => ({ customer: input.customer_id }),
});

describe('business access declared on operations', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let executor: Executor;
  let north: Tenant;
  let south: Tenant;
  let tokens: { admin: string; contractor: string };
  const as = (bearer: string): Invocation => ({ bearer, door: 'cli', lang: 'en', requestId: 'req' });

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const clock = new ManualClock();
    const services = createServices(loadConfig({}), clock);
    executor = new Executor({
      db: handle.db,
      clock,
      authenticate: services.accounts.authenticate,
      businessAccess: services.accounts,
    });
    north = await createTenant(handle.db, services, 'north');
    south = await createTenant(handle.db, services, 'south');
    const issue = async (userId: number) =>
      (await services.accounts.issueToken(handle.db, { userId, kind: 'personal' })).token;
    tokens = {
      admin: await issue(north.userIds.client_admin),
      contractor: await issue(north.userIds.contractor),
    };
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('lets staff act in their own business whatever business_id says', async () => {
    assert.deepEqual(await executor.execute(actingIn, {}, as(tokens.admin)), { business: north.businessId });
    assert.deepEqual(await executor.execute(actingIn, { business_id: south.businessId }, as(tokens.admin)), {
      business: north.businessId,
    });
  });

  it('lets a contractor act only in a business its company works for', async () => {
    assert.deepEqual(
      await executor.execute(actingIn, { business_id: north.businessId }, as(tokens.contractor)),
      {
        business: north.businessId,
      },
    );
    // The fixture's contractor company works for north alone: naming it is optional.
    assert.deepEqual(await executor.execute(actingIn, {}, as(tokens.contractor)), {
      business: north.businessId,
    });
    await assert.rejects(
      executor.execute(actingIn, { business_id: south.businessId }, as(tokens.contractor)),
      {
        code: 'FORBIDDEN',
      },
    );
  });

  it('refuses an account without a business where the operation acts in the caller’s own', async () => {
    assert.deepEqual(await executor.execute(ownBusiness, {}, as(tokens.admin)), {
      business: north.businessId,
    });
    await assert.rejects(executor.execute(ownBusiness, {}, as(tokens.contractor)), { code: 'FORBIDDEN' });
  });

  it('refuses a customer of another business, or an account that is no customer', async () => {
    assert.deepEqual(
      await executor.execute(aboutCustomer, { customer_id: north.userIds.customer }, as(tokens.admin)),
      {
        customer: north.userIds.customer,
      },
    );
    for (const stranger of [south.userIds.customer, north.userIds.driver]) {
      await assert.rejects(executor.execute(aboutCustomer, { customer_id: stranger }, as(tokens.admin)), {
        code: 'CUSTOMER_NOT_FOUND',
      });
    }
  });

  it('refuses to register an operation whose business or customer field nobody would check', () => {
    assert.throws(
      () =>
        new Catalog().register([{ ...actingIn, access: { kinds: ['contractor'], scopes: ['orders:read'] } }]),
      /business_id input goes with access.business 'acting'/,
    );
    assert.throws(
      () =>
        new Catalog().register([
          {
            ...ownBusiness,
            access: { kinds: ['client_admin'], scopes: ['orders:read'], customer: 'customer_id' },
          },
        ]),
      /access.customer names customer_id/,
    );
  });
});
