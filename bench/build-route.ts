/**
 * Route building benchmark: the build-route solver (regret insertion, then local search) against a
 * naive nearest-neighbour baseline, on generated city days of 200 stops and 10 vehicles.
 *
 *   node --import tsx bench/build-route.ts
 *
 * Prints a Markdown table for bench/README.md. Times are the median of RUNS runs after a warm-up,
 * so the JIT compiling the solver is not counted.
 */
import { haversineMeters } from '../src/modules/dispatch/solver/distance.ts';
import { generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { solveRoutes } from '../src/modules/dispatch/solver/solve.ts';
import type { Load, SolverInput, SolverOutput, SolverStop } from '../src/modules/dispatch/solver/types.ts';

const SEEDS = [1, 2, 3, 4, 5];
const STOPS = 200;
const VEHICLES = 10;
const RUNS = 5;
const SPEED_METERS_PER_SECOND = 8.33; // the solver's default
const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;

interface Measured {
  milliseconds: number;
  distanceMeters: number;
  assigned: number;
}

/**
 * The baseline: each vehicle in turn drives to the nearest stop it may still take (skills,
 * room, window, back before the shift ends) until none is left, then goes home.
 */
function nearestNeighbour(input: SolverInput): Omit<SolverOutput['totals'], 'unassigned' | 'vehiclesUsed'> {
  const travelSeconds = (from: SolverStop['location'], to: SolverStop['location']): number =>
    Math.ceil(haversineMeters(from, to) / SPEED_METERS_PER_SECOND);
  const open = new Set(input.stops);
  let distanceMeters = 0;
  let assigned = 0;
  for (const vehicle of input.vehicles) {
    const end = vehicle.end ?? vehicle.start;
    const load: Load = { weightGrams: 0, volumeCm3: 0, count: 0 };
    let position = vehicle.start;
    let clock = vehicle.shift.start;
    for (;;) {
      let nearest: { stop: SolverStop; meters: number; leave: number } | undefined;
      for (const stop of open) {
        if (!(stop.requiredSkills ?? []).every((skill) => vehicle.skills.includes(skill))) continue;
        if (LOAD_KEYS.some((key) => load[key] + stop.demand[key] > vehicle.capacity[key])) continue;
        const arrival = clock + travelSeconds(position, stop.location);
        if (stop.window && arrival > stop.window.end) continue;
        const leave = Math.max(arrival, stop.window?.start ?? arrival) + stop.serviceSeconds;
        if (leave + travelSeconds(stop.location, end) > vehicle.shift.end) continue;
        const meters = haversineMeters(position, stop.location);
        if (!nearest || meters < nearest.meters) nearest = { stop, meters, leave };
      }
      if (!nearest) break;
      open.delete(nearest.stop);
      for (const key of LOAD_KEYS) load[key] += nearest.stop.demand[key];
      distanceMeters += nearest.meters;
      assigned++;
      position = nearest.stop.location;
      clock = nearest.leave;
    }
    if (position !== vehicle.start) distanceMeters += haversineMeters(position, end);
  }
  return { distanceMeters, assigned };
}

function measure<T extends Omit<Measured, 'milliseconds'>>(run: () => T): Measured {
  const times: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    milliseconds: times[Math.floor(RUNS / 2)]!,
    distanceMeters: result!.distanceMeters,
    assigned: result!.assigned,
  };
}

const solve = (input: SolverInput) => () => solveRoutes(input).totals;

// Warm-up, on instances outside the measured set, until the JIT has compiled the hot paths.
for (const seed of [1000, 1001, 1002]) {
  solveRoutes({ ...generateInstance({ stops: STOPS, vehicles: VEHICLES, seed }), localSearch: false });
  solveRoutes(generateInstance({ stops: STOPS, vehicles: VEHICLES, seed }));
}

const rows = SEEDS.map((seed) => {
  const instance = generateInstance({ stops: STOPS, vehicles: VEHICLES, seed });
  return {
    seed,
    feasible: STOPS - instance.infeasible.length,
    baseline: measure(() => nearestNeighbour(instance)),
    construction: measure(solve({ ...instance, localSearch: false })),
    search500: measure(solve({ ...instance, timeLimitMs: 500 })),
    search2000: measure(solve({ ...instance, timeLimitMs: 2000 })),
  };
});

const km = (meters: number): string => (meters / 1000).toFixed(1);
const ms = (milliseconds: number): string => milliseconds.toFixed(0);
const ratio = (solver: Measured, baseline: Measured): string =>
  (solver.distanceMeters / baseline.distanceMeters).toFixed(3);
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

const meanOf = (pick: (row: (typeof rows)[number]) => Measured): Measured => ({
  milliseconds: mean(rows.map((row) => pick(row).milliseconds)),
  distanceMeters: mean(rows.map((row) => pick(row).distanceMeters)),
  assigned: mean(rows.map((row) => pick(row).assigned)),
});
const meanRow = {
  seed: 'mean',
  feasible: mean(rows.map((row) => row.feasible)),
  baseline: meanOf((row) => row.baseline),
  construction: meanOf((row) => row.construction),
  search500: meanOf((row) => row.search500),
  search2000: meanOf((row) => row.search2000),
};

const cell = (measured: Measured): string =>
  `${ms(measured.milliseconds)} / ${km(measured.distanceMeters)} (${measured.assigned})`;
const tableLine = (cells: Array<string | number>): string => `| ${cells.join(' | ')} |`;
const header = [
  'seed',
  'feasible stops',
  'NN baseline km (assigned)',
  'construction ms / km (assigned)',
  'search, 500 ms budget: ms / km (assigned)',
  'search, 2000 ms budget: ms / km (assigned)',
  'construction / NN km',
  'search / NN km',
];
const table = [
  tableLine(header),
  tableLine(header.map(() => '---')),
  ...[...rows, meanRow].map((row) =>
    tableLine([
      row.seed,
      row.feasible,
      `${km(row.baseline.distanceMeters)} (${row.baseline.assigned})`,
      cell(row.construction),
      cell(row.search500),
      cell(row.search2000),
      ratio(row.construction, row.baseline),
      ratio(row.search2000, row.baseline),
    ]),
  ),
];
process.stdout.write(
  `${table.join('\n')}\n\n${STOPS} stops, ${VEHICLES} vehicles per instance; times are medians of ${RUNS} runs.\n`,
);
