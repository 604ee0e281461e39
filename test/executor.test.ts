import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { Executor, type Invocation } from '../src/platform/catalog/executor.ts';
import { defineOperation } from '../src/platform/catalog/operation.ts';
import { Catalog } from '../src/platform/catalog/registry.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { AppError } from '../src/platform/errors.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, type Tenant } from './support/fixtures.ts';

/** Operations made for exercising the executor's rules, run against the real database. */
const whoAmI = defineOperation({
  name: 'who_am_i',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { kinds: ['client_admin', 'employee'], scopes: ['orders:read'] },
  input: z.object({ echo: z.string().max(5) }),
  output: z.object({ user: z.int(), echo: z.string() }),
  handler: async (ctx, input) => ({
    user: ctx.caller!.userId,
    echo: input.echo,
    password_hash: 'must not leak',
  }),
});

const createBusiness = defineOperation({
  name: 'create_business_then',
  summary: 'test',
  tag: 'Test',
  kind: 'mutation',
  risk: 'high',
  access: { kinds: 'any', scopes: ['orders:write'] },
  input: z.object({ code: z.string(), fail: z.boolean().default(false) }),
  output: z.object({ id: z.int() }),
  handler: async (ctx, input) => {
    const row = await ctx.db
      .insertInto('businesses')
      .values({ code: input.code, name: input.code, time_zone: 'UTC', created_at: ctx.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.fail) throw new AppError('BAD_REQUEST');
    return { id: row.id };
  },
});

const brokenContract = defineOperation({
  name: 'broken_contract',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { public: true },
  input: z.object({}),
  output: z.object({ count: z.int() }),
  handler: async () => ({ count: 'many' }) as unknown as { count: number },
});

/** Answers which media type reached it: only one it declares may. */
const labelled = defineOperation({
  name: 'labelled',
  summary: 'test',
  tag: 'Test',
  kind: 'query',
  risk: 'low',
  access: { public: true },
  representations: ['application/pdf'],
  input: z.object({}),
  output: z.object({ representation: z.string().nullable() }),
  handler: async (ctx) => ({ representation: ctx.representation ?? null }),
});

describe('the operation executor', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let executor: Executor;
  let tenant: Tenant;
  let tokens: { admin: string; driver: string; readonlyAgent: string; writer: string };

  const as = (bearer: string | undefined, extra: Partial<Invocation> = {}): Invocation => ({
    bearer,
    door: 'cli',
    lang: 'en',
    requestId: 'req-1',
    ...extra,
  });
  const businessExists = async (code: string) =>
    (await handle.db.selectFrom('businesses').select('id').where('code', '=', code).executeTakeFirst()) !==
    undefined;

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const clock = new ManualClock();
    const services = createServices(loadConfig({}), clock);
    executor = new Executor({ db: handle.db, clock, authenticate: services.accounts.authenticate });
    tenant = await createTenant(handle.db, services, 'exec');
    const issue = async (
      kind: 'client_admin' | 'driver',
      options: { profile?: string; scopes?: string[] } = {},
    ) =>
      (
        await services.accounts.issueToken(handle.db, {
          userId: tenant.userIds[kind],
          kind: 'personal',
          ...options,
        })
      ).token;
    tokens = {
      admin: await issue('client_admin'),
      driver: await issue('driver'),
      readonlyAgent: await issue('client_admin', { profile: 'ops-readonly' }),
      writer: await issue('driver', { scopes: ['orders:write'] }),
    };
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('lets an allowed kind with the scope through, and keeps only the fields the output declares', async () => {
    const result = await executor.execute(whoAmI, { echo: 'hi' }, as(tokens.admin));
    assert.deepEqual(result, { user: tenant.userIds.client_admin, echo: 'hi' });
    const viaProfile = await executor.execute(whoAmI, { echo: 'hi' }, as(tokens.readonlyAgent));
    assert.deepEqual(viaProfile, { user: tenant.userIds.client_admin, echo: 'hi' });
  });

  it('hands an operation the media type a door negotiated only when the operation declares it', async () => {
    const asked = (representation: string | undefined) =>
      executor.execute(labelled, {}, as(undefined, { representation }));
    assert.deepEqual(await asked('application/pdf'), { representation: 'application/pdf' });
    assert.deepEqual(await asked('text/csv'), { representation: null });
    assert.deepEqual(await asked(undefined), { representation: null });
  });

  it('refuses a missing token, a wrong account kind and a missing scope', async () => {
    await assert.rejects(executor.execute(whoAmI, { echo: 'x' }, as(undefined)), { code: 'UNAUTHENTICATED' });
    await assert.rejects(executor.execute(whoAmI, { echo: 'x' }, as(tokens.driver)), { code: 'FORBIDDEN' });
    await assert.rejects(
      executor.execute(createBusiness, { code: 'nope' }, as(tokens.readonlyAgent)),
      (error: AppError) => {
        assert.equal(error.code, 'INSUFFICIENT_SCOPE');
        assert.deepEqual(error.options.details, { missing: ['orders:write'] });
        return true;
      },
    );
    assert.equal(await businessExists('nope'), false);
  });

  it('validates input before running, naming each field, in the requested language', async () => {
    await assert.rejects(
      executor.execute(whoAmI, { echo: 'too long' }, as(tokens.admin, { lang: 'de' })),
      (error: AppError) => {
        assert.equal(error.code, 'VALIDATION_FAILED');
        const fields = error.options.details?.fields as Array<{ field: string; message: string }>;
        assert.equal(fields[0]?.field, 'echo');
        assert.match(fields[0]?.message ?? '', /Zu groß/);
        return true;
      },
    );
  });

  it('commits a mutation with its audit row, and rolls back a failed one completely', async () => {
    const made = (await executor.execute(createBusiness, { code: 'kept' }, as(tokens.writer))) as {
      id: number;
    };
    assert.equal(await businessExists('kept'), true);
    const audit = await handle.db
      .selectFrom('operation_audit')
      .selectAll()
      .where('operation', '=', 'create_business_then')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor_user_id, tenant.userIds.driver);
    assert.equal(audit[0]!.door, 'cli');
    assert.ok(made.id > 0);

    await assert.rejects(executor.execute(createBusiness, { code: 'lost', fail: true }, as(tokens.writer)), {
      code: 'BAD_REQUEST',
    });
    assert.equal(await businessExists('lost'), false);
  });

  it('answers a dry run with the result and keeps nothing', async () => {
    const preview = (await executor.execute(
      createBusiness,
      { code: 'preview' },
      as(tokens.admin, { dryRun: true }),
    )) as {
      id: number;
    };
    assert.ok(preview.id > 0);
    assert.equal(await businessExists('preview'), false);
  });

  it('treats an output that breaks its contract as the server fault it is', async () => {
    await assert.rejects(executor.execute(brokenContract, {}, as(undefined)), /broke its output contract/);
  });

  it("asks an operation's module switch after authentication and before the input", async () => {
    const calls: Array<{ feature: string; user: number; use: string; input: unknown }> = [];
    let on = false;
    const gated = new Executor({
      db: handle.db,
      clock: new ManualClock(),
      authenticate: createServices(loadConfig({}), new ManualClock()).accounts.authenticate,
      requireFeature: async (_db, call) => {
        calls.push({ feature: call.feature, user: call.caller.userId, use: call.use, input: call.input });
        if (!on) throw new AppError('MODULE_DISABLED');
      },
    });
    const inModule = { ...whoAmI, name: 'who_am_i_in_module', feature: 'test_module' };
    await assert.rejects(gated.execute(inModule, { echo: 'far too long' }, as(undefined)), {
      code: 'UNAUTHENTICATED',
    });
    assert.deepEqual(calls, [], 'no switch is asked for an unknown caller');
    await assert.rejects(gated.execute(inModule, { echo: 'far too long' }, as(tokens.admin)), {
      code: 'MODULE_DISABLED',
    });
    assert.deepEqual(calls, [
      {
        feature: 'test_module',
        user: tenant.userIds.client_admin,
        use: 'read',
        input: { echo: 'far too long' },
      },
    ]);
    on = true;
    await assert.rejects(gated.execute(inModule, { echo: 'far too long' }, as(tokens.admin)), {
      code: 'VALIDATION_FAILED',
    });
    assert.deepEqual(await gated.execute(inModule, { echo: 'hi' }, as(tokens.admin)), {
      user: tenant.userIds.client_admin,
      echo: 'hi',
    });
    // Without a gate, an operation of a module is a wiring fault, not a pass.
    await assert.rejects(executor.execute(inModule, { echo: 'hi' }, as(tokens.admin)), /no gate checks/);
    // Switches are per business: a public operation cannot belong to one.
    assert.throws(
      () => new Catalog().register([{ ...brokenContract, feature: 'test_module' }]),
      /belongs to a feature but has no account access/,
    );
  });
});
