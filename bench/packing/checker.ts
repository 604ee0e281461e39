/**
 * An independent checker of container loads: it shares no code with the solver
 * (src/modules/packing) and reads only the space, the box types and the placed boxes. It answers
 * every rule a load breaks, in words; an empty list means the load is valid.
 *
 * Rules: each box inside the space (and its convex y-z cross-section, if any); no two boxes
 * overlap; placed extents are a permutation of the type's dimensions with an allowed vertical;
 * no more boxes of a type than its quantity; total weight within the payload; each box off the
 * floor rests on tops of boxes directly below for at least `supportShare` of its base; nothing
 * rests on a fragile box; the weight above a load-limited box (everything resting on it directly
 * or through others) stays within its limit; and no box of a later stop stands between an
 * earlier stop's box and the door (x = length, overlapping in y-z) or above it (overlapping in x-y).
 * With two axles, neither carries more than its limit: the weight each takes is found by taking
 * moments about the other. Where the space asks: no box's top above the reach limit; and
 * stability: each box off the floor has the centre of its base inside the convex outline of the
 * areas where it touches the boxes directly below, and each box resting on others has its top no
 * higher than `maxStackRatio` times the narrowest side of the rectangle around the floor boxes it
 * stands on (followed down through the boxes below it).
 */

export interface CheckSpace {
  length: number;
  width: number;
  height: number;
  payloadKg?: number;
  crossSection?: Array<[number, number]>;
  /** Front then rear: position along the length (from x = 0) and the most weight it carries. */
  axles?: Array<{ positionMm: number; maxLoadKg: number }>;
  reachLimit?: number;
  stability?: { maxStackRatio: number };
}

export interface CheckItem {
  length: number;
  width: number;
  height: number;
  quantity: number;
  weightKg?: number;
  mayBeVertical?: [boolean, boolean, boolean];
  fragile?: boolean;
  maxLoadOnTopKg?: number;
  stop?: number;
}

export interface CheckPlacement {
  item: number;
  x: number;
  y: number;
  z: number;
  length: number;
  width: number;
  height: number;
}

const EPS = 1e-6;

function overlap1(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

export function checkLoad(
  space: CheckSpace,
  items: CheckItem[],
  placements: CheckPlacement[],
  supportShare: number,
): string[] {
  const errors: string[] = [];
  const counts = items.map(() => 0);
  let weight = 0;
  placements.forEach((p, i) => {
    const item = items[p.item];
    if (!item) {
      errors.push(`box ${i}: no item ${p.item}`);
      return;
    }
    counts[p.item]!++;
    weight += item.weightKg ?? 0;
    if (p.x < -EPS || p.y < -EPS || p.z < -EPS) errors.push(`box ${i}: below zero`);
    if (
      p.x + p.length > space.length + EPS ||
      p.y + p.width > space.width + EPS ||
      p.z + p.height > space.height + EPS
    ) {
      errors.push(`box ${i}: outside the space`);
    }
    if (space.reachLimit !== undefined && p.z + p.height > space.reachLimit + EPS) {
      errors.push(`box ${i}: its top at ${p.z + p.height} is above the reach limit ${space.reachLimit}`);
    }
    if (space.crossSection) {
      for (const [cy, cz] of [
        [p.y, p.z],
        [p.y + p.width, p.z],
        [p.y, p.z + p.height],
        [p.y + p.width, p.z + p.height],
      ] as const) {
        if (!inPolygon(space.crossSection, cy, cz))
          errors.push(`box ${i}: corner (${cy}, ${cz}) outside the contour`);
      }
    }
    const given = [item.length, item.width, item.height];
    const placedDims = [p.length, p.width, p.height];
    if ([...given].sort((a, b) => a - b).join() !== [...placedDims].sort((a, b) => a - b).join()) {
      errors.push(`box ${i}: dimensions ${placedDims} are not those of item ${p.item} (${given})`);
    } else if (item.mayBeVertical) {
      const allowedHeights = given.filter((_, d) => item.mayBeVertical![d]);
      if (!allowedHeights.includes(p.height))
        errors.push(`box ${i}: stands on a side that may not be vertical`);
    }
  });
  counts.forEach((count, t) => {
    if (count > items[t]!.quantity)
      errors.push(`item ${t}: ${count} placed, only ${items[t]!.quantity} given`);
  });
  if (space.payloadKg !== undefined && weight > space.payloadKg + EPS) {
    errors.push(`weight ${weight} over payload ${space.payloadKg}`);
  }
  if (space.axles && space.axles.length === 2) {
    const [a, b] = space.axles as [
      { positionMm: number; maxLoadKg: number },
      { positionMm: number; maxLoadKg: number },
    ];
    // Moments about one axle give the other's reaction: R_b * (b - a) = sum of w * (x - a).
    let aboutA = 0;
    let aboutB = 0;
    for (const p of placements) {
      const w = items[p.item]?.weightKg ?? 0;
      const centre = p.x + p.length / 2;
      aboutA += w * (centre - a.positionMm);
      aboutB += w * (b.positionMm - centre);
    }
    const onB = aboutA / (b.positionMm - a.positionMm);
    const onA = aboutB / (b.positionMm - a.positionMm);
    if (onA > a.maxLoadKg + EPS) errors.push(`front axle carries ${onA} kg, limit ${a.maxLoadKg}`);
    if (onB > b.maxLoadKg + EPS) errors.push(`rear axle carries ${onB} kg, limit ${b.maxLoadKg}`);
  }

  const n = placements.length;
  const directlyOn: number[][] = placements.map(() => []);
  for (let a = 0; a < n; a++) {
    const pa = placements[a]!;
    for (let b = a + 1; b < n; b++) {
      const pb = placements[b]!;
      const ox = overlap1(pa.x, pa.x + pa.length, pb.x, pb.x + pb.length);
      const oy = overlap1(pa.y, pa.y + pa.width, pb.y, pb.y + pb.width);
      const oz = overlap1(pa.z, pa.z + pa.height, pb.z, pb.z + pb.height);
      if (ox > EPS && oy > EPS && oz > EPS) errors.push(`boxes ${a} and ${b} overlap`);
    }
  }
  const contactsOf: Array<Array<[number, number, number, number]>> = placements.map(() => []);
  placements.forEach((upper, u) => {
    if (upper.z <= EPS) return;
    let supported = 0;
    placements.forEach((lower, l) => {
      if (Math.abs(lower.z + lower.height - upper.z) > EPS) return;
      const area =
        overlap1(lower.x, lower.x + lower.length, upper.x, upper.x + upper.length) *
        overlap1(lower.y, lower.y + lower.width, upper.y, upper.y + upper.width);
      if (area <= EPS) return;
      contactsOf[u]!.push([
        Math.max(lower.x, upper.x),
        Math.max(lower.y, upper.y),
        Math.min(lower.x + lower.length, upper.x + upper.length),
        Math.min(lower.y + lower.width, upper.y + upper.width),
      ]);
      supported += area;
      directlyOn[l]!.push(u);
      if (items[lower.item]?.fragile) errors.push(`box ${u} rests on fragile box ${l}`);
    });
    if (supported < supportShare * upper.length * upper.width - EPS) {
      errors.push(
        `box ${u}: ${((100 * supported) / (upper.length * upper.width)).toFixed(1)} % of its base supported`,
      );
    }
  });
  if (space.stability) {
    // The boxes each box rests on directly: the reverse of directlyOn.
    const restsOn: number[][] = placements.map(() => []);
    directlyOn.forEach((uppers, l) => {
      for (const u of uppers) restsOn[u]!.push(l);
    });
    placements.forEach((p, i) => {
      if (p.z <= EPS) return;
      const cx = p.x + p.length / 2;
      const cy = p.y + p.width / 2;
      if (!insideHull(contactsOf[i]!, cx, cy)) errors.push(`box ${i}: its centre is not over its support`);
      const floorBoxes = [...reachable(restsOn, i)].map((j) => placements[j]!).filter((q) => q.z <= EPS);
      const narrowest = Math.min(
        Math.max(...floorBoxes.map((q) => q.x + q.length)) - Math.min(...floorBoxes.map((q) => q.x)),
        Math.max(...floorBoxes.map((q) => q.y + q.width)) - Math.min(...floorBoxes.map((q) => q.y)),
      );
      const top = p.z + p.height;
      if (!(top <= space.stability!.maxStackRatio * narrowest + EPS)) {
        errors.push(`box ${i}: a stack ${top} high on a floor ${narrowest} wide`);
      }
    });
  }
  placements.forEach((p, i) => {
    const limit = items[p.item]?.maxLoadOnTopKg;
    if (limit === undefined) return;
    const load = [...reachable(directlyOn, i)].reduce(
      (sum, j) => sum + (items[placements[j]!.item]?.weightKg ?? 0),
      0,
    );
    if (load > limit + EPS) errors.push(`box ${i} carries ${load} kg, limit ${limit}`);
  });
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const early = placements[a]!;
      const late = placements[b]!;
      if ((items[late.item]?.stop ?? 0) <= (items[early.item]?.stop ?? 0)) continue;
      const yz =
        overlap1(early.y, early.y + early.width, late.y, late.y + late.width) *
        overlap1(early.z, early.z + early.height, late.z, late.z + late.height);
      const xy =
        overlap1(early.x, early.x + early.length, late.x, late.x + late.length) *
        overlap1(early.y, early.y + early.width, late.y, late.y + late.width);
      if (late.x >= early.x + early.length - EPS && yz > EPS)
        errors.push(`box ${b} (later stop) stands between box ${a} and the door`);
      if (late.z >= early.z + early.height - EPS && xy > EPS)
        errors.push(`box ${b} (later stop) is above box ${a}`);
    }
  }
  return errors;
}

/** The boxes reached from box `from` along `edges` (not itself), through any number of steps. */
function reachable(edges: number[][], from: number): Set<number> {
  const seen = new Set<number>();
  const todo = [...edges[from]!];
  while (todo.length) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...edges[next]!);
  }
  return seen;
}

/** Whether a point lies in the convex hull of rectangles [x0, y0, x1, y1], boundary included. */
function insideHull(rectangles: Array<[number, number, number, number]>, x: number, y: number): boolean {
  const points = rectangles.flatMap(
    ([x0, y0, x1, y1]): Array<[number, number]> => [
      [x0, y0],
      [x1, y0],
      [x0, y1],
      [x1, y1],
    ],
  );
  if (points.length === 0) return false;
  // Gift wrapping: the hull's edges are the pairs with every point on their left.
  const edges: Array<[[number, number], [number, number]]> = [];
  for (const a of points) {
    for (const b of points) {
      if (a[0] === b[0] && a[1] === b[1]) continue;
      const left = points.every(
        (c) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) >= -1e-9,
      );
      if (left) edges.push([a, b]);
    }
  }
  if (edges.length === 0) return false;
  return edges.every(
    ([a, b]) =>
      (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) >= -1e-6 * Math.hypot(b[0] - a[0], b[1] - a[1]),
  );
}

/** Point in a convex polygon given counter-clockwise, boundary included. */
function inPolygon(polygon: Array<[number, number]>, y: number, z: number): boolean {
  return polygon.every(([ay, az], k) => {
    const [by, bz] = polygon[(k + 1) % polygon.length]!;
    return (by - ay) * (z - az) - (bz - az) * (y - ay) >= -1e-6 * Math.hypot(by - ay, bz - az);
  });
}

/**
 * The centre of gravity's height of the simplest floor-first load: each box as given (its height
 * up), in the order given, in rows across the width, rows along the length from the front wall,
 * a new layer on top of the tallest box of the layer below once the floor is full. A load that
 * claims to be low should be no higher. Weighted by weight, or by volume when no box has one.
 */
export function floorFirstCentreHeight(space: CheckSpace, items: CheckItem[]): number {
  let x = 0;
  let y = 0;
  let z = 0;
  let rowDepth = 0;
  let layerHeight = 0;
  let mass = 0;
  let moment = 0;
  const byWeight = items.some((item) => (item.weightKg ?? 0) > 0);
  for (const item of items) {
    for (let n = 0; n < item.quantity; n++) {
      if (y + item.width > space.width) {
        x += rowDepth;
        y = 0;
        rowDepth = 0;
      }
      if (x + item.length > space.length) {
        z += layerHeight;
        x = 0;
        y = 0;
        rowDepth = 0;
        layerHeight = 0;
      }
      const m = byWeight ? (item.weightKg ?? 0) : item.length * item.width * item.height;
      mass += m;
      moment += m * (z + item.height / 2);
      y += item.width;
      rowDepth = Math.max(rowDepth, item.length);
      layerHeight = Math.max(layerHeight, item.height);
    }
  }
  return mass > 0 ? moment / mass : 0;
}

/** How far apart (mm) a stop's boxes' door ends may lie and the stop still be one reach: a person's reach into a van. */
export const ONE_REACH_MM = 600;

/**
 * The stops whose boxes' door ends (x + length, the door at x = the space's length) lie more than
 * one reach apart along the space: the driver reaches in more than once for them.
 */
export function stopsOverOneReach(items: CheckItem[], placements: CheckPlacement[]): number[] {
  const ends = new Map<number, { near: number; far: number }>();
  for (const p of placements) {
    const stop = items[p.item]?.stop ?? 0;
    const end = p.x + p.length;
    const seen = ends.get(stop);
    ends.set(
      stop,
      seen ? { near: Math.max(seen.near, end), far: Math.min(seen.far, end) } : { near: end, far: end },
    );
  }
  return [...ends].filter(([, { near, far }]) => near - far > ONE_REACH_MM).map(([stop]) => stop);
}
