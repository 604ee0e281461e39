/**
 * How a route build searches: with one solver thread, on the event loop in slices; with several,
 * one independent search per thread of the solver pool (solver/portfolio.ts), never holding the
 * event loop, the best plan answered.
 */
import type { WorkerPool } from '../../platform/workers.ts';
import { sharedInput, sharedNow, solveInParallel } from './solver/portfolio.ts';
import { DEFAULT_TIME_LIMIT_MS, searchTimeLimitMs, solveRoutesAsync } from './solver/solve.ts';
import type { SolverInput, SolverOutput } from './solver/types.ts';

export type RouteSearch = (input: SolverInput) => Promise<SolverOutput>;

export function routeSearch(pool: WorkerPool | undefined, threads: number): RouteSearch {
  if (pool === undefined || threads <= 1) return solveRoutesAsync;
  return (input) => {
    const budget = searchTimeLimitMs(input);
    const deadline = budget === undefined ? undefined : sharedNow() + budget;
    return solveInParallel(sharedInput(input), threads, (seeded) =>
      pool.run<SolverOutput>('routes', { input: seeded, deadline }, budget ?? DEFAULT_TIME_LIMIT_MS),
    );
  };
}
