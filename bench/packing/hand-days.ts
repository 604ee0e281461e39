/**
 * Multi-drop days in the standard van loaded by hand (reach 1.6 m, stacks at most 4 times their
 * floor, at the door): how many parcels each day loads with the van's rules, without the stability
 * rule and without any of them, why the rest stay out, how high the centre of gravity is, and how
 * many stops have boxes more than one reach (600 mm, `stopsOverOneReach` in ./checker.ts) apart along
 * the van. The days are those of the
 * solver's tests ("a load handled by hand"): parcels of 1 to 15 kg, 200-600 × 150-450 × 100-400 mm,
 * the stops in turn (./multi-drop-day.ts).
 *
 *   node --import tsx bench/packing/hand-days.ts      (CONSTRUCTIONS=30, or TIME_MS for a time limit; DAYS)
 */

import type { LoadingItem, LoadingSpace } from '../../src/modules/packing/solver/loading/index.ts';
import { solveLoading } from '../../src/modules/packing/solver/loading/index.ts';
import { loadingSpaceOf, standardSpace, standardView } from '../../src/modules/packing/spaces.ts';
import { knob, say } from '../support.ts';
import { stopsOverOneReach } from './checker.ts';
import { multiDropDay } from './multi-drop-day.ts';

const CONSTRUCTIONS = knob('CONSTRUCTIONS', 30);
const TIME_MS = knob('TIME_MS', 0);
const VAN = loadingSpaceOf(standardView(standardSpace('van-3t5')!));

const day = (stops: number, fill: number, seed: number) => multiDropDay(VAN, stops, fill, seed);

function solve(space: LoadingSpace, items: LoadingItem[]) {
  const options =
    TIME_MS > 0 ? { timeLimitMs: TIME_MS } : { maxIterations: CONSTRUCTIONS, timeLimitMs: 600_000 };
  const started = performance.now();
  const output = solveLoading({ space, items, options });
  return { output, ms: performance.now() - started };
}

const { stability: _stability, ...withoutStability } = VAN;
const plain: LoadingSpace = {
  length: VAN.length,
  width: VAN.width,
  height: VAN.height,
  payloadKg: VAN.payloadKg,
};

say(
  `Van ${VAN.length} × ${VAN.width} × ${VAN.height} mm, ${VAN.payloadKg} kg; ${TIME_MS > 0 ? `${TIME_MS} ms a load` : `${CONSTRUCTIONS} constructions a load`}`,
);
console.log(
  '| day | parcels (kg) | loaded, van rules | why not | centre of gravity (mm) | stops over one reach | loaded, no stability | loaded, no rule | s (rules) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
/** The days: stops and share of the van's volume; DAYS='[[20,0.1]]' for others. */
const DAYS: Array<[number, number]> = process.env.DAYS
  ? JSON.parse(process.env.DAYS)
  : [
      [20, 0.02],
      [60, 0.02],
      [20, 0.3],
      [30, 0.3],
      [60, 0.3],
      [20, 0.7],
      [60, 0.7],
    ];
for (const [stops, fill] of DAYS) {
  const items = day(stops, fill, stops);
  const kg = items.reduce((sum, item) => sum + item.weightKg!, 0);
  const { output, ms } = solve(VAN, items);
  const spread = stopsOverOneReach(items, output.placements).length;
  const loadedStops = new Set(output.placements.map((p) => items[p.item]!.stop)).size;
  const why = [...new Set(output.unplaced.map((u) => u.reason))].join(', ') || '-';
  const loose = solve(withoutStability, items).output.placements.length;
  const none = solve(plain, items).output.placements.length;
  console.log(
    `| ${stops} stops, ${fill * 100} % | ${items.length} (${kg.toFixed(0)}) | ${output.placements.length} | ${why} | ${output.centreOfGravity?.z.toFixed(0)} | ${spread} of ${loadedStops} | ${loose} | ${none} | ${(ms / 1000).toFixed(1)} |`,
  );
}
