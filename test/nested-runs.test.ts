import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { Executor, type Invocation } from '../src/platform/catalog/executor.ts';
import { defineOperation, type OperationContext } from '../src/platform/catalog/operation.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { AppError, isAppError } from '../src/platform/errors.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant } from './support/fixtures.ts';

/**
 * Runs inside runs (an approval running its proposal, a GraphQL document run by a tool): whatever
 * the depth, a run undone (a failure, a dry run) undoes everything it wrote, and nothing of the
 * runs around it.
 */
describe('nested operation runs', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let executor: Executor;
  let token: string;

  const business = async (ctx: OperationContext, code: string) => {
    await ctx.db
      .insertInto('businesses')
      .values({ code, name: code, time_zone: 'UTC', created_at: ctx.clock.now() })
      .execute();
  };
  /** Writes a business, then fails. */
  const failing = defineOperation({
    name: 'write_then_fail',
    summary: 'test',
    tag: 'Test',
    kind: 'mutation',
    risk: 'low',
    access: { kinds: 'any' },
    input: z.object({ code: z.string() }),
    output: z.object({}),
    handler: async (ctx, input) => {
      await business(ctx, input.code);
      throw new AppError('BAD_REQUEST');
    },
  });
  /** Writes a business, runs `failing` inside itself and notes its refusal, then writes another: as an approval does. */
  const around = defineOperation({
    name: 'write_around_a_failure',
    summary: 'test',
    tag: 'Test',
    kind: 'mutation',
    risk: 'low',
    access: { kinds: 'any' },
    input: z.object({ code: z.string() }),
    output: z.object({ inner: z.string() }),
    handler: async (ctx, input) => {
      await business(ctx, `${input.code}-before`);
      let inner = 'ran';
      try {
        await executor.runWithin(ctx, failing, { code: `${input.code}-inner` });
      } catch (error) {
        if (!isAppError(error)) throw error;
        inner = error.code;
      }
      await business(ctx, `${input.code}-after`);
      return { inner };
    },
  });
  /** Previews `around` inside itself (a dry run of an approval, as a proposal's preview is). */
  const previewing = defineOperation({
    name: 'preview_around',
    summary: 'test',
    tag: 'Test',
    kind: 'mutation',
    risk: 'low',
    access: { kinds: 'any' },
    input: z.object({ code: z.string() }),
    output: z.object({ preview: z.unknown() }),
    handler: async (ctx, input) => ({
      preview: await executor.runWithin(ctx, around, input, { preview: true }),
    }),
  });

  const as = (extra: Partial<Invocation> = {}): Invocation => ({
    bearer: token,
    door: 'cli',
    lang: 'en',
    requestId: 'nested-1',
    ...extra,
  });
  const codesLike = async (prefix: string) =>
    (
      await handle.db
        .selectFrom('businesses')
        .select('code')
        .where('code', 'like', `${prefix}-%`)
        .orderBy('code')
        .execute()
    ).map((row) => row.code);

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const clock = new ManualClock();
    const services = createServices(loadConfig({}), clock);
    executor = new Executor({ db: handle.db, clock, authenticate: services.accounts.authenticate });
    const tenant = await createTenant(handle.db, services, 'nested');
    token = (
      await services.accounts.issueToken(handle.db, { userId: tenant.userIds.client_admin, kind: 'personal' })
    ).token;
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('a failed inner run undoes its own writes only', async () => {
    const answer = await executor.execute(around, { code: 'kept' }, as());
    assert.deepEqual(answer, { inner: 'BAD_REQUEST' });
    assert.deepEqual(await codesLike('kept'), ['kept-after', 'kept-before']);
  });

  it('a preview around a failed inner run keeps nothing, though the call around it commits', async () => {
    const answer = (await executor.execute(previewing, { code: 'seen' }, as())) as {
      preview: { inner: string; dry_run: boolean };
    };
    assert.equal(answer.preview.inner, 'BAD_REQUEST');
    assert.equal(answer.preview.dry_run, true);
    assert.deepEqual(await codesLike('seen'), []);
  });

  it('a dry run of the whole call keeps nothing at any depth', async () => {
    await executor.execute(previewing, { code: 'dry' }, as({ dryRun: true }));
    await executor.execute(around, { code: 'dry2' }, as({ dryRun: true }));
    assert.deepEqual(await codesLike('dry'), []);
    assert.deepEqual(await codesLike('dry2'), []);
  });
});
