/**
 * One problem searched by several independent searches at once, one per thread, and the best of
 * their plans answered. Each search is the whole solver (construction, repair, annealing) with a
 * seed of its own, so the searches walk apart from the first ruin; with an iteration budget the
 * answer depends only on the input, the seed and the number of searches. Pure: the caller says
 * how one search runs (a worker thread, or here for a test).
 */
import { solveRoutes } from './solve.ts';
import type { SolverInput, SolverOutput, TravelTable } from './types.ts';

/** Now, in milliseconds from an origin every thread of the process shares (a worker's performance.now() starts at its own). */
export const sharedNow = (): number => performance.timeOrigin + performance.now();

/**
 * One search on a thread, by a deadline set when the build began (sharedNow), so that time spent
 * waiting for a thread, starting it and copying the input to it comes out of the budget.
 */
export function solveByDeadline(task: { input: SolverInput; deadline?: number }): SolverOutput {
  const { input, deadline } = task;
  if (deadline === undefined) return solveRoutes(input);
  return solveRoutes({ ...input, timeLimitMs: Math.max(0, deadline - sharedNow()) });
}

/** A search's seed: the caller's seed for the first one (one search is plain solveRoutes), spread apart for the others. */
export function searchSeed(seed: number, index: number): number {
  return index === 0 ? seed : (seed + Math.imul(index, 0x9e3779b9)) >>> 0;
}

/**
 * The input as the threads share it: the travel table (a million figures on a 1,000-stop day)
 * moved onto shared memory once, so that sending it to each thread copies nothing.
 */
export function sharedInput(input: SolverInput): SolverInput {
  const { travel } = input;
  if (travel === undefined) return input;
  const shared = (rows: TravelTable['meters']): Float64Array[] => {
    const size = travel.points.length;
    const memory = new Float64Array(new SharedArrayBuffer(size * size * Float64Array.BYTES_PER_ELEMENT));
    rows.forEach((row, index) => {
      memory.set(row, index * size);
    });
    return Array.from({ length: size }, (_, index) => memory.subarray(index * size, (index + 1) * size));
  };
  const meters = shared(travel.meters);
  const seconds = travel.seconds === travel.meters ? meters : shared(travel.seconds);
  return { ...input, travel: { points: travel.points, meters, seconds } };
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
