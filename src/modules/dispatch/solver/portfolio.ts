/**
 * One problem searched by several independent searches at once, one per thread, and the best of
 * their plans answered. Each search is the whole solver (construction, repair, annealing) with a
 * seed of its own, so the searches walk apart from the first ruin; with an iteration budget the
 * answer depends only on the input, the seed and the number of searches. Pure: the caller says
 * how one search runs (a worker thread, or here for a test).
 */
import type { SolverInput, SolverOutput } from './types.ts';

/** A search's seed: the caller's seed for the first one (one search is plain solveRoutes), spread apart for the others. */
export function searchSeed(seed: number, index: number): number {
  return index === 0 ? seed : (seed + Math.imul(index, 0x9e3779b9)) >>> 0;
}

/** More stops served first, then the lower objective cost; on a tie the earlier search, so the choice is stable. */
export function betterPlan(candidate: SolverOutput, than: SolverOutput): boolean {
  if (candidate.totals.unassigned !== than.totals.unassigned) {
    return candidate.totals.unassigned < than.totals.unassigned;
  }
  return candidate.search.cost < than.search.cost;
}

/**
 * Runs `searches` searches of `input` through `searchOne` at once and answers the best plan, with
 * the wall clock of the whole and the iterations of all the searches together.
 */
export async function solveInParallel(
  input: SolverInput,
  searches: number,
  searchOne: (input: SolverInput) => Promise<SolverOutput>,
): Promise<SolverOutput> {
  const started = performance.now();
  const seed = input.seed ?? 1;
  const plans = await Promise.all(
    Array.from({ length: Math.max(1, searches) }, (_, index) =>
      searchOne({ ...input, seed: searchSeed(seed, index) }),
    ),
  );
  let best = plans[0]!;
  for (const plan of plans.slice(1)) if (betterPlan(plan, best)) best = plan;
  return {
    ...best,
    search: {
      ...best.search,
      elapsedMs: Math.round(performance.now() - started),
      iterations: plans.reduce((sum, plan) => sum + plan.search.iterations, 0),
    },
  };
}
