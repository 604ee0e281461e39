/**
 * One construction of a load by block building over maximal spaces (after Parreño, Alvarez-Valdes,
 * Oliveira and Tamarit 2008, and Fanslau and Bortfeldt 2010): take the free cuboid nearest a
 * corner of the space, fill it with the best block (n_x x n_y x n_z boxes of one type in one
 * orientation) that keeps every rule, split the free spaces around it, repeat. `greediness`
 * chooses how often a step takes one of the next-best blocks instead, for randomized restarts.
 */
import type { BoxType, Orientation } from './box-types.ts';
import { type Cuboid, spaceContains } from './space.ts';
import type { LoadingSpace } from './types.ts';

export interface Block {
  type: BoxType;
  orientation: Orientation;
  nx: number;
  ny: number;
  nz: number;
}

export interface PlacedBlock extends Cuboid {
  block: Block;
  weight: number;
  /** Placed blocks this one rests on (top face at its base, footprints overlapping). */
  restsOn: number[];
}

export interface ConstructionRules {
  space: LoadingSpace;
  types: BoxType[];
  supportShare: number;
  /** The search's randomness: 0 always the best block; otherwise one of the top few, sometimes. */
  random: () => number;
  greediness: { chance: number; among: number };
  /**
   * How a block is valued: its volume, or its volume less the slivers it leaves in the space
   * along each axis that no remaining box can use (a best-fit rule).
   */
  scoring: 'volume' | 'fit';
}

export interface Construction {
  placed: PlacedBlock[];
  remaining: number[];
  volume: number;
  weight: number;
}

const overlapLength = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

const footprintOverlap = (a: Cuboid, b: Cuboid) =>
  overlapLength(a.x0, a.x1, b.x0, b.x1) * overlapLength(a.y0, a.y1, b.y0, b.y1);

const crossSectionOverlap = (a: Cuboid, b: Cuboid) =>
  overlapLength(a.y0, a.y1, b.y0, b.y1) * overlapLength(a.z0, a.z1, b.z0, b.z1);

const volumeOf = (c: Cuboid) => (c.x1 - c.x0) * (c.y1 - c.y0) * (c.z1 - c.z0);

const contains = (outer: Cuboid, inner: Cuboid) =>
  outer.x0 <= inner.x0 &&
  outer.y0 <= inner.y0 &&
  outer.z0 <= inner.z0 &&
  outer.x1 >= inner.x1 &&
  outer.y1 >= inner.y1 &&
  outer.z1 >= inner.z1;

/**
 * Unloading order with the door at x = length: `later` blocks `earlier` when it stands between it
 * and the door (entirely at larger x, overlapping in the y-z projection) or rests above it
 * (entirely higher, overlapping in the x-y projection).
 */
export function blocksUnloading(earlier: Cuboid, later: Cuboid): boolean {
  if (later.x0 >= earlier.x1 && crossSectionOverlap(earlier, later) > 0) return true;
  return later.z0 >= earlier.z1 && footprintOverlap(earlier, later) > 0;
}

export interface ConstructionState {
  choices(limit: number): PlacedBlock[];
  place(block: PlacedBlock): void;
  result(): Construction;
}

/**
 * A load under construction; with `prefix` (blocks of an earlier construction, in their order)
 * it first places those as they were, which is how the search rebuilds the end of a load.
 */
export function startConstruction(rules: ConstructionRules, prefix: PlacedBlock[] = []): ConstructionState {
  const { space, types } = rules;
  const payload = space.payloadKg ?? Number.POSITIVE_INFINITY;
  const multiStop = new Set(types.map((t) => t.stop)).size > 1;
  const remaining = types.map((t) => t.item.quantity);
  const placed: PlacedBlock[] = [];
  const topsAt = new Map<number, number[]>();
  /** Placed blocks each block carries directly (the reverse of restsOn). */
  const carries: number[][] = [];
  let hasLoadLimits = false;
  let spaces: Cuboid[] = [{ x0: 0, y0: 0, z0: 0, x1: space.length, y1: space.width, z1: space.height }];
  let volume = 0;
  let weight = 0;

  const smallestLeft = () => {
    let minDim = Number.POSITIVE_INFINITY;
    let minVolume = Number.POSITIVE_INFINITY;
    for (const type of types) {
      if (remaining[type.index]! <= 0) continue;
      for (const o of type.orientations) minDim = Math.min(minDim, o.dx, o.dy, o.dz);
      minVolume = Math.min(minVolume, type.volume);
    }
    return { minDim, minVolume };
  };

  /** Corner distances to the nearest wall, sorted: the space nearest a corner is filled first. */
  const anchorOf = (s: Cuboid) => {
    const front = multiStop || s.x0 <= space.length - s.x1;
    const left = s.y0 <= space.width - s.y1;
    const dx = front ? s.x0 : space.length - s.x1;
    const dy = left ? s.y0 : space.width - s.y1;
    const key = multiStop
      ? [dx, Math.min(dy, s.z0), Math.max(dy, s.z0)]
      : [dx, dy, s.z0].sort((a, b) => a - b);
    return { front, left, key };
  };

  const pickSpace = (): number => {
    let best = -1;
    let bestKey: number[] = [];
    let bestVolume = 0;
    for (let i = 0; i < spaces.length; i++) {
      const s = spaces[i]!;
      const { key } = anchorOf(s);
      const v = volumeOf(s);
      let better = best < 0;
      if (!better) {
        for (let k = 0; k < 3; k++) {
          if (key[k]! !== bestKey[k]!) {
            better = key[k]! < bestKey[k]!;
            break;
          }
          if (k === 2) better = v > bestVolume;
        }
      }
      if (better) {
        best = i;
        bestKey = key;
        bestVolume = v;
      }
    }
    return best;
  };

  const blocksFor = (s: Cuboid): Block[] => {
    const sx = s.x1 - s.x0;
    const sy = s.y1 - s.y0;
    const sz = s.z1 - s.z0;
    const blocks: Block[] = [];
    for (const type of types) {
      let left = remaining[type.index]!;
      if (left <= 0) continue;
      if (type.weight > 0) left = Math.min(left, Math.floor((payload - weight) / type.weight + 1e-9));
      if (left <= 0) continue;
      for (const orientation of type.orientations) {
        if (orientation.dx > sx || orientation.dy > sy || orientation.dz > sz) continue;
        const fit = [
          Math.floor(sx / orientation.dx),
          Math.floor(sy / orientation.dy),
          type.stackable ? Math.floor(sz / orientation.dz) : 1,
        ];
        const seen = new Set<number>();
        // Per fill order: the fullest block, the layer (two axes only) and the row (one axis).
        for (const order of FILL_ORDERS) {
          for (let axes = 3; axes >= 1; axes--) {
            const n = [1, 1, 1];
            let budget = left;
            for (const axis of order.slice(0, axes)) {
              n[axis] = Math.max(1, Math.min(fit[axis]!, budget));
              budget = Math.floor(budget / n[axis]!);
            }
            const key = (n[0]! * 1000 + n[1]!) * 1000 + n[2]!;
            if (seen.has(key)) continue;
            seen.add(key);
            blocks.push({ type, orientation, nx: n[0]!, ny: n[1]!, nz: n[2]! });
          }
        }
      }
    }
    return blocks;
  };

  /** Blocks whose top is at z and whose footprint overlaps c's, with the overlap area. */
  const supportersOf = (c: Cuboid) => {
    const out: Array<{ index: number; area: number }> = [];
    for (const index of topsAt.get(c.z0) ?? []) {
      const area = footprintOverlap(placed[index]!, c);
      if (area > 0) out.push({ index, area });
    }
    return out;
  };

  const supportedEnough = (c: Cuboid, block: Block, supporters: Array<{ index: number; area: number }>) => {
    if (c.z0 === 0 || rules.supportShare <= 0) return true;
    const need = rules.supportShare * block.orientation.dx * block.orientation.dy;
    const whole = supporters.reduce((sum, s) => sum + s.area, 0);
    if (whole >= (c.x1 - c.x0) * (c.y1 - c.y0) - 1e-9) return true;
    if (whole < need * block.nx * block.ny - 1e-9) return false;
    // Partly supported: every box of the bottom layer needs its own share.
    const { dx, dy } = block.orientation;
    for (let i = 0; i < block.nx; i++) {
      for (let j = 0; j < block.ny; j++) {
        const box = {
          x0: c.x0 + i * dx,
          y0: c.y0 + j * dy,
          z0: c.z0,
          x1: c.x0 + (i + 1) * dx,
          y1: c.y0 + (j + 1) * dy,
          z1: c.z0 + 1,
        };
        let area = 0;
        for (const s of supporters) area += footprintOverlap(placed[s.index]!, box);
        if (area < need - 1e-9) return false;
      }
    }
    return true;
  };

  /** Everything a block carries, directly or through others, by weight. */
  const loadOn = (index: number): number => {
    const seen = new Set<number>();
    const stack = [...carries[index]!];
    let total = 0;
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      total += placed[next]!.weight;
      stack.push(...carries[next]!);
    }
    return total;
  };

  const loadLimitsHold = (supporters: number[], added: number): boolean => {
    const seen = new Set<number>();
    const stack = [...supporters];
    while (stack.length > 0) {
      const index = stack.pop()!;
      if (seen.has(index)) continue;
      seen.add(index);
      const limit = placed[index]!.block.type.item.maxLoadOnTopKg;
      if (limit !== undefined && loadOn(index) + added > limit + 1e-9) return false;
      stack.push(...placed[index]!.restsOn);
    }
    return true;
  };

  const keepsUnloadingOrder = (c: Cuboid, stop: number): boolean => {
    for (const p of placed) {
      const theirs = p.block.type.stop;
      if (theirs === stop) continue;
      if (theirs > stop ? blocksUnloading(c, p) : blocksUnloading(p, c)) return false;
    }
    return true;
  };

  /** Where the block may go in s: the anchor corner, and on a raised floor each top's corner. */
  const positionsFor = (s: Cuboid, dx: number, dy: number, anchor: ReturnType<typeof anchorOf>) => {
    const at = (x: number, y: number) => ({ x, y });
    const positions = [at(anchor.front ? s.x0 : s.x1 - dx, anchor.left ? s.y0 : s.y1 - dy)];
    if (s.z0 > 0 && rules.supportShare > 0) {
      for (const index of topsAt.get(s.z0) ?? []) {
        const top = placed[index]!;
        if (footprintOverlap(top, s) <= 0) continue;
        const x = anchor.front ? Math.max(s.x0, top.x0) : Math.min(s.x1, top.x1) - dx;
        const y = anchor.left ? Math.max(s.y0, top.y0) : Math.min(s.y1, top.y1) - dy;
        if (x < s.x0 || y < s.y0 || x + dx > s.x1 || y + dy > s.y1) continue;
        if (!positions.some((p) => p.x === x && p.y === y)) positions.push(at(x, y));
      }
    }
    return positions;
  };

  const tryPlace = (s: Cuboid, block: Block, anchor: ReturnType<typeof anchorOf>) => {
    const { dx, dy, dz } = block.orientation;
    const ex = dx * block.nx;
    const ey = dy * block.ny;
    const ez = dz * block.nz;
    const blockWeight = block.type.weight * block.nx * block.ny * block.nz;
    if (weight + blockWeight > payload + 1e-9) return null;
    for (const { x, y } of positionsFor(s, ex, ey, anchor)) {
      const c = { x0: x, y0: y, z0: s.z0, x1: x + ex, y1: y + ey, z1: s.z0 + ez };
      if (space.crossSection && !spaceContains(space, c)) continue;
      const supporters = c.z0 > 0 ? supportersOf(c) : [];
      if (!supportedEnough(c, block, supporters)) continue;
      if (supporters.some((s) => placed[s.index]!.block.type.item.fragile)) continue;
      const below = supporters.map((s) => s.index);
      if (hasLoadLimits && !loadLimitsHold(below, blockWeight)) continue;
      if (multiStop && !keepsUnloadingOrder(c, block.type.stop)) continue;
      return { ...c, block, weight: blockWeight, restsOn: below };
    }
    return null;
  };

  const place = (p: PlacedBlock) => {
    const index = placed.length;
    placed.push(p);
    carries.push([]);
    for (const below of p.restsOn) carries[below]!.push(index);
    topsAt.set(p.z1, [...(topsAt.get(p.z1) ?? []), index]);
    if (p.block.type.item.maxLoadOnTopKg !== undefined) hasLoadLimits = true;
    const count = p.block.nx * p.block.ny * p.block.nz;
    remaining[p.block.type.index]! -= count;
    volume += volumeOf(p);
    weight += p.weight;
    const { minDim, minVolume } = smallestLeft();
    const next: Cuboid[] = [];
    const pieces: Cuboid[] = [];
    for (const s of spaces) {
      if (
        overlapLength(s.x0, s.x1, p.x0, p.x1) <= 0 ||
        overlapLength(s.y0, s.y1, p.y0, p.y1) <= 0 ||
        overlapLength(s.z0, s.z1, p.z0, p.z1) <= 0
      ) {
        next.push(s);
        continue;
      }
      if (p.x0 > s.x0) pieces.push({ ...s, x1: p.x0 });
      if (p.x1 < s.x1) pieces.push({ ...s, x0: p.x1 });
      if (p.y0 > s.y0) pieces.push({ ...s, y1: p.y0 });
      if (p.y1 < s.y1) pieces.push({ ...s, y0: p.y1 });
      if (p.z0 > s.z0) pieces.push({ ...s, z1: p.z0 });
      if (p.z1 < s.z1) pieces.push({ ...s, z0: p.z1 });
    }
    const usable = (c: Cuboid) =>
      c.x1 - c.x0 >= minDim && c.y1 - c.y0 >= minDim && c.z1 - c.z0 >= minDim && volumeOf(c) >= minVolume;
    const kept = next.filter(usable);
    for (const piece of pieces) {
      if (!usable(piece)) continue;
      if (kept.some((k) => contains(k, piece))) continue;
      for (let i = kept.length - 1; i >= 0; i--) if (contains(piece, kept[i]!)) kept.splice(i, 1);
      kept.push(piece);
    }
    spaces = kept;
  };

  /** Blocks best first: later stops, then score, then shallower or flatter, then carriers. */
  const ranked = (blocks: Block[], s: Cuboid): Block[] => {
    const { minDim } = smallestLeft();
    const extent = [s.x1 - s.x0, s.y1 - s.y0, s.z1 - s.z0];
    const scored = blocks.map((block) => {
      const o = block.orientation;
      const size = [o.dx * block.nx, o.dy * block.ny, o.dz * block.nz];
      let score = size[0]! * size[1]! * size[2]!;
      if (rules.scoring === 'fit') {
        for (let axis = 0; axis < 3; axis++) {
          const left = extent[axis]! - size[axis]!;
          if (left > 0 && left < minDim) score -= (left * (size[0]! * size[1]! * size[2]!)) / size[axis]!;
        }
      }
      // Ties: with stops, the shallower block keeps a stop's boxes in one wall along the length;
      // otherwise the flatter one keeps the load low and the tops usable.
      return { block, score, depth: multiStop ? size[0]! : size[2]! };
    });
    scored.sort(
      (a, b) =>
        b.block.type.stop - a.block.type.stop ||
        b.score - a.score ||
        a.depth - b.depth ||
        Number(b.block.type.stackable) - Number(a.block.type.stackable),
    );
    return scored.map((entry) => entry.block);
  };

  for (const p of prefix) place(p);
  /** The next step's feasible blocks, best first (at most `limit`); spaces that take none go. */
  const choices = (limit: number): PlacedBlock[] => {
    while (spaces.length > 0) {
      const at = pickSpace();
      const s = spaces[at]!;
      const anchor = anchorOf(s);
      const found: PlacedBlock[] = [];
      // Alternatives differ in box type or orientation, not just in a block's proportions.
      const kinds = new Set<string>();
      for (const block of ranked(blocksFor(s), s)) {
        const kind = `${block.type.index} ${block.orientation.code} ${Number(block.nx > 1) + Number(block.ny > 1) + Number(block.nz > 1)}`;
        if (kinds.has(kind)) continue;
        const candidate = tryPlace(s, block, anchor);
        if (!candidate) continue;
        kinds.add(kind);
        found.push(candidate);
        if (found.length >= limit) break;
      }
      if (found.length > 0) return found;
      spaces.splice(at, 1);
    }
    return [];
  };

  return { choices, place, result: () => ({ placed, remaining, volume, weight }) };
}

export function construct(rules: ConstructionRules, prefix: PlacedBlock[] = []): Construction {
  const state = startConstruction(rules, prefix);
  for (;;) {
    const { chance, among } = rules.greediness;
    const wanted = rules.random() < chance ? 1 + Math.floor(rules.random() * among) : 1;
    const found = state.choices(wanted);
    if (found.length === 0) return state.result();
    state.place(found[found.length - 1]!);
  }
}

/** Fill priorities: which axis a block grows along first, second and third. */
const FILL_ORDERS: Array<[number, number, number]> = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];
