/**
 * One construction of a load by block building over maximal spaces (after Parreño, Alvarez-Valdes,
 * Oliveira and Tamarit 2008, and Fanslau and Bortfeldt 2010): take the free cuboid nearest a
 * corner of the space, fill it with the best block (n_x x n_y x n_z boxes of one type in one
 * orientation) that keeps every rule, split the free spaces around it, repeat. `greediness`
 * chooses how often a step takes one of the next-best blocks instead, for randomized restarts.
 */
import type { BoxType, Orientation } from './box-types.ts';
import { type Cuboid, reachableHeight, spaceContains } from './space.ts';
import { around, type Footprint, overSupport, stackStands } from './stability.ts';
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
  /**
   * The floor each column of its boxes stands on (row-major: column (i, j) at i * ny + j): the
   * column's footprint on the floor, else around the floors of the columns it rests on. Only
   * kept when the space asks for stability.
   */
  columns: Footprint[];
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
   * along each axis that no remaining box can use (a best-fit rule); or, for a load handled by
   * hand, `low`: the lowest free space first, the flattest block in it, each box on its largest
   * allowed face (floor first, layer by layer).
   */
  scoring: 'volume' | 'fit' | 'low';
  /**
   * With `low` and stops: walls across the space from the front wall, later stops first, none
   * started at or above this height until the floor below it is full; then the rest, lowest first.
   * None: floor first, layer by layer.
   */
  wallHeight?: number;
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
  /** A copy that goes on independently from this point (cheaper than replaying the blocks). */
  fork(): ConstructionState;
  result(): Construction;
}

/**
 * A load under construction; with `prefix` (blocks of an earlier construction, in their order)
 * it first places those as they were, which is how the search rebuilds the end of a load.
 */
export function startConstruction(rules: ConstructionRules, prefix: PlacedBlock[] = []): ConstructionState {
  return resume(rules, null, prefix);
}

/** What a load under construction is, so that a copy can go on from it (ConstructionState.fork). */
interface Snapshot {
  placed: PlacedBlock[];
  remaining: number[];
  topsAt: Map<number, number[]>;
  carries: number[][];
  hasLoadLimits: boolean;
  spaces: Cuboid[];
  volume: number;
  weight: number;
}

function resume(rules: ConstructionRules, from: Snapshot | null, prefix: PlacedBlock[]): ConstructionState {
  const { space, types } = rules;
  const payload = space.payloadKg ?? Number.POSITIVE_INFINITY;
  const multiStop = new Set(types.map((t) => t.stop)).size > 1;
  // A fork copies what place() and choices() change in place; placed blocks, spaces and the
  // per-height lists of tops are never changed once made (place() replaces those lists).
  const remaining = from ? [...from.remaining] : types.map((t) => t.item.quantity);
  const placed: PlacedBlock[] = from ? [...from.placed] : [];
  const topsAt = new Map<number, number[]>(from?.topsAt);
  /** Placed blocks each block carries directly (the reverse of restsOn). */
  const carries: number[][] = from ? from.carries.map((c) => [...c]) : [];
  let hasLoadLimits = from?.hasLoadLimits ?? false;
  let spaces: Cuboid[] = from
    ? [...from.spaces]
    : [
        {
          x0: 0,
          y0: 0,
          z0: 0,
          x1: space.length,
          y1: space.width,
          z1: reachableHeight(space),
        },
      ];
  let volume = from?.volume ?? 0;
  let weight = from?.weight ?? 0;
  const walls = rules.scoring === 'low' && multiStop && rules.wallHeight !== undefined;
  /** How far from the front wall the load reaches. */
  let front = placed.reduce((far, p) => Math.max(far, p.x1), 0);

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

  /** Which corner of s is nearest the walls: the block goes there. */
  const anchorOf = (s: Cuboid) => ({
    front: multiStop || s.x0 <= space.length - s.x1,
    left: s.y0 <= space.width - s.y1,
  });

  /** The walls' order of spaces: below the wall height by depth, then height; above, lowest first. */
  const compareWallSpaces = (a: Cuboid, b: Cuboid): number => {
    const height = rules.wallHeight!;
    const belowA = a.z0 < height;
    const belowB = b.z0 < height;
    if (belowA !== belowB) return belowA ? -1 : 1;
    if (belowA) return a.x0 - b.x0 || a.z0 - b.z0 || a.y0 - b.y0;
    return a.z0 - b.z0 || a.x0 - b.x0 || a.y0 - b.y0;
  };

  /**
   * The space nearest a corner is filled first: corner distances to the nearest walls, sorted
   * (with stops, depth first), compared in turn; ties go to the larger space.
   */
  const pickSpace = (): number => {
    let best = -1;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let bestVolume = 0;
    for (let i = 0; i < spaces.length; i++) {
      const s = spaces[i]!;
      const dx = multiStop ? s.x0 : Math.min(s.x0, space.length - s.x1);
      const dy = Math.min(s.y0, space.width - s.y1);
      const dz = s.z0;
      let k0: number;
      let k1: number;
      let k2: number;
      if (walls) {
        // The walls' order (compareWallSpaces), ties to the larger space: the stops left at the end.
        const below = dz < rules.wallHeight!;
        k0 = below ? 0 : 1;
        k1 = below ? dx : dz;
        k2 = below ? dz : dx;
      } else if (rules.scoring === 'low') {
        k0 = dz;
        k1 = dx;
        k2 = dy;
      } else if (multiStop) {
        k0 = dx;
        k1 = Math.min(dy, dz);
        k2 = Math.max(dy, dz);
      } else {
        k0 = Math.min(dx, dy, dz);
        k1 = Math.max(Math.min(dx, dy), Math.min(Math.max(dx, dy), dz));
        k2 = Math.max(dx, dy, dz);
      }
      const v = volumeOf(s);
      const better =
        best < 0 || (k0 !== b0 ? k0 < b0 : k1 !== b1 ? k1 < b1 : k2 !== b2 ? k2 < b2 : v > bestVolume);
      if (better) {
        best = i;
        b0 = k0;
        b1 = k1;
        b2 = k2;
        bestVolume = v;
      }
    }
    return best;
  };

  /** The blocks that fit s (of one stop's box types, when `stop` is given). */
  const blocksFor = (s: Cuboid, blocks: Block[], regions: Cuboid[], stop?: number): void => {
    const sx = s.x1 - s.x0;
    const sy = s.y1 - s.y0;
    const sz = s.z1 - s.z0;
    const seen: number[] = [];
    const low = rules.scoring === 'low';
    for (const type of types) {
      if (stop !== undefined && type.stop !== stop) continue;
      let left = remaining[type.index]!;
      if (left <= 0) continue;
      if (type.weight > 0) left = Math.min(left, Math.floor((payload - weight) / type.weight + 1e-9));
      if (left <= 0) continue;
      for (const orientation of type.orientations) {
        if (orientation.dx > sx || orientation.dy > sy || orientation.dz > sz) continue;
        // Floor first lays every box on its largest face: a box on its edge to fill a gap in the
        // row stands tall where the floor has room for it flat.
        if (low && orientation.dz > type.flattest) continue;
        const fit0 = Math.floor(sx / orientation.dx);
        const fit1 = Math.floor(sy / orientation.dy);
        const fit2 = type.stackable ? Math.floor(sz / orientation.dz) : 1;
        seen.length = 0;
        // Per fill order: the fullest block, the layer (two axes only) and the row (one axis).
        for (const order of FILL_ORDERS) {
          for (let axes = 3; axes >= 1; axes--) {
            let n0 = 1;
            let n1 = 1;
            let n2 = 1;
            let budget = left;
            for (let k = 0; k < axes; k++) {
              const axis = order[k]!;
              const n = Math.max(1, Math.min(axis === 0 ? fit0 : axis === 1 ? fit1 : fit2, budget));
              if (axis === 0) n0 = n;
              else if (axis === 1) n1 = n;
              else n2 = n;
              budget = Math.floor(budget / n);
            }
            const key = (n0 * 1000 + n1) * 1000 + n2;
            if (seen.includes(key)) continue;
            seen.push(key);
            blocks.push({ type, orientation, nx: n0, ny: n1, nz: n2 });
            regions.push(s);
          }
        }
      }
    }
  };

  /**
   * Where blocks may stand in s. On the floor, or without a support rule, all of s. Above the
   * floor the tops at s's floor height are clipped to s and merged while two share a whole edge,
   * so blocks are also sized to each supported rectangle (a block sized to all of s would hang
   * over the tops' edges); with full support only those rectangles hold a block at all.
   */
  const regionsOf = (s: Cuboid): Cuboid[] => {
    if (s.z0 === 0 || rules.supportShare <= 0) return [s];
    const tops: Cuboid[] = [];
    for (const index of topsAt.get(s.z0) ?? []) {
      const t = placed[index]!;
      const x0 = Math.max(s.x0, t.x0);
      const x1 = Math.min(s.x1, t.x1);
      const y0 = Math.max(s.y0, t.y0);
      const y1 = Math.min(s.y1, t.y1);
      if (x1 > x0 && y1 > y0) tops.push({ x0, y0, z0: s.z0, x1, y1, z1: s.z1 });
    }
    for (let merged = true; merged; ) {
      merged = false;
      for (let a = 0; a < tops.length && !merged; a++) {
        for (let b = a + 1; b < tops.length && !merged; b++) {
          const u = tops[a]!;
          const v = tops[b]!;
          const alongX = u.y0 === v.y0 && u.y1 === v.y1 && (u.x1 === v.x0 || v.x1 === u.x0);
          const alongY = u.x0 === v.x0 && u.x1 === v.x1 && (u.y1 === v.y0 || v.y1 === u.y0);
          if (!alongX && !alongY) continue;
          const x0 = Math.min(u.x0, v.x0);
          const x1 = Math.max(u.x1, v.x1);
          const y0 = Math.min(u.y0, v.y0);
          const y1 = Math.max(u.y1, v.y1);
          tops[a] = { x0, y0, z0: s.z0, x1, y1, z1: s.z1 };
          tops.splice(b, 1);
          merged = true;
        }
      }
    }
    const coversS = tops.some((t) => t.x0 === s.x0 && t.x1 === s.x1 && t.y0 === s.y0 && t.y1 === s.y1);
    if (coversS) return [s];
    // Largest first, so equal blocks go to the roomiest rectangle; at most a few, for speed.
    tops.sort((a, b) => volumeOf(b) - volumeOf(a));
    const out = tops.slice(0, MAX_REGIONS);
    if (rules.supportShare < 1) out.unshift(s);
    return out;
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

  const tryPlace = (s: Cuboid, block: Block, anchor: ReturnType<typeof anchorOf>, region: Cuboid) => {
    const { dx, dy, dz } = block.orientation;
    const ex = dx * block.nx;
    const ey = dy * block.ny;
    const ez = dz * block.nz;
    const blockWeight = block.type.weight * block.nx * block.ny * block.nz;
    if (weight + blockWeight > payload + 1e-9) return null;
    const positions = positionsFor(s, ex, ey, anchor);
    if (region !== s) {
      // The region's own corner first: that is where the block was sized to stand.
      positions.unshift({
        x: anchor.front ? region.x0 : region.x1 - ex,
        y: anchor.left ? region.y0 : region.y1 - ey,
      });
    }
    for (const { x, y } of positions) {
      const c = { x0: x, y0: y, z0: s.z0, x1: x + ex, y1: y + ey, z1: s.z0 + ez };
      if (space.crossSection && !spaceContains(space, c)) continue;
      const supporters = c.z0 > 0 ? supportersOf(c) : [];
      if (!supportedEnough(c, block, supporters)) continue;
      if (supporters.some((s) => placed[s.index]!.block.type.item.fragile)) continue;
      const below = supporters.map((s) => s.index);
      if (hasLoadLimits && !loadLimitsHold(below, blockWeight)) continue;
      if (multiStop && !keepsUnloadingOrder(c, block.type.stop)) continue;
      const columns = space.stability ? stableColumns(c, block, below, space.stability.maxStackRatio) : [];
      if (!columns) continue;
      return { ...c, block, weight: blockWeight, restsOn: below, columns };
    }
    return null;
  };

  /**
   * Stability: each box of the block's bottom layer has its centre over the tops it rests on (the
   * layers above rest whole on the block's own boxes), and each column's top stays within the
   * ratio of the floor it stands on. The floors of the block's columns, or null where it would not
   * stand.
   */
  const stableColumns = (c: Cuboid, block: Block, below: number[], ratio: number): Footprint[] | null => {
    const { dx, dy } = block.orientation;
    const columns: Footprint[] = [];
    for (let i = 0; i < block.nx; i++) {
      for (let j = 0; j < block.ny; j++) {
        const box = {
          x0: c.x0 + i * dx,
          y0: c.y0 + j * dy,
          x1: c.x0 + (i + 1) * dx,
          y1: c.y0 + (j + 1) * dy,
        };
        if (c.z0 === 0) {
          // One box on the floor is no stack: a tall one upright (this side up) still goes in.
          if (block.nz > 1 && !stackStands(c.z1, box, ratio)) return null;
          columns.push(box);
          continue;
        }
        const contacts: Footprint[] = [];
        const floors: Footprint[] = [];
        for (const index of below) {
          const top = placed[index]!;
          const o = top.block.orientation;
          for (let a = 0; a < top.block.nx; a++) {
            for (let b = 0; b < top.block.ny; b++) {
              const contact = {
                x0: Math.max(box.x0, top.x0 + a * o.dx),
                y0: Math.max(box.y0, top.y0 + b * o.dy),
                x1: Math.min(box.x1, top.x0 + (a + 1) * o.dx),
                y1: Math.min(box.y1, top.y0 + (b + 1) * o.dy),
              };
              if (contact.x1 <= contact.x0 || contact.y1 <= contact.y0) continue;
              contacts.push(contact);
              floors.push(top.columns[a * top.block.ny + b]!);
            }
          }
        }
        if (!overSupport((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2, contacts)) return null;
        const floor = around(floors);
        if (!stackStands(c.z1, floor, ratio)) return null;
        columns.push(floor);
      }
    }
    return columns;
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
    front = Math.max(front, p.x1);
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
  const ranked = (blocks: Block[], regions: Cuboid[]): number[] => {
    const { minDim } = smallestLeft();
    const fit = rules.scoring === 'fit';
    const low = rules.scoring === 'low';
    const score = new Float64Array(blocks.length);
    const depth = new Float64Array(blocks.length);
    const order: number[] = [];
    for (let at = 0; at < blocks.length; at++) {
      const block = blocks[at]!;
      const r = regions[at]!;
      const o = block.orientation;
      const ex = o.dx * block.nx;
      const ey = o.dy * block.ny;
      const ez = o.dz * block.nz;
      let value = ex * ey * ez;
      if (fit) {
        // Less the slab along each axis too thin for any remaining box.
        const lx = r.x1 - r.x0 - ex;
        const ly = r.y1 - r.y0 - ey;
        const lz = r.z1 - r.z0 - ez;
        if (lx > 0 && lx < minDim) value -= lx * ey * ez;
        if (ly > 0 && ly < minDim) value -= ly * ex * ez;
        if (lz > 0 && lz < minDim) value -= lz * ex * ey;
      }
      score[at] = value;
      // Ties: with stops, the shallower block keeps a stop's boxes in one wall along the length;
      // otherwise the flatter one keeps the load low and the tops usable. Floor first: the
      // flatter block always comes first.
      depth[at] = multiStop && !low ? ex : ez;
      order.push(at);
    }
    order.sort((a, b) => {
      const ta = blocks[a]!.type;
      const tb = blocks[b]!.type;
      return (
        tb.stop - ta.stop ||
        (low ? depth[a]! - depth[b]! : 0) ||
        score[b]! - score[a]! ||
        depth[a]! - depth[b]! ||
        Number(tb.stackable) - Number(ta.stackable) ||
        a - b
      );
    });
    return order;
  };

  for (const p of prefix) place(p);
  /**
   * The feasible blocks for space s, best first (at most `limit`), of one stop's boxes when `stop`
   * is given, each kept by `keep`. Alternatives differ in box type or orientation, not just in a
   * block's proportions.
   */
  const placementsIn = (
    s: Cuboid,
    limit: number,
    stop?: number,
    keep: (candidate: PlacedBlock) => boolean = () => true,
  ): PlacedBlock[] => {
    const anchor = anchorOf(s);
    const found: PlacedBlock[] = [];
    const kinds = new Set<string>();
    const blocks: Block[] = [];
    const regions: Cuboid[] = [];
    for (const region of regionsOf(s)) blocksFor(region, blocks, regions, stop);
    for (const index of ranked(blocks, regions)) {
      const block = blocks[index]!;
      const kind = `${block.type.index} ${block.orientation.code} ${Number(block.nx > 1) + Number(block.ny > 1) + Number(block.nz > 1)}`;
      if (kinds.has(kind)) continue;
      const candidate = tryPlace(s, block, anchor, regions[index]!);
      if (!candidate || !keep(candidate)) continue;
      kinds.add(kind);
      found.push(candidate);
      if (found.length >= limit) break;
    }
    return found;
  };

  /**
   * Walls take one stop at a time: the latest stop with boxes left goes in the first space (in
   * the walls' order) that takes one of its boxes, so a hole in a wall already built is not filled
   * with an earlier stop's small box, and no box goes more than a reach behind the load's front
   * (it would be out of reach at its stop). A stop none of whose boxes fits so is left to the
   * usual order, at the end.
   */
  const stuck = new Set<number>();
  const wallChoices = (limit: number): PlacedBlock[] => {
    for (;;) {
      let current = -1;
      for (const type of types) {
        if (remaining[type.index]! > 0 && !stuck.has(type.stop)) current = Math.max(current, type.stop);
      }
      if (current < 0) return [];
      const order = spaces.map((_, at) => at).sort((a, b) => compareWallSpaces(spaces[a]!, spaces[b]!));
      for (const at of order) {
        // A box in a hole more than a reach behind the load's front is out of reach at its stop.
        const found = placementsIn(spaces[at]!, limit, current, (c) => c.x1 >= front - WALL_REACH);
        if (found.length > 0) return found;
      }
      stuck.add(current);
    }
  };

  /** The next step's feasible blocks, best first (at most `limit`); spaces that take none go. */
  const choices = (limit: number): PlacedBlock[] => {
    if (walls) {
      const found = wallChoices(limit);
      if (found.length > 0) return found;
    }
    while (spaces.length > 0) {
      const at = pickSpace();
      const found = placementsIn(spaces[at]!, limit);
      if (found.length > 0) return found;
      spaces.splice(at, 1);
    }
    return [];
  };

  const fork = () =>
    resume(rules, { placed, remaining, topsAt, carries, hasLoadLimits, spaces, volume, weight }, []);
  return { choices, place, fork, result: () => ({ placed, remaining, volume, weight }) };
}

export function construct(rules: ConstructionRules, prefix: PlacedBlock[] = []): Construction {
  return complete(rules, startConstruction(rules, prefix));
}

/** Finishes a load under construction by the rules' greediness (and returns it). */
export function complete(rules: ConstructionRules, state: ConstructionState): Construction {
  for (;;) {
    const { chance, among } = rules.greediness;
    const wanted = rules.random() < chance ? 1 + Math.floor(rules.random() * among) : 1;
    const found = state.choices(wanted);
    if (found.length === 0) return state.result();
    state.place(found[found.length - 1]!);
  }
}

/** How far behind the load's front (mm) walls still fill a hole: about a person's reach into a van. */
const WALL_REACH = 600;

/** How many supported rectangles above one space get blocks of their own. */
const MAX_REGIONS = 4;

/** Fill priorities: which axis a block grows along first, second and third. */
const FILL_ORDERS: Array<[number, number, number]> = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];
