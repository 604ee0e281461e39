/**
 * The carton benchmark's inputs and its volume references: a 12-carton catalog of common shipping
 * box sizes, generated e-commerce orders (seeded), and the two lower bounds by volume alone.
 */

import type {
  CartonSolverInput,
  CartonType,
  PackingItem,
} from '../../src/modules/packing/solver/cartons/types.ts';
import { mulberry32 } from '../../src/platform/random.ts';

/**
 * Inner sizes of common single-wall (up to 30 litres) and double-wall shipping boxes; walls 3 and
 * 6 mm a side. Tare from the board's area at 500 g/m² (single) or 750 g/m² (double), price from
 * the area too; maximum gross 10, 20 or 30 kg, the usual ratings for such boxes.
 */
const SIZES: Array<[number, number, number]> = [
  [150, 100, 100],
  [200, 150, 100],
  [200, 200, 150],
  [250, 200, 150],
  [300, 200, 200],
  [300, 250, 200],
  [350, 250, 250],
  [400, 300, 200],
  [400, 300, 300],
  [450, 350, 300],
  [500, 400, 300],
  [600, 400, 400],
];

export function benchCatalog(): CartonType[] {
  return SIZES.map(([length, width, height], index) => {
    const litres = (length * width * height) / 1e6;
    const doubleWall = litres > 30;
    const wall = doubleWall ? 6 : 3;
    const outer = { length: length + 2 * wall, width: width + 2 * wall, height: height + 2 * wall };
    const area = 2 * (outer.length * outer.width + outer.length * outer.height + outer.width * outer.height);
    return {
      id: index + 1,
      inner: { length, width, height },
      outer,
      tareGrams: Math.round((area / 1e6) * (doubleWall ? 750 : 500)),
      maxGrossGrams: litres <= 10 ? 10_000 : litres <= 30 ? 20_000 : 30_000,
      costMinor: Math.round((area / 1e6) * (doubleWall ? 180 : 120)) + 15,
      active: true,
    };
  });
}

/** Product boxes people order: small, flat (books, clothing), long (posters, tools) and bulky. */
function productSides(random: () => number): [number, number, number] {
  const between = (low: number, high: number) => Math.round(low + random() * (high - low));
  const kind = random();
  if (kind < 0.45) return [between(40, 180), between(30, 140), between(20, 120)]; // small
  if (kind < 0.7) return [between(150, 320), between(100, 240), between(10, 50)]; // flat
  if (kind < 0.8) return [between(250, 560), between(40, 90), between(40, 90)]; // long
  return [between(150, 380), between(120, 300), between(100, 300)]; // bulky
}

/** One order of `units` pieces in lines of 1 to 3; one line in ten this side up. */
export function generateOrder(random: () => number, units: number): PackingItem[] {
  const items: PackingItem[] = [];
  let left = units;
  while (left > 0) {
    const quantity = Math.min(left, 1 + Math.floor(random() * 3));
    left -= quantity;
    const [length, width, height] = productSides(random);
    // 0.1 to 0.7 g/cm³: packaging air to dense goods.
    const density = 0.1 + random() * 0.6;
    items.push({
      id: items.length + 1,
      dimensions: { length, width, height },
      weightGrams: Math.max(20, Math.round(((length * width * height) / 1000) * density)),
      quantity,
      mayRotate: true,
      thisSideUp: random() < 0.1,
    });
  }
  return items;
}

export function generateOrders(count: number, seed: number, cap: number): CartonSolverInput[] {
  const random = mulberry32(seed);
  const catalog = benchCatalog();
  return Array.from({ length: count }, () => ({
    catalog,
    items: generateOrder(random, 1 + Math.floor(random() * 40)),
    targetUtilizationPercent: cap,
  }));
}

const volume = (d: { length: number; width: number; height: number }) => d.length * d.width * d.height;

/** Packed volume of an order's pieces that some carton takes (pieces reported unfit are left out). */
export function itemsVolume(items: readonly PackingItem[], skip: ReadonlySet<number> = new Set()): number {
  return items.reduce(
    (sum, item) => (skip.has(item.id) ? sum : sum + volume(item.dimensions) * item.quantity),
    0,
  );
}

/** No plan has fewer packages: the volume over the largest carton's capped inner volume, rounded up. */
export function countBound(itemVolume: number, catalog: readonly CartonType[], cap: number): number {
  const largest = Math.max(...catalog.filter((c) => c.active).map((c) => volume(c.inner)));
  return Math.ceil(itemVolume / ((largest * cap) / 100));
}

/**
 * No plan has a smaller total outer volume: the least outer volume of any multiset of cartons
 * whose capped inner volumes add up to the pieces' volume, as if the pieces were a fluid. An
 * unbounded covering knapsack by dynamic programming over volume in steps of 0.1 litre, each
 * carton's capacity rounded up and the volume to cover rounded down, so it stays a lower bound.
 */
export function outerVolumeBound(itemVolume: number, catalog: readonly CartonType[], cap: number): number {
  const STEP = 100_000;
  const cartons = catalog
    .filter((c) => c.active)
    .map((c) => ({ capacity: Math.ceil((volume(c.inner) * cap) / 100 / STEP), outer: volume(c.outer) }));
  const demand = Math.floor(itemVolume / STEP);
  const least = new Float64Array(demand + 1).fill(Number.POSITIVE_INFINITY);
  least[0] = 0;
  for (let v = 1; v <= demand; v++) {
    for (const c of cartons) {
      const rest = least[Math.max(0, v - c.capacity)]! + c.outer;
      if (rest < least[v]!) least[v] = rest;
    }
  }
  // Something must hold the last fraction of a step too: at least the smallest carton.
  const smallest = Math.min(...cartons.map((c) => c.outer));
  return demand === 0 ? (itemVolume > 0 ? smallest : 0) : least[demand]!;
}

/**
 * A second lower bound, as strong or stronger: the volume bound, or the smallest carton that takes
 * the order's most demanding piece alone (by its sides in an allowed orientation, its weight and
 * the cap), whichever is larger. The volume bound alone treats pieces as a fluid; a 56 cm poster
 * tube still needs the 60 cm carton.
 */
export function pieceOrVolumeBound(
  items: readonly PackingItem[],
  catalog: readonly CartonType[],
  cap: number,
  skip: ReadonlySet<number> = new Set(),
): number {
  let largestAlone = 0;
  for (const item of items) {
    if (skip.has(item.id)) continue;
    const { length: l, width: w, height: h } = item.dimensions;
    const turns: Array<[number, number, number]> = item.thisSideUp
      ? [
          [l, w, h],
          [w, l, h],
        ]
      : [
          [l, w, h],
          [w, l, h],
          [l, h, w],
          [h, l, w],
          [w, h, l],
          [h, w, l],
        ];
    const takers = catalog.filter(
      (c) =>
        c.active &&
        item.weightGrams <= c.maxGrossGrams - c.tareGrams &&
        l * w * h * 100 <= cap * volume(c.inner) &&
        turns.some(([x, y, z]) => x <= c.inner.length && y <= c.inner.width && z <= c.inner.height),
    );
    if (takers.length > 0)
      largestAlone = Math.max(largestAlone, Math.min(...takers.map((c) => volume(c.outer))));
  }
  return Math.max(largestAlone, outerVolumeBound(itemsVolume(items, skip), catalog, cap));
}
