/**
 * The carton problem compiled for the search: one unit per piece (an item of quantity 3 is three
 * units), the usable cartons sorted smallest outer volume first (cheapest first among equals), and
 * the question the search keeps asking, "which is the smallest carton these units fit in?",
 * answered by trying the cartons in that order with the extreme-point placement, memoised by the
 * multiset of items (units of one item are interchangeable).
 */

import {
  ALL_ORIENTATIONS,
  type BoxShape,
  fitsAlone,
  type Layout,
  POLICIES,
  placeAll,
  UPRIGHT_ORIENTATIONS,
} from './placement.ts';
import type { CartonRef, CartonSolverInput, CartonType, Dimensions, UnfitReason } from './types.ts';

export interface Unit {
  item: number;
  volume: number;
  weight: number;
  shape: BoxShape;
}

export interface Carton {
  ref: CartonRef;
  inner: Dimensions;
  outer: Dimensions;
  outerVolume: number;
  innerVolume: number;
  /** The fill cap: the most item volume the carton may hold. */
  capVolume: number;
  tare: number;
  /** Max gross less tare. */
  payload: number;
  cost: number;
}

/** A package as the search sees it: never changed once made, so solutions share them freely. */
export interface Pack {
  /** Units in placement order, parallel to layout.placed. */
  units: number[];
  carton: number;
  layout: Layout;
  volume: number;
  weight: number;
}

const volumeOf = (d: Dimensions) => d.length * d.width * d.height;

function compileCartons(input: CartonSolverInput): Carton[] {
  const from = (source: CartonRef['source'], list: CartonType[] = []) =>
    list.flatMap((carton, index): Carton[] => {
      if (!carton.active) return [];
      const innerVolume = volumeOf(carton.inner);
      return [
        {
          ref: { source, id: carton.id ?? null, index },
          inner: carton.inner,
          outer: carton.outer,
          outerVolume: volumeOf(carton.outer),
          innerVolume,
          capVolume: (innerVolume * input.targetUtilizationPercent) / 100,
          tare: carton.tareGrams,
          payload: carton.maxGrossGrams - carton.tareGrams,
          cost: carton.costMinor,
        },
      ];
    });
  return [...from('catalog', input.catalog), ...from('custom', input.customCartons)].sort(
    (a, b) => a.outerVolume - b.outerVolume || a.cost - b.cost,
  );
}

export interface Fitted {
  carton: number;
  layout: Layout;
  /** In placement order. */
  units: number[];
}

/** Orders tried in turn; boxes that take nothing on top always go last, so they end up on top. */
const ORDERINGS: Array<(a: Unit, b: Unit) => number> = [
  (a, b) => b.volume - a.volume,
  (a, b) => Math.max(b.shape.l, b.shape.w, b.shape.h) - Math.max(a.shape.l, a.shape.w, a.shape.h),
  (a, b) => b.shape.l * b.shape.w - a.shape.l * a.shape.w || b.volume - a.volume,
];

export class CartonModel {
  readonly units: Unit[] = [];
  readonly cartons: Carton[];
  /** fits[item * cartons + c]: the item fits carton c alone, by its sides, weight and the cap. */
  private readonly fits: boolean[] = [];
  /** Per item, why no carton takes it, or null. */
  readonly unfitReason: Array<UnfitReason | null> = [];
  private readonly memo = new Map<string, Fitted | null>();
  readonly largestCap: number;
  readonly largestPayload: number;

  constructor(readonly input: CartonSolverInput) {
    this.cartons = compileCartons(input);
    this.largestCap = Math.max(0, ...this.cartons.map((c) => c.capVolume));
    this.largestPayload = Math.max(0, ...this.cartons.map((c) => c.payload));
    input.items.forEach((item, index) => {
      const { length: l, width: w, height: h } = item.dimensions;
      const shape: BoxShape = {
        l,
        w,
        h,
        orientations: item.thisSideUp
          ? UPRIGHT_ORIENTATIONS
          : item.mayRotate === false
            ? ALL_ORIENTATIONS.slice(0, 1)
            : ALL_ORIENTATIONS,
        noStack: item.noStack === true,
      };
      const volume = l * w * h;
      let bySides = false;
      let byWeight = false;
      let byCap = false;
      for (const carton of this.cartons) {
        const sides = fitsAlone(shape, carton.inner.length, carton.inner.width, carton.inner.height);
        const weight = sides && item.weightGrams <= carton.payload;
        const cap = weight && volume <= carton.capVolume;
        bySides ||= sides;
        byWeight ||= weight;
        byCap ||= cap;
        this.fits.push(cap);
      }
      this.unfitReason.push(
        !bySides ? 'too_large' : !byWeight ? 'too_heavy' : !byCap ? 'fill_cap_too_low' : null,
      );
      if (byCap) {
        for (let q = 0; q < item.quantity; q++)
          this.units.push({ item: index, volume, weight: item.weightGrams, shape });
      }
    });
  }

  fitsCarton(item: number, carton: number): boolean {
    return this.fits[item * this.cartons.length + carton]!;
  }

  /** The smallest carton's outer volume that could hold this volume and weight, by those alone. */
  outerLowerBound(volume: number, weight: number): number {
    for (const carton of this.cartons) {
      if (volume <= carton.capVolume && weight <= carton.payload) return carton.outerVolume;
    }
    return Number.POSITIVE_INFINITY;
  }

  /** Whether carton c can take these totals and each of these units alone. */
  private admits(c: number, units: readonly number[], volume: number, weight: number): boolean {
    const carton = this.cartons[c]!;
    if (volume > carton.capVolume || weight > carton.payload) return false;
    return units.every((u) => this.fitsCarton(this.units[u]!.item, c));
  }

  /**
   * The smallest carton these units fit in, with their places; null if none. Only cartons below
   * index `below` and of outer volume up to `maxOuter` are tried. With `random`, one shuffled order
   * and one random policy instead of the fixed ones, unmemoised; `quick`, one order and two policies.
   */
  smallestCarton(
    units: readonly number[],
    options: { random?: () => number; below?: number; maxOuter?: number; quick?: boolean } = {},
  ): Fitted | null {
    const {
      random,
      below = this.cartons.length,
      maxOuter = Number.POSITIVE_INFINITY,
      quick = false,
    } = options;
    const key = random ? '' : `${quick ? 'q' : ''}${this.keyOf(units)}`;
    if (!random) {
      const hit = this.memo.get(key);
      if (hit === null) return null;
      if (hit) return this.cartons[hit.carton]!.outerVolume <= maxOuter ? this.rebind(hit, units) : null;
    }
    let volume = 0;
    let weight = 0;
    for (const u of units) {
      volume += this.units[u]!.volume;
      weight += this.units[u]!.weight;
    }
    const orders = random
      ? [this.shuffled(units, random)]
      : (quick ? ORDERINGS.slice(0, 1) : ORDERINGS).map((compare) => this.sorted(units, compare));
    const policies = random
      ? [POLICIES[Math.floor(random() * POLICIES.length)]!]
      : quick
        ? POLICIES.slice(0, 2)
        : POLICIES;
    let limited = false;
    for (let c = 0; c < below; c++) {
      if (this.cartons[c]!.outerVolume > maxOuter) {
        limited = true;
        break;
      }
      if (!this.admits(c, units, volume, weight)) continue;
      const { length, width, height } = this.cartons[c]!.inner;
      for (const policy of policies) {
        for (const order of orders) {
          const layout = placeAll(
            order.map((u) => this.units[u]!.shape),
            length,
            width,
            height,
            policy,
          );
          if (layout) {
            const found = { carton: c, units: order, layout };
            if (!random) this.memo.set(key, found);
            return found;
          }
        }
      }
    }
    // A search cut short by maxOuter or below says nothing about bigger cartons.
    if (!random && !limited && below === this.cartons.length) this.memo.set(key, null);
    return null;
  }

  /** A pack from a fitted answer; its layout is shared, never changed (growing clones it). */
  packOf(fitted: Fitted): Pack {
    let volume = 0;
    let weight = 0;
    for (const u of fitted.units) {
      volume += this.units[u]!.volume;
      weight += this.units[u]!.weight;
    }
    return { units: [...fitted.units], carton: fitted.carton, layout: fitted.layout, volume, weight };
  }

  /** The pack with one more unit in the same carton, placed around the others, or null. */
  grow(pack: Pack, u: number): Pack | null {
    const unit = this.units[u]!;
    const carton = this.cartons[pack.carton]!;
    if (pack.volume + unit.volume > carton.capVolume || pack.weight + unit.weight > carton.payload)
      return null;
    if (!this.fitsCarton(unit.item, pack.carton)) return null;
    const layout = pack.layout.clone();
    if (!layout.place(unit.shape)) return null;
    return {
      units: [...pack.units, u],
      carton: pack.carton,
      layout,
      volume: pack.volume + unit.volume,
      weight: pack.weight + unit.weight,
    };
  }

  private keyOf(units: readonly number[]): string {
    return units
      .map((u) => this.units[u]!.item)
      .sort((a, b) => a - b)
      .join(',');
  }

  /** The memoised answer for another set of units of the same items. */
  private rebind(hit: Fitted, units: readonly number[]): Fitted {
    const byItem = new Map<number, number[]>();
    for (const u of units) {
      const item = this.units[u]!.item;
      byItem.set(item, [...(byItem.get(item) ?? []), u]);
    }
    return { ...hit, units: hit.units.map((u) => byItem.get(this.units[u]!.item)!.shift()!) };
  }

  private sorted(units: readonly number[], compare: (a: Unit, b: Unit) => number): number[] {
    return [...units].sort((a, b) => {
      const ua = this.units[a]!;
      const ub = this.units[b]!;
      return Number(ua.shape.noStack) - Number(ub.shape.noStack) || compare(ua, ub) || a - b;
    });
  }

  private shuffled(units: readonly number[], random: () => number): number[] {
    // Volume order, disturbed: big boxes still tend to go first.
    const keyed = units.map((u) => ({ u, key: this.units[u]!.volume * (0.5 + random()) }));
    keyed.sort(
      (a, b) =>
        Number(this.units[a.u]!.shape.noStack) - Number(this.units[b.u]!.shape.noStack) || b.key - a.key,
    );
    return keyed.map((k) => k.u);
  }
}
