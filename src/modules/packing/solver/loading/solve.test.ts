import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkLoad,
  floorFirstCentreHeight,
  stopsOverOneReach,
} from '../../../../../bench/packing/checker.ts';
import { multiDropDay } from '../../../../../bench/packing/multi-drop-day.ts';
import { mulberry32 } from '../../../../platform/random.ts';
import { boxTypesOf } from './box-types.ts';
import { construct } from './construct.ts';
import { solveLoading } from './solve.ts';
import { chamferedCrossSection } from './space.ts';
import type { Axle, LoadingInput, LoadingItem, LoadingOutput, LoadingSpace } from './types.ts';

/** Iteration-bound, so answers do not depend on the machine's speed. */
const FEW = { maxIterations: 30, timeLimitMs: 60_000 };

function solveChecked(input: LoadingInput): LoadingOutput {
  const output = solveLoading(input);
  const errors = checkLoad(input.space, input.items, output.placements, input.options?.supportShare ?? 0.75);
  if (errors.length > 0) throw new Error(JSON.stringify({ errors, placements: output.placements }));
  return output;
}

const placedOf = (output: LoadingOutput, itemId: string) =>
  output.placements.filter((p) => p.itemId === itemId);

describe('loading solver', () => {
  it('fills a cube with cubes completely', () => {
    const output = solveChecked({
      space: { length: 400, width: 400, height: 400 },
      items: [{ id: 'cube', length: 100, width: 100, height: 100, quantity: 70 }],
      options: FEW,
    });
    assert.equal(output.placements.length, 64);
    assert.equal(output.volumeUtilization, 1);
    assert.deepEqual(output.unplaced, [{ itemId: 'cube', item: 0, quantity: 6, reason: 'no_room' }]);
    assert.deepEqual(output.centreOfGravityOffset, { x: 0, y: 0, z: 0 });
  });

  it('refuses a box resting on too small a base when support is on, or with its centre over air under stability, and takes it when both are off', () => {
    // A later-stop post must stand deepest; the beam spans the whole length, so it can only lie
    // on top of the post, 20 % supported.
    const items: LoadingItem[] = [
      {
        id: 'post',
        length: 2,
        width: 2,
        height: 4,
        quantity: 1,
        stop: 2,
        mayBeVertical: [false, false, true],
      },
      {
        id: 'beam',
        length: 10,
        width: 2,
        height: 5,
        quantity: 1,
        stop: 1,
        mayBeVertical: [false, false, true],
      },
    ];
    const space = { length: 10, width: 2, height: 9 };
    const off = solveChecked({ space, items, options: { ...FEW, supportShare: 0 } });
    assert.equal(off.placements.length, 2);
    assert.equal(placedOf(off, 'beam')[0]!.z, 4);
    // With stability, no support share either, but the beam's middle would be over air.
    const stable = solveChecked({
      space: { ...space, stability: { maxStackRatio: 10 } },
      items,
      options: { ...FEW, supportShare: 0 },
    });
    assert.equal(stable.placements.length, 1);
    assert.equal(stable.placements[0]!.z, 0);
    const on = solveChecked({ space, items, options: { ...FEW, supportShare: 0.75 } });
    // Either box alone: the beam on the floor leaves the post nowhere (on top it would block it).
    assert.equal(on.placements.length, 1);
    assert.equal(on.placements[0]!.z, 0);
    assert.equal(on.unplaced.length, 1);
  });

  it('puts nothing on a fragile box: fragile boxes end up on top', () => {
    const output = solveChecked({
      space: { length: 200, width: 200, height: 200 },
      items: [
        { id: 'glass', length: 100, width: 100, height: 100, quantity: 4, fragile: true },
        { id: 'tins', length: 100, width: 100, height: 100, quantity: 4 },
      ],
      options: FEW,
    });
    assert.equal(output.placements.length, 8);
    assert.deepEqual(
      placedOf(output, 'glass').map((p) => p.z),
      [100, 100, 100, 100],
    );
  });

  it('keeps the load on a box within its limit', () => {
    const output = solveChecked({
      space: { length: 100, width: 100, height: 300 },
      items: [
        { id: 'crate', length: 100, width: 100, height: 100, quantity: 1, weightKg: 10, maxLoadOnTopKg: 15 },
        { id: 'sack', length: 100, width: 100, height: 100, quantity: 2, weightKg: 10 },
      ],
      options: { ...FEW, supportShare: 1 },
    });
    // The crate carries at most one sack: it goes in the middle or on top, never at the bottom.
    assert.equal(output.placements.length, 3);
    assert.notEqual(placedOf(output, 'crate')[0]!.z, 0);
  });

  it('a contoured ULD refuses a box that the plain box takes', () => {
    const item = { id: 'tall', length: 1500, width: 1500, height: 1300, quantity: 1 };
    const box = { length: 1500, width: 1500, height: 1600 };
    const plain = solveChecked({ space: box, items: [item], options: FEW });
    assert.equal(plain.placements.length, 1);
    const crossSection = chamferedCrossSection(1500, 1600, null, { inset: 400, drop: 400 });
    const uld = { ...box, crossSection };
    const contoured = solveChecked({ space: uld, items: [item], options: FEW });
    assert.equal(contoured.placements.length, 0);
    assert.deepEqual(contoured.unplaced, [
      { itemId: 'tall', item: 0, quantity: 1, reason: 'outside_contour' },
    ]);
    // A narrower box stands clear of the chamfer.
    const narrow = solveChecked({
      space: uld,
      items: [{ ...item, width: 1100, height: 1500 }],
      options: FEW,
    });
    assert.equal(narrow.placements.length, 1);
    assert.ok(narrow.volumeUtilization > (1000 * 1100 * 1500) / (1500 * 1500 * 1600));
  });

  it('loads later stops deeper so that earlier stops leave first', () => {
    const cube = {
      length: 100,
      width: 100,
      height: 100,
      quantity: 2,
      mayBeVertical: [true, true, true] as [boolean, boolean, boolean],
    };
    const output = solveChecked({
      space: { length: 300, width: 100, height: 200 },
      items: [
        { ...cube, id: 'first', stop: 1 },
        { ...cube, id: 'second', stop: 2 },
        { ...cube, id: 'third', stop: 3 },
      ],
      options: FEW,
    });
    assert.equal(output.placements.length, 6);
    for (const [id, x] of [
      ['third', 0],
      ['second', 100],
      ['first', 200],
    ] as const) {
      assert.deepEqual(
        placedOf(output, id).map((p) => p.x),
        [x, x],
        id,
      );
    }
  });

  it('answers weight, centre of gravity and loading steps', () => {
    const output = solveChecked({
      space: { length: 200, width: 100, height: 100, payloadKg: 25 },
      items: [{ id: 'block', length: 100, width: 100, height: 100, quantity: 3, weightKg: 10 }],
      options: FEW,
    });
    assert.equal(output.placements.length, 2);
    assert.equal(output.totalWeightKg, 20);
    assert.equal(output.weightUtilization, 0.8);
    assert.deepEqual(output.unplaced, [{ itemId: 'block', item: 0, quantity: 1, reason: 'payload_reached' }]);
    assert.deepEqual(
      output.placements.map((p) => [p.step, p.x]),
      [
        [1, 0],
        [2, 100],
      ],
    );
    assert.deepEqual(output.centreOfGravity, { x: 100, y: 50, z: 50 });
  });

  it('gives the same load for a seed and an iteration count, and never a smaller one for more iterations', () => {
    const input = (maxIterations: number): LoadingInput => ({
      space: { length: 230, width: 120, height: 110 },
      items: [
        { id: 'a', length: 47, width: 31, height: 23, quantity: 30, mayBeVertical: [false, true, true] },
        { id: 'b', length: 38, width: 29, height: 41, quantity: 25 },
        { id: 'c', length: 61, width: 44, height: 27, quantity: 12, mayBeVertical: [false, false, true] },
      ],
      options: { supportShare: 1, maxIterations, timeLimitMs: 60_000, seed: 7 },
    });
    // Enough constructions to reach the look-ahead pilots of more than one step.
    const first = solveChecked(input(3000));
    const again = solveChecked(input(3000));
    assert.deepEqual(again.placements, first.placements);
    const fewer = [2, 50, 400].map((iterations) => solveChecked(input(iterations)).volumeUtilization);
    const utilizations = [...fewer, first.volumeUtilization];
    for (let i = 1; i < utilizations.length; i++) assert.ok(utilizations[i]! >= utilizations[i - 1]!);
  });

  it('every answer on random instances passes the independent checker', () => {
    const random = mulberry32(7);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    for (let round = 0; round < 40; round++) {
      const width = int(100, 300);
      const height = int(100, 300);
      const contoured = round % 4 === 3;
      const space = {
        length: int(200, 600),
        width,
        height,
        payloadKg: round % 3 === 0 ? int(50, 400) : undefined,
        crossSection: contoured
          ? chamferedCrossSection(width, height, { inset: 40, drop: 60 }, null)
          : undefined,
      };
      const items: LoadingItem[] = Array.from({ length: int(1, 6) }, (_, i) => ({
        id: `t${i}`,
        length: int(20, 120),
        width: int(20, 120),
        height: int(20, 120),
        quantity: int(1, 25),
        weightKg: int(1, 20),
        mayBeVertical: [random() < 0.7, random() < 0.7, true],
        fragile: random() < 0.15,
        maxLoadOnTopKg: random() < 0.15 ? int(5, 60) : undefined,
        stop: round % 2 === 0 ? int(1, 3) : undefined,
      }));
      const supportShare = [0, 0.5, 0.75, 1][round % 4]!;
      // Every fifth space stands on two axles whose limits some loads must be thinned for.
      const axles =
        round % 5 === 1
          ? ([
              { positionMm: int(-200, 100), maxLoadKg: int(40, 400) },
              { positionMm: int(space.length - 100, space.length + 200), maxLoadKg: int(40, 400) },
            ] as [Axle, Axle])
          : undefined;
      const input = {
        space: { ...space, axles },
        items,
        options: { maxIterations: 8, timeLimitMs: 60_000, seed: round, supportShare },
      };
      const output = solveChecked(input);
      const placed = output.placements.length + output.unplaced.reduce((sum, u) => sum + u.quantity, 0);
      assert.equal(
        placed,
        items.reduce((sum, item) => sum + item.quantity, 0),
        `round ${round}`,
      );
    }
  });

  describe('on two axles', () => {
    // A row of ten 100 mm cubes of 100 kg fills the space; the axles stand under its two ends.
    const row = (quantity: number, front: number, rear: number): LoadingInput => ({
      space: {
        length: 1000,
        width: 100,
        height: 100,
        axles: [
          { positionMm: 0, maxLoadKg: front },
          { positionMm: 1000, maxLoadKg: rear },
        ],
      },
      items: [{ id: 'cube', length: 100, width: 100, height: 100, quantity, weightKg: 100 }],
      options: FEW,
    });

    it('slides a load off the front wall as far as the front axle needs, and no further', () => {
      // Against the front wall five cubes put 375 kg on the front axle; 150 mm back, 300 kg.
      const output = solveChecked(row(5, 300, 1000));
      assert.equal(output.placements.length, 5);
      assert.deepEqual(output.unplaced, []);
      assert.equal(Math.min(...output.placements.map((p) => p.x)), 150);
      assert.deepEqual(output.axleLoadsKg, [300, 200]);
    });

    it('takes off the fewest boxes when no slide is enough, and says why', () => {
      // n cubes against the door put 5 n² kg on the front axle: at most 7 keep it within 300.
      const output = solveChecked(row(10, 300, 1000));
      assert.equal(output.placements.length, 7);
      assert.deepEqual(output.unplaced, [{ itemId: 'cube', item: 0, quantity: 3, reason: 'axle_limit' }]);
      assert.ok(output.axleLoadsKg![0] <= 300 && output.axleLoadsKg![1] <= 1000);
      assert.equal(output.volumeUtilization, 0.7);
    });

    it('thins from the door end when the rear axle is the one overloaded', () => {
      const output = solveChecked(row(10, 1000, 300));
      assert.equal(output.placements.length, 7);
      assert.ok(output.placements.every((p) => p.x + p.length <= 700));
    });

    it('reports the weight each axle carries when the load holds as packed', () => {
      const output = solveChecked(row(4, 1000, 1000));
      assert.deepEqual(output.axleLoadsKg, [320, 80]);
      assert.equal(Math.min(...output.placements.map((p) => p.x)), 0);
    });
  });
});

describe('the independent checker of loads handled by hand', () => {
  it('names a box above the reach, a centre over air and a column too tall for its floor', () => {
    const space = { length: 200, width: 100, height: 300, reachLimit: 150, stability: { maxStackRatio: 2 } };
    const items = [
      { length: 50, width: 50, height: 50, quantity: 4 },
      { length: 40, width: 40, height: 40, quantity: 1 },
      { length: 100, width: 20, height: 10, quantity: 1 },
    ];
    const cube = (z: number) => ({ item: 0, x: 0, y: 0, z, length: 50, width: 50, height: 50 });
    const errors = checkLoad(
      space,
      items,
      [
        cube(0),
        cube(50),
        cube(100),
        cube(150),
        { item: 1, x: 160, y: 55, z: 0, length: 40, width: 40, height: 40 },
        { item: 2, x: 100, y: 60, z: 40, length: 100, width: 20, height: 10 },
      ],
      0,
    );
    assert.deepEqual(errors, [
      'box 3: its top at 200 is above the reach limit 150',
      'box 2: a stack 150 high on a floor 50 wide',
      'box 3: a stack 200 high on a floor 50 wide',
      'box 5: its centre is not over its support',
    ]);
  });
});

/** A 3.5 t panel van loaded by hand from the rear door, as the standard `van-3t5` is. */
const VAN: LoadingSpace = {
  length: 3270,
  width: 1780,
  height: 1900,
  payloadKg: 1200,
  reachLimit: 1600,
  stability: { maxStackRatio: 4 },
  loadAtDoor: true,
};

/** A multi-drop day of parcels filling `fill` of the van, the stops taken in turn. */
const day = (stops: number, fill: number, seed: number) => multiDropDay(VAN, stops, fill, seed);

describe('a load handled by hand', () => {
  for (const [stops, fill, iterations] of [
    [20, 0.02, 30],
    [60, 0.02, 30],
    // Everything fits at once here, but higher than floor first: the restarts find a lower load.
    [20, 0.1, 100],
    [30, 0.3, 30],
    [60, 0.3, 30],
    [20, 0.7, 10],
    [60, 0.7, 5],
  ] as const) {
    it(`keeps ${stops} stops at ${fill * 100} % within reach, stable, no box in the way of a stop, no higher than floor first`, () => {
      const items = day(stops, fill, stops);
      const output = solveChecked({ space: VAN, items, options: { ...FEW, maxIterations: iterations } });
      assert.ok(output.placements.length > 0);
      // The checker holds the reach limit and stability; the plan says what it takes to unload.
      for (const stop of output.stops) assert.equal(stop.boxesToMove, 0, `stop ${stop.stop}`);
      assert.equal(
        output.stops.reduce((sum, stop) => sum + stop.boxes, 0),
        output.placements.length,
      );
      // At the door end: the first stops are within reach from the door.
      assert.equal(Math.max(...output.placements.map((p) => p.x + p.length)), VAN.length);
      // No higher than the simplest floor-first load of the same boxes.
      const loaded = output.placements.map((p) => ({ ...items[p.item]!, quantity: 1 }));
      const floorFirst = floorFirstCentreHeight(VAN, loaded);
      assert.ok(
        output.centreOfGravity!.z <= floorFirst,
        `centre at ${output.centreOfGravity!.z}, floor first ${floorFirst}`,
      );
    });
  }

  it('loads every parcel of a 20-stop day at 30 % in walls from the front, where floor first leaves some', () => {
    const items = day(20, 0.3, 20);
    // Floor first, layer by layer: the stops' layers mix, and the first stops find no room left
    // that no later stop's box stands in front of.
    const floorFirst = construct({
      space: VAN,
      types: boxTypesOf(items),
      supportShare: 0.75,
      random: mulberry32(1),
      greediness: { chance: 0, among: 1 },
      scoring: 'low',
    });
    assert.ok(floorFirst.remaining.some((left) => left > 0));
    const output = solveChecked({ space: VAN, items, options: { ...FEW, maxIterations: 10 } });
    assert.deepEqual(output.unplaced, []);
    assert.equal(output.placements.length, items.length);
  });

  it("keeps each stop of a 60-stop day at 30 % within one reach of the load's front, every parcel loaded", () => {
    const items = day(60, 0.3, 60);
    const output = solveChecked({ space: VAN, items, options: FEW });
    assert.deepEqual(output.unplaced, []);
    // Each stop's boxes have their door ends within 600 mm of each other along the van: once the
    // earlier stops are off, the driver takes them from where they stand.
    const spread = stopsOverOneReach(items, output.placements);
    assert.deepEqual(spread, []);
  });

  it('lays a light load on the floor instead of towers against the front wall', () => {
    // Two dozen parcels for eight stops: the demo's busiest route, which towers used to hold.
    const items: LoadingItem[] = Array.from({ length: 24 }, (_, n) => ({
      id: `parcel ${n}`,
      length: 300,
      width: 250,
      height: 200,
      quantity: 1,
      weightKg: 4,
      stop: 1 + (n % 8),
    }));
    const output = solveChecked({ space: VAN, items, options: FEW });
    assert.equal(output.placements.length, 24);
    assert.ok(
      output.placements.every((p) => p.z === 0),
      'every parcel on the floor',
    );
    assert.equal(output.placements[0]!.height, 200, 'each lies on its largest face');
    const plain = solveLoading({
      space: { length: VAN.length, width: VAN.width, height: VAN.height },
      items,
      options: FEW,
    });
    assert.ok(
      Math.max(...plain.placements.map((p) => p.z)) > 0,
      'the same parcels stacked without the rules',
    );
  });

  it('caps a stack at its ratio to the floor it stands on', () => {
    const items: LoadingItem[] = [{ id: 'cube', length: 100, width: 100, height: 100, quantity: 20 }];
    const space = { length: 300, width: 300, height: 1000 };
    // Nine columns on the floor; without the rule the rest stands on them.
    assert.equal(solveChecked({ space, items, options: FEW }).placements.length, 20);
    const stable = solveChecked({
      space: { ...space, stability: { maxStackRatio: 2 } },
      items,
      options: FEW,
    });
    assert.equal(stable.placements.length, 18);
    assert.ok(stable.placements.every((p) => p.z + p.height <= 200));
    assert.deepEqual(stable.unplaced, [{ itemId: 'cube', item: 0, quantity: 2, reason: 'no_room' }]);
  });

  it('keeps no box above the reach limit, and names what cannot stand below it', () => {
    const items: LoadingItem[] = [
      { id: 'flat', length: 500, width: 500, height: 300, quantity: 30, mayBeVertical: [false, false, true] },
      { id: 'mast', length: 200, width: 200, height: 1800, quantity: 1, mayBeVertical: [false, false, true] },
    ];
    const output = solveChecked({
      space: { length: 1000, width: 1000, height: 1900, reachLimit: 1600 },
      items,
      options: FEW,
    });
    assert.ok(output.placements.every((p) => p.z + p.height <= 1600));
    assert.equal(output.placements.filter((p) => p.itemId === 'flat').length, 20);
    assert.deepEqual(
      output.unplaced.find((u) => u.itemId === 'mast'),
      { itemId: 'mast', item: 1, quantity: 1, reason: 'too_large' },
    );
  });
});
