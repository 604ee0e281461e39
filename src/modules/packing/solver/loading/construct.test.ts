import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../../../platform/random.ts';
import { boxTypesOf } from './box-types.ts';
import { type ConstructionRules, type PlacedBlock, startConstruction } from './construct.ts';
import type { LoadingItem } from './types.ts';

describe('block construction', () => {
  it('sizes a block to a supported top narrower than the free space above it, and forks a state', () => {
    // The base leaves a 2-long strip of floor too thin for a cap, so the free space above the
    // base is 16 long while its top is 14: a block of caps sized to the whole space (5 x 3 = 15)
    // would hang over, and rows of caps were the only supported blocks. Sized to the top, four
    // by two caps (12 x 10) stand on it in one block.
    const items: LoadingItem[] = [
      { id: 'base', length: 14, width: 10, height: 5, quantity: 1, mayBeVertical: [false, false, true] },
      { id: 'cap', length: 3, width: 5, height: 3, quantity: 100, mayBeVertical: [false, false, true] },
    ];
    const types = boxTypesOf(items);
    const rules: ConstructionRules = {
      space: { length: 16, width: 10, height: 8 },
      types,
      supportShare: 1,
      random: mulberry32(1),
      greediness: { chance: 0, among: 1 },
      scoring: 'volume',
    };
    const base: PlacedBlock = {
      x0: 0,
      y0: 0,
      z0: 0,
      x1: 14,
      y1: 10,
      z1: 5,
      block: { type: types[0]!, orientation: types[0]!.orientations[0]!, nx: 1, ny: 1, nz: 1 },
      weight: 0,
      restsOn: [],
      columns: [],
    };
    const state = startConstruction(rules, [base]);
    const [best] = state.choices(1);
    assert.ok(best);
    assert.equal(best.block.type.item.id, 'cap');
    assert.equal(best.block.nx * best.block.ny * best.block.nz, 8);
    assert.deepEqual([best.x0, best.y0, best.z0, best.x1, best.y1, best.z1], [0, 0, 5, 12, 10, 8]);

    // A fork goes on by itself: placing the caps there leaves the state it came from as it was.
    const fork = state.fork();
    fork.place(best);
    assert.equal(fork.result().volume, 14 * 10 * 5 + 12 * 10 * 3);
    assert.equal(fork.result().remaining[1], 92);
    assert.equal(state.result().volume, 14 * 10 * 5);
    assert.equal(state.result().remaining[1], 100);
    assert.deepEqual(state.choices(1), [best]);
  });
});
