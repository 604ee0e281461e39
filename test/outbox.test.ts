import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/database.ts';
import { enqueue, type OutboxMessage, OutboxWorker } from '../src/platform/outbox/outbox.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS, type TestDatabase } from './support/database.ts';

/** Waits for a condition, polling; fails after the limit (a safety net, not a speed requirement). */
async function eventually(condition: () => Promise<boolean> | boolean, what: string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('the transactional outbox', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const clock = new ManualClock(new Date('2026-11-02T09:30:00Z'));
  const slow = { leaseMs: 60_000, concurrency: 5, perBusiness: 5, pollMs: 3_600_000 };

  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  const pending = async (topic: string) =>
    (
      await handle.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('topic', '=', topic)
        .where('done_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n;

  it('sends nothing for a rolled-back transaction, and wakes a worker on commit without polling', async () => {
    const seen: string[] = [];
    const worker = new OutboxWorker(handle.db, clock, slow).handle('wake', async (m) => {
      seen.push(m.messageId);
      return { done: true };
    });
    await worker.start(handle.pool);
    try {
      await assert.rejects(
        handle.db.transaction().execute(async (trx) => {
          await enqueue(trx, clock, {
            topic: 'wake',
            businessId: null,
            payload: {},
            messageId: 'rolled-back',
          });
          throw new Error('the change fails');
        }),
      );
      await handle.db
        .transaction()
        .execute((trx) =>
          enqueue(trx, clock, { topic: 'wake', businessId: null, payload: { n: 1 }, messageId: 'committed' }),
        );
      // The poll is an hour away: only the commit's notification can wake the worker.
      await eventually(() => seen.includes('committed'), 'the committed message');
      assert.deepEqual(seen, ['committed']);
    } finally {
      await worker.stop();
    }
  });

  it('lets two workers on one database share the work, each message handled once', async () => {
    const handledBy = new Map<string, string[]>();
    const make = (name: string) =>
      new OutboxWorker(handle.db, clock, { ...slow, pollMs: 50, perBusiness: 10 }).handle(
        'shared',
        async (m: OutboxMessage) => {
          await sleep(5);
          handledBy.set(m.messageId, [...(handledBy.get(m.messageId) ?? []), name]);
          return { done: true };
        },
      );
    const [a, b] = [make('a'), make('b')];
    await Promise.all([a.start(handle.pool), b.start(handle.pool)]);
    try {
      for (let i = 0; i < 60; i++) {
        await enqueue(handle.db, clock, {
          topic: 'shared',
          businessId: null,
          payload: { i },
          messageId: `shared-${i}`,
        });
      }
      await eventually(
        async () => (await pending('shared')) === 0 && handledBy.size === 60,
        'all 60 messages',
      );
      assert.ok([...handledBy.values()].every((workers) => workers.length === 1));
      const byA = [...handledBy.values()].filter((w) => w[0] === 'a').length;
      assert.ok(byA > 0 && byA < 60, `both workers took part (a: ${byA})`);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("delivers another business's message at once behind one business's backlog, a few of that one at a time", async () => {
    const [first = 0, second = 0] = await Promise.all(
      ['fair-a', 'fair-b'].map(async (code) =>
        Number(
          (
            await handle.db
              .insertInto('businesses')
              .values({ code, name: code, time_zone: 'UTC', created_at: clock.now() })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        ),
      ),
    );
    let releaseFirst!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
    const started: string[] = [];
    let firstInHand = 0;
    let mostFirstInHand = 0;
    const worker = new OutboxWorker(handle.db, clock, {
      ...slow,
      concurrency: 6,
      perBusiness: 2,
      pollMs: 50,
    }).handle('fair', async (m: OutboxMessage) => {
      started.push(m.messageId);
      if (m.messageId.startsWith('a-')) {
        mostFirstInHand = Math.max(mostFirstInHand, ++firstInHand);
        await firstMayFinish;
        firstInHand--;
      }
      return { done: true };
    });
    for (let i = 0; i < 40; i++) {
      await enqueue(handle.db, clock, {
        topic: 'fair',
        businessId: first,
        payload: { i },
        messageId: `a-${i}`,
      });
    }
    await worker.start(handle.pool);
    try {
      await eventually(() => firstInHand === 2, "the first business's two slots taken");
      // Arrives while the worker holds messages that do not finish: its wake-up must not wait on them.
      await enqueue(handle.db, clock, { topic: 'fair', businessId: second, payload: {}, messageId: 'b-0' });
      await eventually(() => started.includes('b-0'), "the second business's message");
      assert.equal(mostFirstInHand, 2, 'the first business holds its two slots, no more');
      assert.deepEqual(
        started.filter((id) => id.startsWith('a-')),
        ['a-0', 'a-1'],
        'the backlog waits, oldest first',
      );
      releaseFirst();
      await eventually(async () => (await pending('fair')) === 0, 'the whole backlog');
      const order = started.filter((id) => id.startsWith('a-')).map((id) => Number(id.slice(2)));
      assert.equal(order.length, 40);
      assert.ok(mostFirstInHand <= 2, `never more than two of one business at once (${mostFirstInHand})`);
    } finally {
      releaseFirst();
      await worker.stop();
    }
  });

  it("hands an urgent message to a listening worker at once, past its business's full lane", async () => {
    const business = Number(
      (
        await handle.db
          .insertInto('businesses')
          .values({ code: 'urgent', name: 'urgent', time_zone: 'UTC', created_at: clock.now() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    let release!: () => void;
    const mayFinish = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const worker = new OutboxWorker(handle.db, clock, { ...slow, concurrency: 4, perBusiness: 1 }).handle(
      'door',
      async (m: OutboxMessage) => {
        started.push(m.messageId);
        if (m.messageId === 'held') await mayFinish;
        return { done: true };
      },
    );
    await worker.start(handle.pool);
    try {
      await enqueue(handle.db, clock, {
        topic: 'door',
        businessId: business,
        payload: {},
        messageId: 'held',
      });
      await eventually(() => started.includes('held'), 'the message holding the lane');
      await enqueue(handle.db, clock, {
        topic: 'door',
        businessId: business,
        payload: {},
        messageId: 'queued',
      });
      await enqueue(handle.db, clock, {
        topic: 'door',
        businessId: business,
        payload: {},
        messageId: 'person-waiting',
        urgent: true,
      });
      // The poll is an hour away: only the notification naming its row can bring it.
      await eventually(() => started.includes('person-waiting'), 'the urgent message');
      assert.deepEqual(started, ['held', 'person-waiting'], 'the lane still holds the ordinary message back');
      release();
      await eventually(async () => (await pending('door')) === 0, 'the rest');
      assert.deepEqual(started, ['held', 'person-waiting', 'queued'], 'each message handled once');
    } finally {
      release();
      await worker.stop();
    }
  });

  it('retries when the handler asks, with the same message id and a growing attempt count', async () => {
    const attempts: Array<[string, number]> = [];
    const worker = new OutboxWorker(handle.db, clock, slow).handle('flaky', async (m) => {
      attempts.push([m.messageId, m.attempt]);
      return m.attempt < 3
        ? { retryAt: new Date(clock.now().getTime() + 30_000), error: 'receiver down' }
        : { done: true };
    });
    await enqueue(handle.db, clock, { topic: 'flaky', businessId: null, payload: {}, messageId: 'flaky-1' });
    assert.equal(await worker.drainOnce(), 1);
    assert.equal(await worker.drainOnce(), 0, 'not due yet');
    clock.advance(30_000);
    await worker.drainOnce();
    clock.advance(30_000);
    await worker.drainOnce();
    assert.deepEqual(attempts, [
      ['flaky-1', 1],
      ['flaky-1', 2],
      ['flaky-1', 3],
    ]);
    assert.equal(await pending('flaky'), 0);
  });

  const leaseOf = async (messageId: string) =>
    handle.db
      .selectFrom('outbox')
      .select(['leased_by', 'leased_until'])
      .where('message_id', '=', messageId)
      .executeTakeFirstOrThrow();

  it('keeps renewing the lease of a message its worker is still handling, past the first term', async () => {
    let release!: () => void;
    const mayFinish = new Promise<void>((resolve) => (release = resolve));
    const slowWorker = new OutboxWorker(handle.db, clock, { ...slow, leaseMs: 300 }).handle(
      'renewed',
      async () => {
        await mayFinish;
        return { done: true };
      },
    );
    await enqueue(handle.db, clock, {
      topic: 'renewed',
      businessId: null,
      payload: {},
      messageId: 'renewed-1',
    });
    const draining = slowWorker.drainOnce();
    await eventually(async () => (await leaseOf('renewed-1')).leased_by !== null, 'the claim');
    const first = (await leaseOf('renewed-1')).leased_until!.getTime();
    const other = new OutboxWorker(handle.db, clock, slow).handle('renewed', async () => ({ done: true }));
    try {
      // The clock past the first term: only the heartbeat, renewing from the clock's now, keeps it.
      clock.advance(1_000);
      await eventually(
        async () => (await leaseOf('renewed-1')).leased_until!.getTime() > first,
        'the lease renewed',
      );
      assert.equal(await other.drainOnce(), 0, 'not taken from a worker that lives');
    } finally {
      release();
      await draining;
    }
    assert.equal(await pending('renewed'), 0);
  });

  it('hands a message whose worker died to another once its lease runs out', async () => {
    // The dying worker's database connections go with it: it can neither renew nor record.
    const doomed = openDatabase(database.url, { timeouts: TEST_DATABASE_TIMEOUTS });
    const stuck = new OutboxWorker(doomed.db, clock, { ...slow, leaseMs: 10_000 }).handle(
      'lease',
      () => new Promise(() => {}),
    );
    await enqueue(handle.db, clock, { topic: 'lease', businessId: null, payload: {}, messageId: 'lease-1' });
    // The first worker takes the message and never answers (as if killed).
    void stuck.drainOnce();
    await eventually(
      async () =>
        (
          await handle.db
            .selectFrom('outbox')
            .select('leased_by')
            .where('message_id', '=', 'lease-1')
            .executeTakeFirst()
        )?.leased_by !== null,
      'the first claim',
    );
    await doomed.close();
    const handled: number[] = [];
    const rescuer = new OutboxWorker(handle.db, clock, slow).handle('lease', async (m) => {
      handled.push(m.attempt);
      return { done: true };
    });
    assert.equal(await rescuer.drainOnce(), 0, 'still leased');
    clock.advance(10_001);
    assert.equal(await rescuer.drainOnce(), 1);
    assert.deepEqual(handled, [2]);
  });
});
