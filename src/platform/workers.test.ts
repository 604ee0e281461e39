import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AppError } from './errors.ts';
import { WorkerPool, workerEntry } from './workers.ts';

/** A carton plan the solver thread answers at once: 8 cubes of 50 mm in one 100 mm carton. */
const CUBES = {
  catalog: [
    {
      inner: { length: 100, width: 100, height: 100 },
      outer: { length: 110, width: 110, height: 110 },
      tareGrams: 10,
      maxGrossGrams: 10_000,
      costMinor: 1,
      active: true,
    },
  ],
  items: [{ id: 0, dimensions: { length: 50, width: 50, height: 50 }, weightGrams: 10, quantity: 8 }],
  targetUtilizationPercent: 100,
  maxIterations: 10,
};

describe('the solver threads', () => {
  const pool = new WorkerPool(workerEntry('solver-worker'), { threads: 1, queueLimit: 2 });
  after(() => pool.close());

  it('answers a solver task from its thread', async () => {
    const answer = await pool.run<{ packages: Array<{ items: unknown[] }> }>('cartons', CUBES, 1000);
    assert.equal(answer.packages.length, 1);
    assert.equal(answer.packages[0]!.items.length, 8);
  });

  it('refuses at once, with a time to come back, when its one thread and its queue are full', async () => {
    const slow = { ...CUBES, maxIterations: undefined, timeLimitMs: 400 };
    const accepted = [1, 2, 3].map(() => pool.run('cartons', slow, 400));
    const refused = await pool.run('cartons', CUBES, 1000).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof AppError);
    assert.equal(refused.code, 'SOLVER_BUSY');
    assert.equal(refused.status, 429);
    assert.equal(refused.options.headers?.['Retry-After'], '2');
    // Those accepted all run to their answer.
    assert.equal((await Promise.all(accepted)).length, 3);
  });

  it('starts its threads ahead of any task when warmed, and runs tasks on them', async () => {
    const warmed = new WorkerPool(workerEntry('solver-worker'), { threads: 2 });
    try {
      assert.equal(warmed.started, 0);
      warmed.warm();
      assert.equal(warmed.started, 2);
      const answers = await Promise.all(
        [1, 2, 3].map(() => warmed.run<{ packages: unknown[] }>('cartons', CUBES, 1000)),
      );
      assert.deepEqual(
        answers.map((answer) => answer.packages.length),
        [1, 1, 1],
      );
      assert.equal(warmed.started, 2);
    } finally {
      await warmed.close();
    }
    assert.equal(warmed.started, 0);
    warmed.warm();
    assert.equal(warmed.started, 0, 'a closed pool starts nothing');
  });

  it('fails a task the thread cannot run, and keeps serving the next', async () => {
    await assert.rejects(pool.run('no-such-solver', {}, 100), /no solver no-such-solver/);
    await assert.rejects(pool.run('cartons', { catalog: 'not a list' }, 100));
    const answer = await pool.run<{ packages: unknown[] }>('cartons', CUBES, 1000);
    assert.equal(answer.packages.length, 1);
  });
});
