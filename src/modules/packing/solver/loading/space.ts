import type { LoadingSpace } from './types.ts';

/** An axis-aligned cuboid by its low and high corners. */
export interface Cuboid {
  x0: number;
  y0: number;
  z0: number;
  x1: number;
  y1: number;
  z1: number;
}

/**
 * The "contains" test of a space: inside the bounding box and, for a contoured envelope, all four
 * corners of the cuboid's y-z rectangle inside the convex cross-section (a convex polygon holds a
 * rectangle exactly when it holds its corners).
 */
export function spaceContains(space: LoadingSpace, box: Cuboid): boolean {
  if (box.x0 < 0 || box.y0 < 0 || box.z0 < 0) return false;
  if (box.x1 > space.length || box.y1 > space.width || box.z1 > space.height) return false;
  const polygon = space.crossSection;
  if (!polygon) return true;
  const corners: Array<[number, number]> = [
    [box.y0, box.z0],
    [box.y1, box.z0],
    [box.y0, box.z1],
    [box.y1, box.z1],
  ];
  return corners.every(([y, z]) => insideConvex(polygon, y, z));
}

/** Left of (or on) every edge of a counter-clockwise polygon; a tolerance for rounding. */
function insideConvex(polygon: Array<[number, number]>, y: number, z: number): boolean {
  for (let i = 0; i < polygon.length; i++) {
    const [ay, az] = polygon[i]!;
    const [by, bz] = polygon[(i + 1) % polygon.length]!;
    const cross = (by - ay) * (z - az) - (bz - az) * (y - ay);
    if (cross < -1e-6 * Math.hypot(by - ay, bz - az)) return false;
  }
  return true;
}

/** How high a box's top may stand: the space's height, or its reach limit where lower. */
export function reachableHeight(space: LoadingSpace): number {
  return Math.min(space.height, space.reachLimit ?? space.height);
}

/** The usable volume: cross-section area (shoelace) times length, or the plain box's volume. */
export function usableVolume(space: LoadingSpace): number {
  const polygon = space.crossSection;
  if (!polygon) return space.length * space.width * space.height;
  let twiceArea = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [ay, az] = polygon[i]!;
    const [by, bz] = polygon[(i + 1) % polygon.length]!;
    twiceArea += ay * bz - by * az;
  }
  return (Math.abs(twiceArea) / 2) * space.length;
}

/**
 * A box whose upper corners are cut at 45 degrees or any slope: `left`/`right` give, for the
 * y = 0 and y = width walls, how far in (horizontal) and down (vertical) the cut reaches from the
 * top corner. An LD3's overhang is such a cut on one side (there at the bottom; mirror z for it).
 */
export function chamferedCrossSection(
  width: number,
  height: number,
  left: { inset: number; drop: number } | null,
  right: { inset: number; drop: number } | null,
): Array<[number, number]> {
  const points: Array<[number, number]> = [
    [0, 0],
    [width, 0],
  ];
  if (right) points.push([width, height - right.drop], [width - right.inset, height]);
  else points.push([width, height]);
  if (left) points.push([left.inset, height], [0, height - left.drop]);
  else points.push([0, height]);
  return points;
}

/**
 * Which boxes rest directly on which: a box rests on another when its base lies on the other's
 * top and their footprints overlap. `above[i]` and `below[i]` list indices in input order.
 */
export function restingRelation(boxes: readonly Cuboid[]): { above: number[][]; below: number[][] } {
  const byBase = new Map<number, number[]>();
  boxes.forEach((b, i) => {
    const at = byBase.get(b.z0);
    if (at) at.push(i);
    else byBase.set(b.z0, [i]);
  });
  const above: number[][] = boxes.map(() => []);
  const below: number[][] = boxes.map(() => []);
  boxes.forEach((lower, l) => {
    for (const u of byBase.get(lower.z1) ?? []) {
      const upper = boxes[u]!;
      const ox = Math.min(lower.x1, upper.x1) - Math.max(lower.x0, upper.x0);
      const oy = Math.min(lower.y1, upper.y1) - Math.max(lower.y0, upper.y0);
      if (ox > 0 && oy > 0) {
        above[l]!.push(u);
        below[u]!.push(l);
      }
    }
  });
  return { above, below };
}
