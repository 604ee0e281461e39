import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WorkerPool, workerEntry } from '../../platform/workers.ts';
import { routeSearch } from './route-search.ts';
import { generateInstance } from './solver/generate.ts';
import { searchSeed, sharedNow, solveByDeadline } from './solver/portfolio.ts';
import { solveRoutes } from './solver/solve.ts';
import type { SolverOutput } from './solver/types.ts';

/** The plan without how long it took, which differs from run to run. */
const planOf = ({ search, ...plan }: SolverOutput) => ({
  ...plan,
  iterations: search.iterations,
  cost: search.cost,
});

describe('route searches on the solver threads', () => {
  const pool = new WorkerPool(workerEntry('solver-worker'), { threads: 3 });
  after(() => pool.close());
  const instance = generateInstance({ stops: 60, vehicles: 4, seed: 11 });
  const { infeasible: _, ...input } = instance;
  const budget = { ...input, seed: 5, maxIterations: 3000 };

  it('answers the best of one search per thread, each with its own seed, the first with the caller’s', async () => {
    const threaded = await routeSearch(pool, 3)(budget);
    const alone = [0, 1, 2].map((index) => solveRoutes({ ...budget, seed: searchSeed(5, index) }));
    assert.equal(alone[0]!.search.cost, solveRoutes(budget).search.cost, 'the first search is the plain one');
    assert.ok(new Set(alone.map((plan) => plan.search.cost)).size > 1, 'the seeds walk apart');
    const best = alone.reduce((a, b) =>
      b.totals.unassigned < a.totals.unassigned ||
      (b.totals.unassigned === a.totals.unassigned && b.search.cost < a.search.cost)
        ? b
        : a,
    );
    assert.deepEqual(threaded.routes, best.routes);
    assert.deepEqual(threaded.unassigned, best.unassigned);
    assert.equal(
      threaded.search.iterations,
      alone.reduce((sum, plan) => sum + plan.search.iterations, 0),
      'the iterations of every search',
    );
  });

  it('gives the same plan for the same seed, thread count and iteration budget', async () => {
    const search = routeSearch(pool, 2);
    const [first, second] = [await search(budget), await search(budget)];
    assert.deepEqual(planOf(first), planOf(second));
  });

  it('takes the time a search waited for its thread out of its budget', () => {
    // A build whose budget ran out while its search waited: the construction alone, not a new budget.
    const late = solveByDeadline({ input: { ...input, timeLimitMs: 60_000 }, deadline: sharedNow() - 1 });
    assert.equal(late.search.iterations, 0);
    assert.deepEqual(late.routes, solveRoutes({ ...input, localSearch: false }).routes);
  });

  it('gives every search of a build the same deadline, so one that waited for a thread gets what is left', async () => {
    // Two searches on one thread: the second starts when the first has spent the whole budget.
    const single = new WorkerPool(workerEntry('solver-worker'), { threads: 1 });
    const answers: SolverOutput[] = [];
    const run = single.run.bind(single);
    single.run = (async (kind: string, task: unknown, budgetMs: number) => {
      const answer = await run<SolverOutput>(kind, task, budgetMs);
      answers.push(answer);
      return answer;
    }) as typeof single.run;
    try {
      const { infeasible: __, ...large } = generateInstance({ stops: 200, vehicles: 10, seed: 3 });
      await routeSearch(single, 2)({ ...large, seed: 5, timeLimitMs: 300 });
    } finally {
      await single.close();
    }
    assert.equal(answers.length, 2);
    assert.equal(answers[1]!.search.iterations, 0, 'the second search had no budget left');
  });

  it('searches on the event loop with one thread, the plan solveRoutes gives', async () => {
    const tasks: string[] = [];
    const counting = { run: (kind: string) => tasks.push(kind) } as unknown as WorkerPool;
    const plan = await routeSearch(counting, 1)(budget);
    assert.deepEqual(tasks, []);
    assert.deepEqual(planOf(plan), planOf(solveRoutes(budget)));
  });
});
