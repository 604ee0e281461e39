import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCartonPlan } from '../../../../../bench/packing/carton-checker.ts';
import { mulberry32 } from '../../../../platform/random.ts';
import { solveCartons } from './solve.ts';
import type { CartonSolverInput, CartonSolverOutput, CartonType, PackingItem } from './types.ts';

/** Iteration-bound, so answers do not depend on the machine. */
const ITERATIONS = 300;

function carton(
  id: number,
  inner: [number, number, number],
  wall = 5,
  extra: Partial<CartonType> = {},
): CartonType {
  const [length, width, height] = inner;
  return {
    id,
    inner: { length, width, height },
    outer: { length: length + 2 * wall, width: width + 2 * wall, height: height + 2 * wall },
    tareGrams: 200,
    maxGrossGrams: 30_000,
    costMinor: 100,
    active: true,
    ...extra,
  };
}

function item(id: number, sides: [number, number, number], extra: Partial<PackingItem> = {}): PackingItem {
  const [length, width, height] = sides;
  return { id, dimensions: { length, width, height }, weightGrams: 100, quantity: 1, ...extra };
}

function solve(input: Omit<CartonSolverInput, 'maxIterations' | 'timeLimitMs'>): CartonSolverOutput {
  const output = solveCartons({ ...input, maxIterations: ITERATIONS, timeLimitMs: 60_000 });
  const check = checkCartonPlan(input, output);
  assert.deepEqual(check.violations, [], JSON.stringify(output));
  return output;
}

describe('carton packing solver', () => {
  it('packs a cube of cubes into the one carton it fills, 100 %', () => {
    const output = solve({
      catalog: [carton(1, [300, 300, 300]), carton(2, [200, 200, 200]), carton(3, [200, 200, 190])],
      items: [item(7, [100, 100, 100], { quantity: 8 })],
      targetUtilizationPercent: 100,
    });
    assert.equal(output.packages.length, 1);
    assert.equal(output.packages[0]!.carton.id, 2);
    assert.equal(output.packages[0]!.fillRatio, 1);
    assert.equal(output.packages[0]!.items.length, 8);
    assert.deepEqual(output.unfit, []);
    assert.equal(output.totals.outerVolumeMm3, 210 ** 3);
  });

  it('opens a second carton when the fill cap forbids filling the first', () => {
    const output = solve({
      catalog: [carton(2, [200, 200, 200])],
      items: [item(7, [100, 100, 100], { quantity: 8 })],
      targetUtilizationPercent: 90,
    });
    assert.equal(output.packages.length, 2);
    for (const pack of output.packages) assert.ok(pack.fillRatio <= 0.9, JSON.stringify(pack));
    assert.equal(
      output.packages.reduce((sum, pack) => sum + pack.items.length, 0),
      8,
    );
  });

  it('opens a second carton when the weight limit forbids the first', () => {
    const output = solve({
      catalog: [carton(2, [200, 200, 200], 5, { tareGrams: 200, maxGrossGrams: 4_200 })],
      items: [item(7, [100, 100, 100], { quantity: 8, weightGrams: 1_000 })],
      targetUtilizationPercent: 100,
    });
    assert.deepEqual(
      output.packages.map((pack) => pack.grossGrams),
      [4_200, 4_200],
    );
  });

  it('reports a piece unfit when this side up refuses the only orientation that fits', () => {
    const tall = item(5, [100, 100, 300], { thisSideUp: true });
    const catalog = [carton(1, [320, 120, 120])];
    const refused = solve({
      catalog,
      items: [tall, item(6, [100, 100, 100])],
      targetUtilizationPercent: 100,
    });
    assert.deepEqual(refused.unfit, [{ itemId: 5, quantity: 1, reason: 'too_large' }]);
    assert.deepEqual(
      refused.packages.flatMap((pack) => pack.items.map((placed) => placed.itemId)),
      [6],
    );
    const laid = solve({ catalog, items: [{ ...tall, thisSideUp: false }], targetUtilizationPercent: 100 });
    assert.deepEqual(laid.unfit, []);
    assert.equal(laid.packages[0]!.items[0]!.placed.length, 300);
  });

  it('reports pieces too heavy for every carton and pieces the fill cap shuts out, whole quantities', () => {
    const output = solve({
      catalog: [carton(1, [200, 200, 200], 5, { maxGrossGrams: 5_000 })],
      items: [
        item(1, [100, 100, 100], { weightGrams: 4_900, quantity: 2 }),
        item(2, [200, 200, 190], { quantity: 3 }),
        item(3, [50, 50, 50]),
      ],
      targetUtilizationPercent: 90,
    });
    assert.deepEqual(output.unfit, [
      { itemId: 1, quantity: 2, reason: 'too_heavy' },
      { itemId: 2, quantity: 3, reason: 'fill_cap_too_low' },
    ]);
    assert.equal(output.packages.length, 1);
  });

  it('prefers one bigger carton to two smaller ones only when its outer volume is smaller', () => {
    const pair = [item(1, [100, 100, 100], { quantity: 2 })];
    const small = carton(1, [100, 100, 100]); // outer 110³ = 1,331,000 mm³, two: 2,662,000
    const snug = carton(2, [200, 100, 100]); // outer 210 × 110 × 110 = 2,541,000
    const bulky = carton(3, [200, 100, 100], 15); // outer 230 × 130 × 130 = 3,887,000
    const one = solve({ catalog: [small, snug], items: pair, targetUtilizationPercent: 100 });
    assert.deepEqual(
      one.packages.map((pack) => pack.carton.id),
      [2],
    );
    const two = solve({ catalog: [small, bulky], items: pair, targetUtilizationPercent: 100 });
    assert.deepEqual(
      two.packages.map((pack) => pack.carton.id),
      [1, 1],
    );
    // Equal outer volume: fewer packages wins; then the cheaper.
    const even = carton(4, [200, 100, 100], 5, { outer: { length: 220, width: 110, height: 110 } });
    const tie = solve({ catalog: [small, even], items: pair, targetUtilizationPercent: 100 });
    assert.equal(tie.totals.outerVolumeMm3, 2 * 110 ** 3);
    assert.deepEqual(
      tie.packages.map((pack) => pack.carton.id),
      [4],
    );
    const cheap = { ...snug, id: 5, costMinor: 40 };
    const cheaper = solve({ catalog: [snug, cheap], items: pair, targetUtilizationPercent: 100 });
    assert.deepEqual(
      cheaper.packages.map((pack) => pack.carton.id),
      [5],
    );
  });

  it('puts nothing on a no-stack piece, and takes per-plan custom sizes', () => {
    const column = carton(1, [100, 100, 200]);
    const stacked = solve({
      catalog: [column],
      items: [item(1, [100, 100, 100], { noStack: true }), item(2, [100, 100, 100])],
      targetUtilizationPercent: 100,
    });
    assert.equal(stacked.packages.length, 1);
    const top = stacked.packages[0]!.items.find((placed) => placed.itemId === 1)!;
    assert.equal(top.z, 100);
    const apart = solve({
      catalog: [column],
      items: [item(1, [100, 100, 100], { noStack: true, quantity: 2 })],
      targetUtilizationPercent: 100,
    });
    assert.equal(apart.packages.length, 2);
    const custom = solve({
      catalog: [column],
      customCartons: [{ ...carton(0, [100, 100, 100]), id: undefined }],
      items: [item(1, [100, 100, 100], { noStack: true, quantity: 2 })],
      targetUtilizationPercent: 100,
    });
    assert.deepEqual(
      custom.packages.map((pack) => pack.carton),
      [
        { source: 'custom', id: null, index: 0 },
        { source: 'custom', id: null, index: 0 },
      ],
    );
  });

  it('leaves inactive cartons alone', () => {
    const output = solve({
      catalog: [carton(1, [100, 100, 100], 5, { active: false }), carton(2, [150, 150, 150])],
      items: [item(1, [100, 100, 100])],
      targetUtilizationPercent: 100,
    });
    assert.equal(output.packages[0]!.carton.id, 2);
  });

  it('answers the same plan for the same input and seed', () => {
    const input = randomOrder(mulberry32(99), 25);
    const a = solveCartons({ ...input, maxIterations: 200, timeLimitMs: 60_000 });
    const b = solveCartons({ ...input, maxIterations: 200, timeLimitMs: 60_000 });
    assert.deepEqual(a.packages, b.packages);
  });

  it('answers only plans the independent checker accepts, on random orders', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = mulberry32(seed);
      const input = randomOrder(random, 1 + Math.floor(random() * 30));
      const output = solveCartons({ ...input, seed, maxIterations: 150, timeLimitMs: 60_000 });
      const check = checkCartonPlan(input, output);
      assert.deepEqual(check.violations, [], `seed ${seed}: ${JSON.stringify({ input, output })}`);
      const packed = output.packages.reduce((sum, pack) => sum + pack.items.length, 0);
      const unfit = output.unfit.reduce((sum, entry) => sum + entry.quantity, 0);
      assert.equal(
        packed + unfit,
        input.items.reduce((sum, entry) => sum + entry.quantity, 0),
      );
    }
  });
});

/** A random order against a random catalog, with every rule in play, some pieces too big or heavy. */
function randomOrder(random: () => number, lines: number): CartonSolverInput {
  const side = (low: number, high: number) => low + Math.floor(random() * (high - low));
  const catalog = Array.from({ length: 1 + Math.floor(random() * 8) }, (_, id) => {
    const wall = side(3, 8);
    return carton(id + 1, [side(100, 600), side(100, 400), side(50, 400)], wall, {
      maxGrossGrams: side(2_000, 25_000),
      costMinor: side(50, 500),
      active: random() > 0.1,
    });
  });
  const items = Array.from({ length: lines }, (_, id) =>
    item(id + 1, [side(20, 350), side(20, 250), side(10, 200)], {
      weightGrams: side(50, 6_000),
      quantity: 1 + Math.floor(random() * 3),
      mayRotate: random() > 0.2,
      thisSideUp: random() < 0.2,
      noStack: random() < 0.1,
    }),
  );
  return { catalog, items, targetUtilizationPercent: side(60, 101), seed: 1 };
}

describe('the independent carton checker', () => {
  it('refuses overlaps, pieces sticking out, wrong turns, missing and doubled pieces, overweight and overfill', () => {
    const input: CartonSolverInput = {
      catalog: [carton(1, [200, 200, 200], 5, { maxGrossGrams: 1_000 })],
      items: [item(1, [100, 100, 100], { quantity: 4, weightGrams: 300, thisSideUp: true })],
      targetUtilizationPercent: 30,
    };
    const good = solveCartons({ ...input, maxIterations: 50 });
    assert.deepEqual(checkCartonPlan(input, good).violations, []);
    const broken = structuredClone(good);
    const [first, second] = broken.packages;
    first!.items[1]!.x = first!.items[0]!.x;
    first!.items[1]!.y = first!.items[0]!.y;
    first!.items[1]!.z = first!.items[0]!.z;
    first!.items[0]!.orientation = 'lhw';
    second!.items[0]!.x = 150;
    first!.items.push({ ...second!.items[0]!, x: 0, y: 0, z: 100 });
    const found = checkCartonPlan(input, broken).violations.join('\n');
    for (const expected of [
      'overlaps',
      'turned lhw',
      'sticks out',
      'packed 2 times',
      'over 1000 g',
      'beyond 30 %',
    ]) {
      assert.ok(found.includes(expected), `${expected} not in:\n${found}`);
    }
  });
});
