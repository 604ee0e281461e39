/**
 * The carton benchmark: generated e-commerce orders packed by our solver and by an npm 3D bin
 * packing library (binpackingjs 4.1.0, the peer), both checked by the independent checker, and
 * compared with the volume lower bounds (carton-orders.ts).
 *
 *   node --import tsx bench/packing/cartons.ts [--orders 200] [--ms 200] [--seed 1] [--cap 90]
 *        [--large 500] [--large-ms 1500] [--out results.jsonl]
 *
 * Prints progress every 20 orders, then a summary: the ratio of our total outer volume to the
 * bound and to the peer's (mean, p90, worst), package counts, time per order; then one plan of
 * `--large` pieces timed alone (the solver, no HTTP).
 */
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { solveCartons } from '../../src/modules/packing/solver/cartons/solve.ts';
import type { CartonSolverInput } from '../../src/modules/packing/solver/cartons/types.ts';
import { mulberry32 } from '../../src/platform/random.ts';
import { percentile } from '../support.ts';
import { checkCartonPlan } from './carton-checker.ts';
import {
  benchCatalog,
  countBound,
  generateOrder,
  generateOrders,
  itemsVolume,
  outerVolumeBound,
  pieceOrVolumeBound,
} from './carton-orders.ts';
import { packWithPeer } from './carton-peer.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200' },
    ms: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    cap: { type: 'string', default: '90' },
    large: { type: 'string', default: '500' },
    'large-ms': { type: 'string', default: '1500' },
    out: { type: 'string' },
  },
});

function describe(ratios: number[]): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  const mean = sorted.reduce((s, r) => s + r, 0) / sorted.length;
  return `mean ${mean.toFixed(3)}, p90 ${percentile(sorted, 90).toFixed(3)}, worst ${sorted.at(-1)!.toFixed(3)}, best ${sorted[0]!.toFixed(3)}`;
}

const count = Math.max(1, Number(values.orders));
const budgetMs = Number(values.ms);
const cap = Number(values.cap);
const seed = Number(values.seed);
const orders = generateOrders(count, seed, cap);
const toBound: number[] = [];
const toPieceBound: number[] = [];
let atPieceBound = 0;
const toPeer: number[] = [];
const peerToBound: number[] = [];
const ourTimes: number[] = [];
const peerTimes: number[] = [];
let invalidOurs = 0;
let invalidPeer = 0;
let ourPackages = 0;
let peerPackages = 0;
let countBoundSum = 0;
let atBound = 0;
let units = 0;

orders.forEach((input, n) => {
  const started = performance.now();
  const ours = solveCartons({ ...input, timeLimitMs: budgetMs, seed: 1 });
  const ourMs = performance.now() - started;
  const peerStarted = performance.now();
  const peer = packWithPeer(input);
  const peerMs = performance.now() - peerStarted;
  const ourCheck = checkCartonPlan(input, ours);
  const peerCheck = checkCartonPlan(input, peer);
  const unfit = new Set(ours.unfit.map((u) => u.itemId));
  const volume = itemsVolume(input.items, unfit);
  const bound = outerVolumeBound(volume, input.catalog, cap);
  const minimumCount = countBound(volume, input.catalog, cap);
  const pieceBound = pieceOrVolumeBound(input.items, input.catalog, cap, unfit);
  if (pieceBound > 0) {
    toPieceBound.push(ourCheck.outerVolumeMm3 / pieceBound);
    if (ourCheck.outerVolumeMm3 === pieceBound) atPieceBound++;
  }
  if (ourCheck.violations.length > 0) invalidOurs++;
  // The peer's answer counts only if valid and packs what ours packs (else it is not comparable).
  const peerComparable =
    peerCheck.violations.filter((v) => !v.includes('reason')).length === 0 &&
    peer.unfit.length === ours.unfit.length;
  if (!peerComparable) invalidPeer++;
  units += input.items.reduce((s, i) => s + i.quantity, 0);
  ourTimes.push(ourMs);
  peerTimes.push(peerMs);
  ourPackages += ourCheck.packageCount;
  countBoundSum += minimumCount;
  if (bound > 0) {
    toBound.push(ourCheck.outerVolumeMm3 / bound);
    if (ourCheck.outerVolumeMm3 === bound) atBound++;
  }
  if (peerComparable && peerCheck.outerVolumeMm3 > 0) {
    toPeer.push(ourCheck.outerVolumeMm3 / peerCheck.outerVolumeMm3);
    peerToBound.push(peerCheck.outerVolumeMm3 / bound);
    peerPackages += peerCheck.packageCount;
  }
  if (values.out) {
    appendFileSync(
      values.out,
      `${JSON.stringify({
        order: n,
        units: input.items.reduce((s, i) => s + i.quantity, 0),
        ours: {
          outer: ourCheck.outerVolumeMm3,
          packages: ourCheck.packageCount,
          ms: ourMs,
          violations: ourCheck.violations,
        },
        peer: {
          outer: peerCheck.outerVolumeMm3,
          packages: peerCheck.packageCount,
          ms: peerMs,
          violations: peerCheck.violations,
        },
        bound: { outer: bound, pieceOrVolume: pieceBound, packages: minimumCount },
      })}\n`,
    );
  }
  if ((n + 1) % 20 === 0 || n + 1 === count) {
    process.stderr.write(
      `${n + 1}/${count} orders; ours/bound ${describe(toBound)}; ours/peer ${toPeer.length ? describe(toPeer) : '-'}\n`,
    );
  }
});

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sortedTimes = [...ourTimes].sort((a, b) => a - b);
console.log(
  `\n${count} orders (seed ${seed}, 1 to 40 pieces, ${units} pieces), cap ${cap} %, ${budgetMs} ms budget per order`,
);
console.log(
  `ours / volume bound (total outer volume): ${describe(toBound)}; at the bound: ${atBound} of ${toBound.length}`,
);
console.log(
  `ours / (volume or largest piece) bound: ${describe(toPieceBound)}; at that bound: ${atPieceBound} of ${toPieceBound.length}`,
);
console.log(`ours / peer (binpackingjs 4.1.0), ${toPeer.length} comparable orders: ${describe(toPeer)}`);
console.log(`peer / volume bound, same orders: ${describe(peerToBound)}`);
console.log(
  `packages: ours ${ourPackages}, count bound ${countBoundSum}; on the comparable orders the peer used ${peerPackages}`,
);
console.log(
  `time per order: ours mean ${mean(ourTimes).toFixed(1)} ms, p90 ${percentile(sortedTimes, 90).toFixed(1)} ms, worst ${sortedTimes.at(-1)!.toFixed(1)} ms; peer mean ${mean(peerTimes).toFixed(1)} ms`,
);
console.log(
  `invalid plans: ours ${invalidOurs}, peer ${invalidPeer} (not comparable: invalid or a different unfit set)`,
);

const largeUnits = Number(values.large);
if (largeUnits > 0) {
  const random = mulberry32(seed + 1000);
  const items = generateOrder(random, largeUnits);
  const input: CartonSolverInput = { catalog: benchCatalog(), items, targetUtilizationPercent: cap };
  const constructionStarted = performance.now();
  const first = solveCartons({ ...input, maxIterations: 0 });
  const constructionMs = performance.now() - constructionStarted;
  const started = performance.now();
  const plan = solveCartons({ ...input, timeLimitMs: Number(values['large-ms']) });
  const elapsed = performance.now() - started;
  const check = checkCartonPlan(input, plan);
  const volume = itemsVolume(items, new Set(plan.unfit.map((u) => u.itemId)));
  const bound = outerVolumeBound(volume, input.catalog, cap);
  console.log(
    `\n${largeUnits}-piece plan: construction alone ${constructionMs.toFixed(0)} ms (${first.totals.packageCount} packages, ${(first.totals.outerVolumeMm3 / bound).toFixed(3)} × bound); ` +
      `with a ${values['large-ms']} ms budget ${elapsed.toFixed(0)} ms, ${plan.stats.iterations} steps, ${plan.totals.packageCount} packages, ` +
      `${(plan.totals.outerVolumeMm3 / bound).toFixed(3)} × bound, ${check.violations.length} violations`,
  );
}
