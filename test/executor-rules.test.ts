import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { Executor, type Invocation } from '../src/platform/catalog/executor.ts';
import { defineOperation, type Operation } from '../src/platform/catalog/operation.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { AppError, featureDisabled } from '../src/platform/errors.ts';
import { errorBody } from '../src/platform/http/errors.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';
import { createTenant, type Tenant } from './support/fixtures.ts';

// Rules the executor applies to every operation on every door: a high-risk call through the agent
// door must be confirmed; what PostgreSQL refuses becomes a documented code, never a 500; a write
// stopped by a concurrent writer is tried once more, unless it already acted outside.

const mutation = (name: string, handler: Operation['handler'], extra: Partial<Operation> = {}): Operation =>
  defineOperation({
    name,
    summary: 'test',
    tag: 'Test',
    kind: 'mutation',
    risk: 'low',
    access: { kinds: ['client_admin'], scopes: ['orders:write'] },
    input: z.object({ value: z.string().optional() }),
    output: z.object({ ok: z.literal(true) }),
    handler: handler as never,
    ...extra,
  });

describe('executor rules', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let executor: Executor;
  let services: ReturnType<typeof createServices>;
  let tenant: Tenant;
  let admin: string;
  const as = (extra: Partial<Invocation> = {}): Invocation => ({
    bearer: admin,
    door: 'rest',
    lang: 'en',
    requestId: 'req',
    ...extra,
  });

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const clock = new ManualClock();
    services = createServices(loadConfig({}), clock);
    executor = new Executor({ db: handle.db, clock, authenticate: services.accounts.authenticate });
    tenant = await createTenant(handle.db, services, 'rules');
    admin = (
      await services.accounts.issueToken(handle.db, { userId: tenant.userIds.client_admin, kind: 'personal' })
    ).token;
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('refuses a high-risk call through the agent door until it is confirmed', async () => {
    const risky = mutation('risky', async () => ({ ok: true }), { risk: 'high', confirm: true });
    await assert.rejects(executor.execute(risky, {}, as({ door: 'mcp' })), {
      code: 'CONFIRMATION_REQUIRED',
      status: 428,
    });
    assert.deepEqual(await executor.execute(risky, {}, as({ door: 'mcp', confirmed: true })), { ok: true });
    assert.equal(
      ((await executor.execute(risky, {}, as({ door: 'mcp', dryRun: true }))) as { ok: true }).ok,
      true,
    );
    // A person's token over REST: the people in front of it confirmed in their own interface.
    assert.deepEqual(await executor.execute(risky, {}, as()), { ok: true });
  });

  it('asks for confirmation after who calls, and before the input', async () => {
    const risky = mutation('risky_ordered', async () => ({ ok: true }), {
      risk: 'high',
      confirm: true,
      input: z.object({ value: z.string() }),
    });
    // A caller who may not call it learns that, not that it should confirm.
    await assert.rejects(executor.execute(risky, { value: 'x' }, as({ door: 'mcp', bearer: undefined })), {
      code: 'UNAUTHENTICATED',
    });
    const narrow = (
      await services.accounts.issueToken(handle.db, {
        userId: tenant.userIds.client_admin,
        kind: 'personal',
        scopes: ['orders:read'],
      })
    ).token;
    await assert.rejects(executor.execute(risky, { value: 'x' }, as({ door: 'mcp', bearer: narrow })), {
      code: 'SCOPE_REQUIRED',
    });
    // An unconfirmed call is refused whatever its input, and names the operation.
    await assert.rejects(executor.execute(risky, {}, as({ door: 'mcp' })), (error) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'CONFIRMATION_REQUIRED');
      assert.deepEqual(error.options.details, { operation: 'risky_ordered' });
      return true;
    });
    await assert.rejects(executor.execute(risky, {}, as({ door: 'mcp', confirmed: true })), {
      code: 'VALIDATION_FAILED',
    });
  });

  it('answers a duplicate, a missing reference and an unstorable value in documented codes', async () => {
    const duplicate = mutation('duplicate_business', async (ctx) => {
      await ctx.db
        .insertInto('businesses')
        .values({ code: tenant.code, name: 'again', time_zone: 'UTC', created_at: new Date() })
        .execute();
      return { ok: true };
    });
    await assert.rejects(executor.execute(duplicate, {}, as()), { code: 'ALREADY_EXISTS', status: 409 });

    const dangling = mutation('dangling_depot', async (ctx) => {
      await ctx.db
        .insertInto('depots')
        .values({ business_id: 987_654, name: 'nowhere', lat: 0, lng: 0 })
        .execute();
      return { ok: true };
    });
    await assert.rejects(executor.execute(dangling, {}, as()), { code: 'REFERENCE_CONFLICT', status: 409 });

    const overflowing = mutation('overflowing_weight', async (ctx) => {
      await sql`select ${'99999999999'}::int`.execute(ctx.db);
      return { ok: true };
    });
    await assert.rejects(executor.execute(overflowing, {}, as()), { code: 'INVALID_VALUE', status: 422 });

    const offTheMap = mutation('depot_off_the_map', async (ctx) => {
      await ctx.db
        .insertInto('depots')
        .values({ business_id: tenant.businessId, name: 'north of north', lat: 91, lng: 0 })
        .execute();
      return { ok: true };
    });
    await assert.rejects(executor.execute(offTheMap, {}, as()), { code: 'INVALID_VALUE', status: 422 });
  });

  it('keeps table, column and constraint names out of the refusal', async () => {
    const duplicate = mutation('duplicate_business_code', async (ctx) => {
      await ctx.db
        .insertInto('businesses')
        .values({ code: tenant.code, name: 'again', time_zone: 'UTC', created_at: new Date() })
        .execute();
      return { ok: true };
    });
    const refusal = await executor.execute(duplicate, {}, as()).then(
      () => assert.fail('the insert ran'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof AppError);
    const told = JSON.stringify(errorBody(refusal, 'en', 'req'));
    assert.doesNotMatch(told, /businesses|_key|code\)|duplicate key|constraint/i);
  });

  it('tries a write stopped by a concurrent writer once more, and both land', async () => {
    // Two serializable transactions read the same rows, then both write: PostgreSQL stops one.
    let attempts = 0;
    let bothRead!: () => void;
    const read = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    let readers = 0;
    const contended = mutation('contended_depot', async (ctx, input) => {
      attempts++;
      await sql`SET TRANSACTION ISOLATION LEVEL SERIALIZABLE`.execute(ctx.db);
      await ctx.db.selectFrom('depots').select('id').where('business_id', '=', tenant.businessId).execute();
      if (++readers === 2) bothRead();
      await read;
      await ctx.db
        .insertInto('depots')
        .values({ business_id: tenant.businessId, name: (input as { value: string }).value, lat: 1, lng: 1 })
        .execute();
      return { ok: true };
    });
    const results = await Promise.all([
      executor.execute(contended, { value: 'first' }, as()),
      executor.execute(contended, { value: 'second' }, as()),
    ]);
    assert.deepEqual(results, [{ ok: true }, { ok: true }]);
    assert.equal(attempts, 3);
  });

  it('tries a write that lost a deadlock once more, and both land', async () => {
    // Two writers update the same two rows in opposite orders: PostgreSQL ends one of them.
    const depot = async (name: string) =>
      (
        await handle.db
          .insertInto('depots')
          .values({ business_id: tenant.businessId, name, lat: 0, lng: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [east, west] = [await depot('east'), await depot('west')];
    let attempts = 0;
    let holders = 0;
    let bothHold!: () => void;
    const held = new Promise<void>((resolve) => {
      bothHold = resolve;
    });
    const crossing = mutation('crossing_updates', async (ctx, input) => {
      attempts++;
      const order = (input as { value: string }).value === 'east first' ? [east, west] : [west, east];
      const touch = (id: number) =>
        ctx.db
          .updateTable('depots')
          .set({ name: `touched ${attempts}` })
          .where('id', '=', id)
          .execute();
      await touch(order[0]!);
      if (++holders === 2) bothHold();
      await held;
      await touch(order[1]!);
      return { ok: true };
    });
    const results = await Promise.all([
      executor.execute(crossing, { value: 'east first' }, as()),
      executor.execute(crossing, { value: 'west first' }, as()),
    ]);
    assert.deepEqual(results, [{ ok: true }, { ok: true }]);
    assert.equal(attempts, 3);
  });

  it('gives up after the second try with 409 CONCURRENT_UPDATE', async () => {
    let attempts = 0;
    const contested = mutation('always_contested', async () => {
      attempts++;
      throw Object.assign(new Error('could not serialize access due to concurrent update'), {
        code: '40001',
      });
    });
    await assert.rejects(executor.execute(contested, {}, as()), { code: 'CONCURRENT_UPDATE', status: 409 });
    assert.equal(attempts, 2);
  });

  it('does not try again a write that already acted outside the database', async () => {
    let charges = 0;
    const charging = mutation('charging_then_conflict', async (ctx) => {
      await ctx.outside.perform(
        { kind: 'payment', description: 'charge' },
        async () => {
          charges++;
        },
        () => undefined,
      );
      // What PostgreSQL says when it stops a transaction for a concurrent writer.
      throw Object.assign(new Error('could not serialize access due to concurrent update'), {
        code: '40001',
      });
    });
    await assert.rejects(executor.execute(charging, {}, as()), { code: 'CONCURRENT_UPDATE', status: 409 });
    assert.equal(charges, 1);
  });

  it('refuses an opt-in family that is off with 409 and feature_enabled: false, before reading the input', async () => {
    const gated = new Executor({
      db: handle.db,
      clock: new ManualClock(),
      authenticate: services.accounts.authenticate,
      requireFeature: async () => {
        throw featureDisabled('order_chat', 'revoked');
      },
    });
    const chat = defineOperation({
      name: 'post_chat_message',
      summary: 'test',
      tag: 'Test',
      kind: 'mutation',
      risk: 'low',
      feature: 'order_chat',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      input: z.object({ text: z.string().min(1) }),
      output: z.object({ ok: z.literal(true) }),
      handler: async () => ({ ok: true as const }),
    });
    const refusal = await gated.execute(chat, { text: '' }, as()).then(
      () => assert.fail('the call ran'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof AppError);
    assert.equal(refusal.status, 409);
    const body = errorBody(refusal, 'de', 'req');
    assert.equal(body.result, false);
    assert.equal(body.feature_enabled, false);
    assert.equal(body.error_code, 'FEATURE_DISABLED');
    assert.deepEqual(body.details, { feature: 'order_chat', reason: 'revoked' });
    assert.match(body.message, /order_chat/);
  });

  it('answers an anonymous versioned read from the last answer while its version holds', async () => {
    let version = 'v1';
    let builds = 0;
    let versionReads = 0;
    const timeline = defineOperation({
      name: 'public_timeline',
      summary: 'test',
      tag: 'Test',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      input: z.object({ number: z.string() }),
      output: z.object({ built: z.int(), version: z.string() }),
      version: async () => {
        versionReads++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return version;
      },
      handler: async () => ({ built: ++builds, version }),
    });
    const anonymous = as({ bearer: undefined });
    const read = () => executor.execute(timeline, { number: 'A1' }, anonymous);
    assert.deepEqual(await read(), { built: 1, version: 'v1' });
    assert.deepEqual(await read(), { built: 1, version: 'v1' });
    // Readers at the same moment share one version query.
    const before = versionReads;
    await Promise.all([read(), read(), read()]);
    assert.equal(versionReads, before + 1);
    version = 'v2';
    assert.deepEqual(await read(), { built: 2, version: 'v2' });
    // Another number, or a signed-in caller, is built for itself.
    assert.equal(
      ((await executor.execute(timeline, { number: 'B2' }, anonymous)) as { built: number }).built,
      3,
    );
    assert.equal(((await executor.execute(timeline, { number: 'A1' }, as())) as { built: number }).built, 4);
  });
});
