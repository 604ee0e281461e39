/** The carton benchmark's peer: binpackingjs 4.1.0 (MIT), an npm 3D bin packer, over our catalog. */
import { type Item3D, pack3D, RotationType } from 'binpackingjs/3d';
import type {
  CartonSolverInput,
  CartonType,
  PackingItem,
} from '../../src/modules/packing/solver/cartons/types.ts';
import type { CheckedPlan } from './carton-checker.ts';

const cubic = (d: { length: number; width: number; height: number }) => d.length * d.width * d.height;

/**
 * The peer, given the same catalog the only way its API allows (one bin per call): the remaining
 * pieces are offered to each carton smallest first; the first that takes them all closes the
 * order; if none does, the carton that took the most volume is kept and the rest go round again.
 * The peer knows weight limits and orientations but no fill cap, so pieces it placed last are
 * taken back out until the cap holds. Pieces no carton takes alone are reported unfit.
 */
export function packWithPeer(input: CartonSolverInput): CheckedPlan {
  const cap = input.targetUtilizationPercent;
  const cartons = input.catalog
    .map((carton, index) => ({ carton, index }))
    .filter(({ carton }) => carton.active)
    .sort((a, b) => cubic(a.carton.outer) - cubic(b.carton.outer) || a.carton.costMinor - b.carton.costMinor);
  const byName = new Map<string, { item: PackingItem; unit: number }>();
  let remaining: Item3D[] = input.items.flatMap((item) =>
    Array.from({ length: item.quantity }, (_, unit) => {
      const name = `${item.id}#${unit}`;
      byName.set(name, { item, unit });
      // Its width, height, depth are our length, height (up), width.
      return {
        name,
        width: item.dimensions.length,
        height: item.dimensions.height,
        depth: item.dimensions.width,
        weight: item.weightGrams,
        allowedRotations: item.thisSideUp ? [RotationType.WHD, RotationType.DHW] : undefined,
      };
    }),
  );
  const plan: CheckedPlan = { packages: [], unfit: [] };
  const unfitIds = new Set<number>();
  const tryCarton = (carton: CartonType, items: Item3D[]) => {
    const result = pack3D({
      bins: [
        {
          name: 'bin',
          width: carton.inner.length,
          height: carton.inner.height,
          depth: carton.inner.width,
          maxWeight: carton.maxGrossGrams - carton.tareGrams,
        },
      ],
      items,
    });
    const placed = [...(result.packedBins[0]?.items ?? [])];
    const limit = (cubic(carton.inner) * cap) / 100;
    let volume = placed.reduce((sum, p) => sum + p.width * p.height * p.depth, 0);
    while (volume > limit) {
      const last = placed.pop()!;
      volume -= last.width * last.height * last.depth;
    }
    return { placed, volume };
  };
  while (remaining.length > 0) {
    let chosen: {
      index: number;
      carton: CartonType;
      placed: ReturnType<typeof tryCarton>['placed'];
      volume: number;
    } | null = null;
    for (const { carton, index } of cartons) {
      const attempt = tryCarton(carton, remaining);
      if (attempt.placed.length === remaining.length) {
        chosen = { index, carton, ...attempt };
        break;
      }
      if (!chosen || attempt.volume > chosen.volume) chosen = { index, carton, ...attempt };
    }
    if (!chosen || chosen.placed.length === 0) {
      // The biggest piece left fits nowhere: the whole item is unfit.
      const { item } = byName.get(remaining[0]!.name)!;
      unfitIds.add(item.id);
      plan.unfit.push({ itemId: item.id, quantity: item.quantity, reason: 'unknown' });
      remaining = remaining.filter((r) => byName.get(r.name)!.item.id !== item.id);
      continue;
    }
    const taken = new Set(chosen.placed.map((p) => p.name));
    remaining = remaining.filter((r) => !taken.has(r.name));
    plan.packages.push({
      carton: { source: 'catalog', index: chosen.index },
      inner: chosen.carton.inner,
      outer: chosen.carton.outer,
      items: chosen.placed.map((p) => {
        const { item, unit } = byName.get(p.name)!;
        const [dx, dz, dy] = p.dimension;
        return {
          itemId: item.id,
          unit,
          x: p.position[0],
          y: p.position[2],
          z: p.position[1],
          orientation: orientationOf(item, dx, dy, dz),
          placed: { length: dx, width: dy, height: dz },
        };
      }),
    });
  }
  // Units of an item reported unfit may have gone into packages before: take them back out.
  for (const pack of plan.packages) pack.items = pack.items.filter((p) => !unfitIds.has(p.itemId));
  plan.packages = plan.packages.filter((pack) => pack.items.length > 0);
  return plan;
}

/** The orientation name (letters of the item's own sides along x, y, z) for placed extents. */
function orientationOf(item: PackingItem, dx: number, dy: number, dz: number): string {
  const side = { l: item.dimensions.length, w: item.dimensions.width, h: item.dimensions.height };
  const options = item.thisSideUp ? ['lwh', 'wlh'] : ['lwh', 'wlh', 'lhw', 'hlw', 'whl', 'hwl'];
  const all = [...options, 'lhw', 'hlw', 'whl', 'hwl'];
  const match = all.find((o) => {
    const [a, b, c] = [...o].map((letter) => side[letter as 'l' | 'w' | 'h']);
    return a === dx && b === dy && c === dz;
  });
  return match ?? '???';
}
