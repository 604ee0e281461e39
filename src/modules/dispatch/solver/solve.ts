/**
 * A vehicle routing solver with time windows and pickup-and-delivery pairs, pure (no I/O):
 * `solveRoutes` blocks until done, `solveRoutesAsync` gives the event loop a turn every 20 ms.
 *
 * 1. Stops no vehicle could ever serve are set aside with their reason: no vehicle holds the
 *    skills, none that does can carry the demand, or even a lone trip misses a window or the shift.
 * 2. Regret-3 insertion builds the routes: the stop that would lose most by waiting (its best
 *    route beats its next best ones by the widest margin) goes in first, at its cheapest place.
 * 3. SISR (ruin and recreate with simulated annealing, see search.ts) improves them until the
 *    time limit or the iteration budget (or until it settles), and the best plan found is answered.
 *    Stops the construction left out are first repaired in (the fleet was too tight for it).
 *
 * Assigning more stops always beats driving less. A P2P stop is two visits on one route, its
 * pickup first, its load on board in between. Equal input, seed and iteration budget give equal
 * output; with a time limit the number of iterations done depends on the machine.
 */

import { mulberry32 } from '../../../platform/random.ts';
import { DEPOT_PICKUP, Model, PAIR_PICKUP, Solution } from './model.ts';
import { Improvement, insertByRegret } from './search.ts';
import type { PlannedRoute, PlannedStop, SolverInput, SolverOutput, UnassignedReason } from './types.ts';

export const DEFAULT_TIME_LIMIT_MS = 2000;

/**
 * How long a search may run, in milliseconds of wall clock: its time limit, else 2 s unless an
 * iteration budget alone bounds it (undefined: no clock at all).
 */
export function searchTimeLimitMs(input: SolverInput): number | undefined {
  return input.timeLimitMs ?? (input.maxIterations === undefined ? DEFAULT_TIME_LIMIT_MS : undefined);
}
const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;

function planRoute(model: Model, solution: Solution, k: number): PlannedRoute {
  const route = solution.routes[k]!;
  const L = model.locationCount;
  const D = model.dimensionCount;
  const start = model.startLocation[k]!;
  const firstVisit = route.visits[0]!;
  const firstAt = model.visitLocation[firstVisit]!;
  // Leave as late as still starting the first service at the same time: the same day, without
  // idling at the first door for its window to open.
  const firstServiceStart = Math.max(
    model.shiftStart[k]! + model.seconds[start * L + firstAt]!,
    model.ready[firstVisit]!,
  );
  const departure = firstServiceStart - model.seconds[start * L + firstAt]!;
  let clock = departure;
  let previous = start;
  let distanceMeters = 0;
  const stops: PlannedStop[] = [];
  for (let i = 0; i < route.n; i++) {
    const v = route.visits[i]!;
    const at = model.visitLocation[v]!;
    const distanceFromPreviousMeters = model.meters[previous * L + at]!;
    const arrival = clock + model.seconds[previous * L + at]!;
    const serviceStart = Math.max(arrival, model.ready[v]!);
    clock = serviceStart + model.service[v]!;
    distanceMeters += distanceFromPreviousMeters;
    previous = at;
    const kind = model.visitKind[v];
    stops.push({
      stopId: model.input.stops[model.visitRequest[v]!]!.id,
      leg: kind === PAIR_PICKUP || kind === DEPOT_PICKUP ? 'pickup' : 'delivery',
      arrival,
      start: serviceStart,
      departure: clock,
      distanceFromPreviousMeters,
    });
  }
  const end = model.endLocation[k]!;
  distanceMeters += model.meters[previous * L + end]!;
  const load = { weightGrams: 0, volumeCm3: 0, count: 0 };
  model.dimensions.forEach((dimension, d) => {
    load[LOAD_KEYS[dimension]!] = D > 0 ? route.prefix[route.n * D + d]! : 0;
  });
  return {
    vehicleId: model.input.vehicles[k]!.id,
    stops,
    distanceMeters,
    departure,
    returnTime: clock + model.seconds[previous * L + end]!,
    load,
  };
}

/** The input compiled, constructed and ready to search; `answer` plans what the search left. */
function prepare(input: SolverInput) {
  const started = performance.now();
  const model = new Model(input);
  const reasons = new Map<number, UnassignedReason>();
  const routable: number[] = [];
  model.impossibility.forEach((reason, request) => {
    if (reason === undefined) routable.push(request);
    else reasons.set(request, reason);
  });
  const solution = new Solution(model);
  const leftOut = insertByRegret(solution, routable);
  const searching = input.localSearch !== false && routable.length > 0;
  const improvement = new Improvement(solution, searching ? leftOut : [], mulberry32(input.seed ?? 1));
  if (!searching) improvement.done = true;
  // A monotonic budget, not a reading of the business clock. An iteration budget alone means no clock.
  const timeLimit = searchTimeLimitMs(input);
  const deadline = timeLimit === undefined ? Infinity : started + timeLimit;
  const maxIterations = input.maxIterations ?? Infinity;

  const answer = (): SolverOutput => {
    const unplaced = searching ? improvement.finish() : leftOut;
    for (const request of unplaced) reasons.set(request, 'fleet_full');
    const planned: PlannedRoute[] = [];
    solution.routes.forEach((route, k) => {
      if (route.n > 0) planned.push(planRoute(model, solution, k));
    });
    const unassigned = input.stops.flatMap((stop, index) => {
      const reason = reasons.get(index);
      return reason === undefined ? [] : [{ stopId: stop.id, reason }];
    });
    return {
      routes: planned,
      unassigned,
      totals: {
        distanceMeters: planned.reduce((sum, route) => sum + route.distanceMeters, 0),
        assigned: input.stops.length - unassigned.length,
        unassigned: unassigned.length,
        vehiclesUsed: planned.length,
      },
      search: {
        elapsedMs: Math.round(performance.now() - started),
        iterations: improvement.iterations,
        cost: solution.cost(),
      },
    };
  };
  return { improvement, deadline, maxIterations, answer };
}

/** Plans routes, blocking until the search ends (time limit, iteration budget or a stall). */
export function solveRoutes(input: SolverInput): SolverOutput {
  const { improvement, deadline, maxIterations, answer } = prepare(input);
  improvement.run(deadline, maxIterations);
  return answer();
}

/** How long the search runs before letting the event loop serve others. */
const SLICE_MS = 20;

/**
 * The same plan as `solveRoutes` for the same iteration budget, but searching in slices of about
 * 20 ms with the event loop free in between, so that a server keeps answering other requests.
 */
export async function solveRoutesAsync(input: SolverInput): Promise<SolverOutput> {
  const { improvement, deadline, maxIterations, answer } = prepare(input);
  while (!improvement.done) {
    improvement.run(Math.min(deadline, performance.now() + SLICE_MS), maxIterations);
    if (performance.now() >= deadline) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return answer();
}
