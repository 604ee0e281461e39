/**
 * An independent checker of carton packing plans. It shares no code with the solver
 * (src/modules/packing/solver/cartons): it reads the plan as plain data and recomputes everything
 * from the input: each package's carton is an active one of the catalog or the custom sizes, with
 * its sizes; each piece lies inside the inner space, in an orientation that is a turn of its own
 * sides and one its rules allow; no two pieces overlap; nothing lies above a no-stack piece; the
 * gross weight is within the carton's maximum; the pieces' volume is within the fill cap; every
 * piece is packed exactly once or its whole item reported unfit, with a reason that holds; and the
 * totals add up. Answers the list of violations (empty when the plan is valid) and the totals.
 */

interface Sides {
  length: number;
  width: number;
  height: number;
}

interface CheckedCarton {
  id?: number;
  inner: Sides;
  outer: Sides;
  tareGrams: number;
  maxGrossGrams: number;
  costMinor: number;
  active: boolean;
}

interface CheckedItem {
  id: number;
  dimensions: Sides;
  weightGrams: number;
  quantity: number;
  mayRotate?: boolean;
  thisSideUp?: boolean;
  noStack?: boolean;
}

export interface CheckedInput {
  catalog: CheckedCarton[];
  customCartons?: CheckedCarton[];
  items: CheckedItem[];
  targetUtilizationPercent: number;
}

interface CheckedPiece {
  itemId: number;
  unit: number;
  x: number;
  y: number;
  z: number;
  orientation: string;
  placed: Sides;
}

export interface CheckedPlan {
  packages: Array<{
    carton: { source: 'catalog' | 'custom'; index: number };
    inner: Sides;
    outer: Sides;
    items: CheckedPiece[];
    fillRatio?: number;
    grossGrams?: number;
  }>;
  unfit: Array<{ itemId: number; quantity: number; reason: string }>;
  totals?: { outerVolumeMm3: number; packageCount: number; costMinor: number };
}

export interface CheckResult {
  violations: string[];
  outerVolumeMm3: number;
  packageCount: number;
  costMinor: number;
}

const cubic = (s: Sides) => s.length * s.width * s.height;
const sameSides = (a: Sides, b: Sides) =>
  a.length === b.length && a.width === b.width && a.height === b.height;

/** The item's sides along x, y, z for an orientation named by the letters of its own sides. */
function turned(d: Sides, orientation: string): Sides | null {
  if (!/^[lwh]{3}$/.test(orientation) || new Set(orientation).size !== 3) return null;
  const side = (letter: string) => (letter === 'l' ? d.length : letter === 'w' ? d.width : d.height);
  return { length: side(orientation[0]!), width: side(orientation[1]!), height: side(orientation[2]!) };
}

function allowed(item: CheckedItem, orientation: string): boolean {
  if (item.thisSideUp) return orientation === 'lwh' || orientation === 'wlh';
  if (item.mayRotate === false) return orientation === 'lwh';
  return true;
}

/** Whether the piece, turned some allowed way, fits in the carton alone (for the unfit reasons). */
function fitsSomehow(item: CheckedItem, inner: Sides): boolean {
  for (const o of ['lwh', 'wlh', 'lhw', 'hlw', 'whl', 'hwl']) {
    if (!allowed(item, o)) continue;
    const t = turned(item.dimensions, o)!;
    if (t.length <= inner.length && t.width <= inner.width && t.height <= inner.height) return true;
  }
  return false;
}

export function checkCartonPlan(input: CheckedInput, plan: CheckedPlan): CheckResult {
  const violations: string[] = [];
  const items = new Map(input.items.map((item) => [item.id, item]));
  const seen = new Map<string, number>();
  let outerVolumeMm3 = 0;
  let costMinor = 0;

  plan.packages.forEach((pack, p) => {
    const list = pack.carton.source === 'catalog' ? input.catalog : (input.customCartons ?? []);
    const carton = list[pack.carton.index];
    if (!carton) {
      violations.push(`package ${p}: no ${pack.carton.source} carton ${pack.carton.index}`);
      return;
    }
    if (!carton.active) violations.push(`package ${p}: carton is inactive`);
    if (!sameSides(carton.inner, pack.inner) || !sameSides(carton.outer, pack.outer)) {
      violations.push(`package ${p}: sizes differ from its carton's`);
    }
    if (pack.items.length === 0) violations.push(`package ${p}: empty`);
    outerVolumeMm3 += cubic(carton.outer);
    costMinor += carton.costMinor;
    let volume = 0;
    let weight = 0;
    pack.items.forEach((piece, i) => {
      const item = items.get(piece.itemId);
      if (!item) {
        violations.push(`package ${p}: item ${piece.itemId} is not in the input`);
        return;
      }
      const key = `${piece.itemId}#${piece.unit}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (!Number.isInteger(piece.unit) || piece.unit < 0 || piece.unit >= item.quantity) {
        violations.push(`package ${p}: item ${piece.itemId} has no unit ${piece.unit}`);
      }
      const t = turned(item.dimensions, piece.orientation);
      if (!t || !sameSides(t, piece.placed))
        violations.push(`package ${p}: ${key} is not its own sides turned`);
      if (!allowed(item, piece.orientation))
        violations.push(`package ${p}: ${key} turned ${piece.orientation}`);
      const { x, y, z } = piece;
      const { length: dx, width: dy, height: dz } = piece.placed;
      if (x < 0 || y < 0 || z < 0 || x + dx > carton.inner.length || y + dy > carton.inner.width) {
        violations.push(`package ${p}: ${key} sticks out`);
      } else if (z + dz > carton.inner.height) violations.push(`package ${p}: ${key} sticks out at the top`);
      volume += cubic(item.dimensions);
      weight += item.weightGrams;
      for (let j = 0; j < i; j++) {
        const other = pack.items[j]!;
        const o = other.placed;
        const xy = x < other.x + o.length && other.x < x + dx && y < other.y + o.width && other.y < y + dy;
        if (!xy) continue;
        if (z < other.z + o.height && other.z < z + dz) {
          violations.push(`package ${p}: ${key} overlaps ${other.itemId}#${other.unit}`);
        }
        const otherItem = items.get(other.itemId);
        if (item.noStack && other.z >= z + dz) violations.push(`package ${p}: ${key} takes nothing on top`);
        if (otherItem?.noStack && z >= other.z + o.height) {
          violations.push(`package ${p}: ${other.itemId}#${other.unit} takes nothing on top`);
        }
      }
    });
    const gross = carton.tareGrams + weight;
    if (gross > carton.maxGrossGrams)
      violations.push(`package ${p}: ${gross} g over ${carton.maxGrossGrams} g`);
    if (pack.grossGrams !== undefined && pack.grossGrams !== gross) {
      violations.push(`package ${p}: reports ${pack.grossGrams} g, weighs ${gross} g`);
    }
    if (volume * 100 > input.targetUtilizationPercent * cubic(carton.inner)) {
      violations.push(`package ${p}: filled beyond ${input.targetUtilizationPercent} %`);
    }
    if (pack.fillRatio !== undefined && Math.abs(pack.fillRatio - volume / cubic(carton.inner)) > 1e-9) {
      violations.push(`package ${p}: fill ratio misreported`);
    }
  });

  const usable = [...input.catalog, ...(input.customCartons ?? [])].filter((c) => c.active);
  const reported = new Set<number>();
  for (const entry of plan.unfit) {
    const item = items.get(entry.itemId);
    if (!item) {
      violations.push(`unfit item ${entry.itemId} is not in the input`);
      continue;
    }
    reported.add(item.id);
    if (entry.quantity !== item.quantity) violations.push(`unfit item ${item.id}: part of its quantity`);
    const bySides = usable.filter((c) => fitsSomehow(item, c.inner));
    const byWeight = bySides.filter((c) => item.weightGrams <= c.maxGrossGrams - c.tareGrams);
    const byCap = byWeight.filter(
      (c) => cubic(item.dimensions) * 100 <= input.targetUtilizationPercent * cubic(c.inner),
    );
    const truth =
      bySides.length === 0 ? 'too_large' : byWeight.length === 0 ? 'too_heavy' : 'fill_cap_too_low';
    if (byCap.length > 0) violations.push(`unfit item ${item.id}: a carton takes it alone`);
    else if (entry.reason !== truth)
      violations.push(`unfit item ${item.id}: reason ${entry.reason}, not ${truth}`);
  }
  for (const item of input.items) {
    for (let unit = 0; unit < item.quantity; unit++) {
      const times = seen.get(`${item.id}#${unit}`) ?? 0;
      if (reported.has(item.id) ? times !== 0 : times !== 1) {
        violations.push(
          `item ${item.id} unit ${unit}: packed ${times} times${reported.has(item.id) ? ', reported unfit' : ''}`,
        );
      }
    }
  }
  if (plan.totals) {
    const t = plan.totals;
    if (
      t.outerVolumeMm3 !== outerVolumeMm3 ||
      t.packageCount !== plan.packages.length ||
      t.costMinor !== costMinor
    ) {
      violations.push('totals do not add up');
    }
  }
  return { violations, outerVolumeMm3, packageCount: plan.packages.length, costMinor };
}
