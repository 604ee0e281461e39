/**
 * Placing boxes inside one carton with extreme points (Crainic, Perboli & Tadei 2008, "Extreme
 * point-based heuristics for three-dimensional bin packing"): each box placed adds the corners
 * where the next may go, each projected back along the axes onto the nearest wall or box, so the
 * next box sits snug. Where a box goes is a policy (see POLICIES); the caller tries several, as
 * no single rule suits every set of boxes. No support rule (a carton is filled, closed and
 * shaken; dunnage fills the gaps), but `noStack` is kept: nothing may lie above such a box.
 */

import type { Orientation } from './types.ts';

export const ALL_ORIENTATIONS: readonly Orientation[] = ['lwh', 'wlh', 'lhw', 'hlw', 'whl', 'hwl'];
export const UPRIGHT_ORIENTATIONS: readonly Orientation[] = ['lwh', 'wlh'];

/** The extents along x, y, z of a box with sides [l, w, h] turned to an orientation. */
export function extentsOf(
  l: number,
  w: number,
  h: number,
  orientation: Orientation,
): [number, number, number] {
  switch (orientation) {
    case 'lwh':
      return [l, w, h];
    case 'wlh':
      return [w, l, h];
    case 'lhw':
      return [l, h, w];
    case 'hlw':
      return [h, l, w];
    case 'whl':
      return [w, h, l];
    case 'hwl':
      return [h, w, l];
  }
}

/** A box to place: its sides, the orientations it allows and whether anything may rest on it. */
export interface BoxShape {
  l: number;
  w: number;
  h: number;
  orientations: readonly Orientation[];
  noStack: boolean;
}

export interface Placement {
  x: number;
  y: number;
  z: number;
  dx: number;
  dy: number;
  dz: number;
  orientation: Orientation;
}

/** Whether a box fits alone in a space, in some allowed orientation. */
export function fitsAlone(shape: BoxShape, L: number, W: number, H: number): boolean {
  for (const o of shape.orientations) {
    const [dx, dy, dz] = extentsOf(shape.l, shape.w, shape.h, o);
    if (dx <= L && dy <= W && dz <= H) return true;
  }
  return false;
}

/**
 * How a layout chooses among the feasible (point, orientation) pairs. 'low-flat' and 'low-tall':
 * the lowest point, then nearest the back, then the left; among orientations at one point, the one
 * whose repeats would fill the carton's sides best (the share of each side a row of copies
 * covers, multiplied), then the flattest or the tallest. 'repeat': that orientation first, then
 * the lowest point. 'compact': the least bounding box of everything placed so far, then as 'low-flat'.
 */
export const POLICIES = ['low-flat', 'repeat', 'compact', 'low-tall'] as const;
export type Policy = (typeof POLICIES)[number];

function overlaps(a: number, da: number, b: number, db: number): boolean {
  return a < b + db && b < a + da;
}

/** The share of a side that a row of copies of length d covers. */
function repeatedShare(side: number, d: number): number {
  return (Math.floor(side / d) * d) / side;
}

function inside(px: number, py: number, pz: number, b: Placement): boolean {
  return px >= b.x && px < b.x + b.dx && py >= b.y && py < b.y + b.dy && pz >= b.z && pz < b.z + b.dz;
}

/** One carton's inner space being filled; boxes are only added. */
export class Layout {
  readonly placed: Placement[] = [];
  private readonly noStack: boolean[] = [];
  private points: Array<[number, number, number]> = [[0, 0, 0]];
  /** The bounding box of everything placed, from the origin. */
  private reach: [number, number, number] = [0, 0, 0];

  constructor(
    readonly L: number,
    readonly W: number,
    readonly H: number,
    readonly policy: Policy = 'low-flat',
  ) {}

  clone(): Layout {
    const copy = new Layout(this.L, this.W, this.H, this.policy);
    copy.reach = [...this.reach];
    copy.placed.push(...this.placed);
    copy.noStack.push(...this.noStack);
    copy.points = this.points.slice();
    return copy;
  }

  /** Places the box at its best candidate point and answers where, or null if it fits nowhere. */
  place(shape: BoxShape): Placement | null {
    let best: Placement | null = null;
    let bestRepeat = 0;
    const tried: Array<[number, number, number]> = [];
    for (const orientation of shape.orientations) {
      const [dx, dy, dz] = extentsOf(shape.l, shape.w, shape.h, orientation);
      // A cube or a square-sided box has equal turns: try each distinct one once.
      if (tried.some(([tx, ty, tz]) => tx === dx && ty === dy && tz === dz)) continue;
      tried.push([dx, dy, dz]);
      if (dx > this.L || dy > this.W || dz > this.H) continue;
      const repeat = this.repeatShare(dx, dy, dz);
      for (const [x, y, z] of this.points) {
        if (best && !this.better(x, y, z, dx, dy, dz, repeat, best, bestRepeat)) continue;
        if (x + dx > this.L || y + dy > this.W || z + dz > this.H) continue;
        if (!this.free(x, y, z, dx, dy, dz, shape.noStack)) continue;
        best = { x, y, z, dx, dy, dz, orientation };
        bestRepeat = repeat;
      }
    }
    if (best) this.commit(best, shape.noStack);
    return best;
  }

  /** How much of the carton rows of copies of this box, turned so, would fill. */
  private repeatShare(dx: number, dy: number, dz: number): number {
    return repeatedShare(this.L, dx) * repeatedShare(this.W, dy) * repeatedShare(this.H, dz);
  }

  private better(
    x: number,
    y: number,
    z: number,
    dx: number,
    dy: number,
    dz: number,
    repeat: number,
    than: Placement,
    thanRepeat: number,
  ): boolean {
    if (this.policy === 'repeat' && repeat !== thanRepeat) return repeat > thanRepeat;
    if (this.policy === 'compact') {
      const box = this.boundingVolume(x + dx, y + dy, z + dz);
      const theirs = this.boundingVolume(than.x + than.dx, than.y + than.dy, than.z + than.dz);
      if (box !== theirs) return box < theirs;
    }
    if (z !== than.z) return z < than.z;
    if (y !== than.y) return y < than.y;
    if (x !== than.x) return x < than.x;
    if (repeat !== thanRepeat) return repeat > thanRepeat;
    return this.policy === 'low-tall' ? dz > than.dz : dz < than.dz;
  }

  private boundingVolume(toX: number, toY: number, toZ: number): number {
    return Math.max(this.reach[0], toX) * Math.max(this.reach[1], toY) * Math.max(this.reach[2], toZ);
  }

  private free(
    x: number,
    y: number,
    z: number,
    dx: number,
    dy: number,
    dz: number,
    noStack: boolean,
  ): boolean {
    for (let i = 0; i < this.placed.length; i++) {
      const b = this.placed[i]!;
      const xy = overlaps(x, dx, b.x, b.dx) && overlaps(y, dy, b.y, b.dy);
      if (!xy) continue;
      if (overlaps(z, dz, b.z, b.dz)) return false;
      // Above a box that takes nothing on top, or a box that takes nothing on top under another.
      if (this.noStack[i] && z >= b.z + b.dz) return false;
      if (noStack && b.z >= z + dz) return false;
    }
    return true;
  }

  private commit(p: Placement, noStack: boolean): void {
    this.placed.push(p);
    this.noStack.push(noStack);
    const { x, y, z, dx, dy, dz } = p;
    this.reach = [
      Math.max(this.reach[0], x + dx),
      Math.max(this.reach[1], y + dy),
      Math.max(this.reach[2], z + dz),
    ];
    const candidates: Array<[number, number, number]> = [
      [x + dx, y, z],
      [x + dx, this.project('y', x + dx, y, z), z],
      [x + dx, y, this.project('z', x + dx, y, z)],
      [x, y + dy, z],
      [this.project('x', x, y + dy, z), y + dy, z],
      [x, y + dy, this.project('z', x, y + dy, z)],
      [x, y, z + dz],
      [this.project('x', x, y, z + dz), y, z + dz],
      [x, this.project('y', x, y, z + dz), z + dz],
    ];
    // Old points were clear of the old boxes: test them against the new one only.
    const next = this.points.filter(([px, py, pz]) => !inside(px, py, pz, p));
    for (const point of candidates) {
      const [px, py, pz] = point;
      if (px >= this.L || py >= this.W || pz >= this.H) continue;
      if (next.some(([qx, qy, qz]) => qx === px && qy === py && qz === pz)) continue;
      if (this.occupied(px, py, pz)) continue;
      next.push(point);
    }
    this.points = next;
  }

  private occupied(px: number, py: number, pz: number): boolean {
    for (const b of this.placed) if (inside(px, py, pz, b)) return true;
    return false;
  }

  /**
   * Slides a point along one axis towards 0 until it meets the far face of a box whose span on
   * the other two axes holds the point, or the wall.
   */
  private project(axis: 'x' | 'y' | 'z', px: number, py: number, pz: number): number {
    let to = 0;
    const from = axis === 'x' ? px : axis === 'y' ? py : pz;
    for (const b of this.placed) {
      // Built in the loop without arrays: it runs for every box at every new point.
      const face = axis === 'x' ? b.x + b.dx : axis === 'y' ? b.y + b.dy : b.z + b.dz;
      if (face > from || face <= to) continue;
      const acrossX = axis === 'x' || (px >= b.x && px < b.x + b.dx);
      const acrossY = axis === 'y' || (py >= b.y && py < b.y + b.dy);
      const acrossZ = axis === 'z' || (pz >= b.z && pz < b.z + b.dz);
      if (acrossX && acrossY && acrossZ) to = face;
    }
    return to;
  }
}

/** Places boxes in the given order; answers the layout, or null at the first box that fits nowhere. */
export function placeAll(
  shapes: readonly BoxShape[],
  L: number,
  W: number,
  H: number,
  policy: Policy = 'low-flat',
): Layout | null {
  const layout = new Layout(L, W, H, policy);
  for (const shape of shapes) {
    if (!layout.place(shape)) return null;
  }
  return layout;
}
