/**
 * Axle limits. Two supports (a truck's front and rear axles, a trailer's kingpin and axle group)
 * share the load by the lever rule about its centre of gravity along the length. A load that
 * overloads one is first slid along the length where free length allows: the whole load moves,
 * so nothing of its stacking, support or unloading order changes. When no slide is enough, boxes
 * with nothing on them come off, the one that relieves the overloaded support most first, until
 * both supports hold.
 */
import type { Cuboid } from './space.ts';
import type { Axle, LoadingSpace } from './types.ts';

export interface WeighedBox extends Cuboid {
  weight: number;
}

export interface BalancedLoad<T extends WeighedBox> {
  /** The boxes kept, slid along the length when that was needed. */
  boxes: T[];
  /** Boxes taken off to keep the axle limits. */
  removed: T[];
}

/** Cargo on each support, front first, in kg; the boxes' weights by the lever rule. */
export function axleLoadsOf(axles: readonly [Axle, Axle], boxes: readonly WeighedBox[]): [number, number] {
  const [front, rear] = axles;
  let weight = 0;
  let moment = 0;
  for (const box of boxes) {
    weight += box.weight;
    moment += box.weight * ((box.x0 + box.x1) / 2);
  }
  const rearLoad = rearShare(front, rear, weight, moment);
  return [weight - rearLoad, rearLoad];
}

function rearShare(front: Axle, rear: Axle, weight: number, moment: number): number {
  const span = rear.positionMm - front.positionMm;
  if (span === 0) return weight / 2;
  return (moment - weight * front.positionMm) / span;
}

const TOLERANCE_KG = 1e-6;

/**
 * The load moved and thinned until both supports hold, or the load as it is when the space has
 * no axles or the boxes no weight. `moved` copies a box slid along the length.
 */
export function balanceOnAxles<T extends WeighedBox>(
  space: LoadingSpace,
  boxes: T[],
  moved: (box: T, dx: number) => T,
): BalancedLoad<T> {
  const axles = space.axles;
  if (!axles || boxes.every((b) => b.weight === 0)) return { boxes, removed: [] };
  const [front, rear] = axles;
  const span = rear.positionMm - front.positionMm;
  const kept = new Set(boxes.map((_, i) => i));
  let carried: ReturnType<typeof onTopCounts> | undefined;
  const removed: T[] = [];
  for (;;) {
    let weight = 0;
    let moment = 0;
    let low = Number.POSITIVE_INFINITY;
    let high = 0;
    for (const i of kept) {
      const b = boxes[i]!;
      weight += b.weight;
      moment += b.weight * ((b.x0 + b.x1) / 2);
      low = Math.min(low, b.x0);
      high = Math.max(high, b.x1);
    }
    if (weight <= TOLERANCE_KG) return { boxes: [...kept].map((i) => boxes[i]!), removed };
    // Slides that keep the load inside: from against the front wall to against the door.
    const minShift = -low;
    const maxShift = space.length - high;
    // The rear support's load grows with the slide (weight / span a millimetre); both limits
    // bound the slide from one side each.
    const rearAt = (shift: number) => rearShare(front, rear, weight, moment + weight * shift);
    let needFrom = minShift;
    let needTo = maxShift;
    if (span > 0) {
      needFrom = Math.max(
        minShift,
        minShift + ((weight - front.maxLoadKg - rearAt(minShift)) * span) / weight,
      );
      needTo = Math.min(maxShift, minShift + ((rear.maxLoadKg - rearAt(minShift)) * span) / weight);
    }
    // The smallest slide that holds both limits; with none, the slide that comes closest.
    const shift = Math.min(maxShift, Math.max(minShift, Math.min(Math.max(0, needFrom), needTo)));
    const rearLoad = rearAt(shift);
    const frontLoad = weight - rearLoad;
    const frontOver = frontLoad - front.maxLoadKg;
    const rearOver = rearLoad - rear.maxLoadKg;
    if (frontOver <= TOLERANCE_KG && rearOver <= TOLERANCE_KG) {
      const out = [...kept].map((i) => (shift === 0 ? boxes[i]! : moved(boxes[i]!, shift)));
      return { boxes: out, removed };
    }
    // Take off the free box (nothing on it) that relieves the more overloaded support most.
    carried ??= onTopCounts(boxes);
    const relieveFront = frontOver >= rearOver;
    let chosen = -1;
    let relief = -1;
    for (const i of kept) {
      if (carried[i]!.count > 0) continue;
      const b = boxes[i]!;
      const x = (b.x0 + b.x1) / 2 + shift;
      const onRear = span === 0 ? 0.5 : (x - front.positionMm) / span;
      const share = b.weight * (relieveFront ? 1 - onRear : onRear);
      if (share > relief) {
        relief = share;
        chosen = i;
      }
    }
    kept.delete(chosen);
    removed.push(boxes[chosen]!);
    for (const below of carried[chosen]!.restsOn) carried[below]!.count--;
  }
}

/** For each box, how many boxes rest on it, and which boxes it rests on itself. */
function onTopCounts(boxes: readonly Cuboid[]): Array<{ count: number; restsOn: number[] }> {
  const byBase = new Map<number, number[]>();
  boxes.forEach((b, i) => {
    const at = byBase.get(b.z0);
    if (at) at.push(i);
    else byBase.set(b.z0, [i]);
  });
  const out = boxes.map(() => ({ count: 0, restsOn: [] as number[] }));
  boxes.forEach((lower, l) => {
    for (const u of byBase.get(lower.z1) ?? []) {
      const upper = boxes[u]!;
      const ox = Math.min(lower.x1, upper.x1) - Math.max(lower.x0, upper.x0);
      const oy = Math.min(lower.y1, upper.y1) - Math.max(lower.y0, upper.y0);
      if (ox > 0 && oy > 0) {
        out[l]!.count++;
        out[u]!.restsOn.push(l);
      }
    }
  });
  return out;
}
