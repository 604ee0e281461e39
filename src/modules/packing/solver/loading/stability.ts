/** A rectangle of the floor's plane (x along the length, y across). */
export interface Footprint {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const EPS = 1e-6;

/**
 * Whether the point (x, y) stands over the support the rectangles give: inside their convex
 * outline, where a box resting on their tops cannot tip (its weight acts within what holds it).
 */
export function overSupport(x: number, y: number, contacts: readonly Footprint[]): boolean {
  if (contacts.length === 0) return false;
  if (contacts.some((c) => c.x0 - EPS <= x && x <= c.x1 + EPS && c.y0 - EPS <= y && y <= c.y1 + EPS)) {
    return true;
  }
  const hull = convexHull(
    contacts.flatMap(
      (c): Array<[number, number]> => [
        [c.x0, c.y0],
        [c.x1, c.y0],
        [c.x1, c.y1],
        [c.x0, c.y1],
      ],
    ),
  );
  if (hull.length < 3) return false;
  return hull.every(([ax, ay], k) => {
    const [bx, by] = hull[(k + 1) % hull.length]!;
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= -EPS * Math.hypot(bx - ax, by - ay);
  });
}

/** The convex hull, counter-clockwise (Andrew's monotone chain). */
function convexHull(points: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Array<[number, number]>) => {
    const out: Array<[number, number]> = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

/** The smallest rectangle around the given ones: the floor a stack stands on. */
export function around(footprints: readonly Footprint[]): Footprint {
  return {
    x0: Math.min(...footprints.map((f) => f.x0)),
    y0: Math.min(...footprints.map((f) => f.y0)),
    x1: Math.max(...footprints.map((f) => f.x1)),
    y1: Math.max(...footprints.map((f) => f.y1)),
  };
}

/** Whether a stack whose top is at `top` is within `ratio` times its floor's narrowest side. */
export function stackStands(top: number, floor: Footprint, ratio: number): boolean {
  return top <= ratio * Math.min(floor.x1 - floor.x0, floor.y1 - floor.y0) + EPS;
}
