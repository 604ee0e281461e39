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
 * moments about the other.
 */

export interface CheckSpace {
  length: number;
  width: number;
  height: number;
  payloadKg?: number;
  crossSection?: Array<[number, number]>;
  /** Front then rear: position along the length (from x = 0) and the most weight it carries. */
  axles?: Array<{ positionMm: number; maxLoadKg: number }>;
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
  placements.forEach((upper, u) => {
    if (upper.z <= EPS) return;
    let supported = 0;
    placements.forEach((lower, l) => {
      if (Math.abs(lower.z + lower.height - upper.z) > EPS) return;
      const area =
        overlap1(lower.x, lower.x + lower.length, upper.x, upper.x + upper.length) *
        overlap1(lower.y, lower.y + lower.width, upper.y, upper.y + upper.width);
      if (area <= EPS) return;
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
  placements.forEach((p, i) => {
    const limit = items[p.item]?.maxLoadOnTopKg;
    if (limit === undefined) return;
    const seen = new Set<number>();
    const todo = [...directlyOn[i]!];
    while (todo.length) {
      const next = todo.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(...directlyOn[next]!);
    }
    const load = [...seen].reduce((sum, j) => sum + (items[placements[j]!.item]?.weightKg ?? 0), 0);
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

/** Point in a convex polygon given counter-clockwise, boundary included. */
function inPolygon(polygon: Array<[number, number]>, y: number, z: number): boolean {
  return polygon.every(([ay, az], k) => {
    const [by, bz] = polygon[(k + 1) % polygon.length]!;
    return (by - ay) * (z - az) - (bz - az) * (y - ay) >= -1e-6 * Math.hypot(by - ay, bz - az);
  });
}
