/**
 * Runs the route builder on a benchmark set and checks every plan with the independent checker.
 *
 *   node --import tsx bench/vrp/run.ts --set solomon|li_lim [--seconds 5] [--iterations N]
 *        [--only C101,R101] [--part 1/2] [--seed 1] [--out results.jsonl] [--file path/in/solomon/format.txt]
 *        [--fleet given|bks] [--vehicles N] [--objective least_distance|fewest_vehicles] [--threads 1]
 *
 * Prints one line per instance and a summary (mean, median and worst gap to the best known cost,
 * time per instance); with --out, appends one JSON line per instance. --part k/n runs every n-th
 * instance from the k-th, to split a set over two processes (one per core). --threads N searches
 * each instance on N solver threads at once, as the service does with SOLVER_THREADS=N.
 * --vehicles N caps the fleet at N (a generated day's tight fleet); --objective fewest_vehicles
 * searches for the smallest fleet instead of the shortest distance.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { routeSearch } from '../../src/modules/dispatch/route-search.ts';
import type { Objective } from '../../src/modules/dispatch/solver/types.ts';
import { WorkerPool, workerEntry } from '../../src/platform/workers.ts';
import { checkPlan } from './check.ts';
import { DATA_DIR, type Instance, readLiLim, readSolomon, toSolverInput } from './instances.ts';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'solomon' },
    seconds: { type: 'string' },
    iterations: { type: 'string' },
    only: { type: 'string' },
    part: { type: 'string' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
    file: { type: 'string' },
    fleet: { type: 'string', default: 'given' },
    threads: { type: 'string', default: '1' },
    vehicles: { type: 'string' },
    objective: { type: 'string', default: 'least_distance' },
  },
});

const set = values.set === 'li_lim' ? 'li_lim_100' : 'solomon';
// --file: one instance in Solomon's format outside the data folder (the generated large day).
const folder = values.file ? dirname(values.file) : join(DATA_DIR, set);
const bksFile = join(folder, 'BKS.json');
const bks = (existsSync(bksFile) ? JSON.parse(readFileSync(bksFile, 'utf8')) : {}) as Record<
  string,
  { best_known_cost: number; solved_with_vehicles?: number }
>;
let names = readdirSync(folder)
  .filter((file) => file.endsWith('.txt') && (!values.file || file === basename(values.file)))
  .map((file) => file.replace(/\.txt$/, ''))
  .sort();
if (values.only) {
  const only = new Set(values.only.split(','));
  names = names.filter((name) => only.has(name));
}
if (values.part) {
  const [k = 1, n = 1] = values.part.split('/').map(Number);
  names = names.filter((_, index) => index % n === k - 1);
}

/**
 * --fleet given: the instance's own fleet, compared with Solomon's distance-only best known (Li and
 * Lim's is vehicles first). --fleet bks: the fleet capped at the vehicles of the vehicles-first
 * best known solution, compared with that solution's distance.
 */
const capped = values.fleet === 'bks';
const known = (name: string) => (set === 'solomon' && !capped ? bks[`${name}_distance`] : bks[name]);
const bestKnown = (name: string): number => known(name)?.best_known_cost ?? Number.NaN;

const threads = Number(values.threads);
const pool = threads > 1 ? new WorkerPool(workerEntry('solver-worker'), { threads }) : undefined;
const search = routeSearch(pool, threads);
// The service keeps its threads once started: start them (and compile the solver in each) before timing.
await Promise.all(
  Array.from({ length: pool ? threads : 0 }, () =>
    pool!.run('routes', { input: { stops: [], vehicles: [] } }, 1000),
  ),
);

const gaps: number[] = [];
const times: number[] = [];
let failures = 0;
for (const name of names) {
  const instance: Instance =
    set === 'solomon'
      ? readSolomon(join(folder, `${name}.txt`), name)
      : readLiLim(join(folder, `${name}.txt`), name);
  if (capped) instance.vehicles = known(name)?.solved_with_vehicles ?? instance.vehicles;
  if (values.vehicles) instance.vehicles = Number(values.vehicles);
  const input = toSolverInput(instance);
  const started = performance.now();
  const output = await search({
    ...input,
    objective: values.objective as Objective,
    seed: Number(values.seed),
    ...(values.seconds ? { timeLimitMs: Number(values.seconds) * 1000 } : {}),
    ...(values.iterations ? { maxIterations: Number(values.iterations) } : {}),
  });
  const seconds = (performance.now() - started) / 1000;
  // Back to row ids: a P2P stop's pickup leg is its own row, its delivery leg the sibling row.
  const byId = new Map(instance.rows.map((row) => [row.id, row]));
  const routes = output.routes.map((route) =>
    route.stops.map((stop) =>
      instance.kind === 'li_lim' && stop.leg === 'delivery'
        ? byId.get(stop.stopId)!.deliverySibling
        : stop.stopId,
    ),
  );
  const verdict = checkPlan(instance, routes);
  const best = bestKnown(name);
  const gap = ((verdict.distance - best) / best) * 100;
  if (!verdict.ok) failures++;
  gaps.push(gap);
  times.push(seconds);
  const line = {
    instance: name,
    distance: Number(verdict.distance.toFixed(2)),
    best_known: best,
    best_known_vehicles: known(name)?.solved_with_vehicles ?? null,
    fleet: instance.vehicles,
    objective: values.objective,
    threads,
    gap_percent: Number(gap.toFixed(2)),
    routes: verdict.routes,
    unassigned: verdict.missing,
    seconds: Number(seconds.toFixed(2)),
    iterations: output.search.iterations,
    valid: verdict.ok,
    errors: verdict.errors.slice(0, 5),
  };
  console.log(
    `${name.padEnd(8)} ${line.distance.toFixed(2).padStart(9)} bks ${best.toFixed(2).padStart(8)} gap ${line.gap_percent.toFixed(2).padStart(6)} % routes ${String(line.routes).padStart(2)}/${instance.vehicles}${verdict.missing ? ` MISSING ${verdict.missing}` : ''} ${line.seconds.toFixed(1)} s ${line.iterations} it ${verdict.ok ? 'ok' : `INVALID ${verdict.errors.slice(0, 3).join('; ')}`}`,
  );
  if (values.out) appendFileSync(values.out, `${JSON.stringify(line)}\n`);
}
await pool?.close();
if (gaps.every(Number.isNaN)) {
  console.log(
    `no best known cost: mean time ${(times.reduce((s, t) => s + t, 0) / times.length).toFixed(2)} s, invalid plans ${failures}`,
  );
  process.exit(failures === 0 ? 0 : 1);
}
const sorted = [...gaps].sort((a, b) => a - b);
const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
const median =
  sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]!
    : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
console.log(
  `${names.length} instances: mean gap ${mean.toFixed(2)} %, median ${median.toFixed(2)} %, worst ${sorted.at(-1)?.toFixed(2)} %, ` +
    `mean time ${(times.reduce((s, t) => s + t, 0) / times.length).toFixed(2)} s, invalid plans ${failures}`,
);
