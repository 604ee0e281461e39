/**
 * Container loading on the Bischoff and Ratcliff problems BR1-BR7: runs the loading solver on
 * each instance, checks every load with the independent checker (checker.ts) and reports the
 * mean volume utilisation per class and overall.
 *
 *   SECONDS=5 SUPPORT=1 INSTANCES=100 node --import tsx bench/packing/br.ts
 *
 * SECONDS: budget per instance (default 5). SUPPORT: the share of each box's base that must be
 * supported (1 = full support, 0 = none, 0.75 ...; default 1). INSTANCES: per class, the first N
 * (default 100). CLASSES: e.g. "1,2,7" (default all). SEED (default 1).
 */
import { solveLoading } from '../../src/modules/packing/solver/loading/index.ts';
import { readBrProblems } from './br-instances.ts';
import { checkLoad } from './checker.ts';

const seconds = Number(process.env.SECONDS ?? 5);
const support = Number(process.env.SUPPORT ?? 1);
const perClass = Number(process.env.INSTANCES ?? 100);
const classes = (process.env.CLASSES ?? '1,2,3,4,5,6,7').split(',').map(Number);
const seed = Number(process.env.SEED ?? 1);

const chosen = readBrProblems().filter((p) => classes.includes(p.brClass) && p.number <= perClass);
const byClass = new Map<number, number[]>();
let failures = 0;
process.stdout.write(
  `BR${classes.join(',')}: ${chosen.length} instances, ${seconds} s each, support share ${support}, seed ${seed}\n`,
);
for (const problem of chosen) {
  const [length, width, height] = problem.container;
  const items = problem.types.map((t, i) => ({
    id: `t${i + 1}`,
    length: t.dims[0],
    width: t.dims[1],
    height: t.dims[2],
    quantity: t.quantity,
    mayBeVertical: t.mayBeVertical,
  }));
  const space = { length, width, height };
  const result = solveLoading({
    space,
    items,
    options: { supportShare: support, timeLimitMs: seconds * 1000, seed },
  });
  const errors = checkLoad(space, items, result.placements, support);
  if (errors.length > 0) failures++;
  const placedVolume = result.placements.reduce((sum, p) => sum + p.length * p.width * p.height, 0);
  const percent = (100 * placedVolume) / (length * width * height);
  byClass.set(problem.brClass, [...(byClass.get(problem.brClass) ?? []), percent]);
  process.stdout.write(
    `BR${problem.brClass}-${problem.number}: ${percent.toFixed(2)} % (${result.iterations} constructions, ` +
      `EB-AFIT ${problem.ebAfitPercent} %)${errors.length ? `  CHECKER: ${errors.slice(0, 3).join('; ')}` : ''}\n`,
  );
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
process.stdout.write('\nclass  instances  mean volume %\n');
for (const [brClass, values] of byClass) {
  process.stdout.write(`BR${brClass}    ${String(values.length).padStart(9)}  ${mean(values).toFixed(2)}\n`);
}
const all = [...byClass.values()].flat();
process.stdout.write(`all    ${String(all.length).padStart(9)}  ${mean(all).toFixed(2)}\n`);
process.stdout.write(`checker failures: ${failures}\n`);
if (failures > 0) process.exitCode = 1;
