import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLoad, floorFirstCentreHeight } from '../../../../../bench/packing/checker.ts';
import { mulberry32 } from '../../../../platform/random.ts';
import { solveLoading } from './solve.ts';
import type { LoadingInput, LoadingItem, LoadingOutput, LoadingSpace } from './types.ts';

/** Iteration-bound, so answers do not depend on the machine's speed. */
const FEW = { maxIterations: 30, timeLimitMs: 60_000 };

function solveChecked(input: LoadingInput): LoadingOutput {
  const output = solveLoading(input);
  const errors = checkLoad(input.space, input.items, output.placements, input.options?.supportShare ?? 0.75);
  if (errors.length > 0) throw new Error(JSON.stringify({ errors: errors.slice(0, 5) }));
  return output;
}

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
function day(stops: number, fill: number, seed: number): LoadingItem[] {
  const random = mulberry32(seed);
  const wanted = fill * VAN.length * VAN.width * VAN.height;
  const items: LoadingItem[] = [];
  for (let volume = 0; volume < wanted; ) {
    const n = items.length;
    const [length, width, height] = [
      200 + Math.round(random() * 40) * 10,
      150 + Math.round(random() * 30) * 10,
      100 + Math.round(random() * 30) * 10,
    ];
    items.push({
      id: `p${n}`,
      length,
      width,
      height,
      quantity: 1,
      weightKg: 1 + random() * 14,
      stop: 1 + (n % stops),
    });
    volume += length * width * height;
  }
  return items;
}

describe('a load handled by hand', () => {
  for (const [stops, fill, iterations] of [
    [20, 0.02, 30],
    [30, 0.3, 30],
    [60, 0.3, 30],
    [20, 0.7, 10],
  ] as const) {
    it(`keeps ${stops} stops at ${fill * 100} % within reach, stable, each stop one reach from the door`, () => {
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

  it('rests no box with its centre beyond what holds it', () => {
    // Without a support share, a beam may lie on a post at the front wall: its middle over air.
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
    const loose = solveChecked({ space, items, options: { ...FEW, supportShare: 0 } });
    assert.equal(loose.placements.length, 2);
    const stable = solveChecked({
      space: { ...space, stability: { maxStackRatio: 10 } },
      items,
      options: { ...FEW, supportShare: 0 },
    });
    assert.equal(stable.placements.length, 1);
    assert.equal(stable.placements[0]!.z, 0);
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
