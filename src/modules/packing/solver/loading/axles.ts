/**
 * Axle limits. Two supports (a truck's front and rear axles, a trailer's kingpin and axle group)
 * share the load by the lever rule about its centre of gravity along the length. A load that
 * overloads one is first slid along the length where free length allows: the whole load moves,
 * so nothing of its stacking, support or unloading order changes. When no slide is enough, boxes
 * with nothing on them come off, the one that relieves the overloaded support most first, until
 * both supports hold.
 */
import { type Cuboid, restingRelation } from './space.ts';
import type { Axle, LoadingSpace } from './types.ts';

export interface WeighedBox extends Cuboid {
  type: { weight: number };
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
    weight += box.type.weight;
    moment += box.type.weight * ((box.x0 + box.x1) / 2);
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
  if (!axles || boxes.every((b) => b.type.weight === 0)) return { boxes, removed: [] };
  const [front, rear] = axles;
  const span = rear.positionMm - front.positionMm;
  const kept = new Set(boxes.map((_, i) => i));
  // How many boxes still rest on each, once a box has to come off.
  let resting: { above: number[]; below: number[][] } | undefined;
  const removed: T[] = [];
  for (;;) {
    let weight = 0;
    let moment = 0;
    let low = Number.POSITIVE_INFINITY;
    let high = 0;
    for (const i of kept) {
      const b = boxes[i]!;
      weight += b.type.weight;
      moment += b.type.weight * ((b.x0 + b.x1) / 2);
      low = Math.min(low, b.x0);
      high = Math.max(high, b.x1);
    }
    if (weight <= TOLERANCE_KG) return { boxes: [...kept].map((i) => boxes[i]!), removed };
    // The rear support's load grows by weight / span a millimetre of slide: each limit bounds
    // the slide from one side. Take the smallest slide within both, and within the free length
    // (from against the front wall to against the door); with none, the rear limit's bound.
    const rearAt = (shift: number) => rearShare(front, rear, weight, moment + weight * shift);
    let shift = 0;
    if (span > 0) {
      const perMm = weight / span;
      const fromLimits = clamp(
        0,
        (weight - front.maxLoadKg - rearAt(0)) / perMm,
        (rear.maxLoadKg - rearAt(0)) / perMm,
      );
      shift = clamp(fromLimits, -low, space.length - high);
    }
    const rearLoad = rearAt(shift);
    const frontLoad = weight - rearLoad;
    const frontOver = frontLoad - front.maxLoadKg;
    const rearOver = rearLoad - rear.maxLoadKg;
    if (frontOver <= TOLERANCE_KG && rearOver <= TOLERANCE_KG) {
      const out = [...kept].map((i) => (shift === 0 ? boxes[i]! : moved(boxes[i]!, shift)));
      return { boxes: out, removed };
    }
    // Take off the free box (nothing on it) that relieves the more overloaded support most.
    if (!resting) {
      const relation = restingRelation(boxes);
      resting = { above: relation.above.map((a) => a.length), below: relation.below };
    }
    const relieveFront = frontOver >= rearOver;
    let chosen = -1;
    let relief = -1;
    for (const i of kept) {
      if (resting.above[i]! > 0) continue;
      const b = boxes[i]!;
      const x = (b.x0 + b.x1) / 2 + shift;
      const onRear = span === 0 ? 0.5 : (x - front.positionMm) / span;
      const share = b.type.weight * (relieveFront ? 1 - onRear : onRear);
      if (share > relief) {
        relief = share;
        chosen = i;
      }
    }
    kept.delete(chosen);
    removed.push(boxes[chosen]!);
    for (const under of resting.below[chosen]!) resting.above[under]!--;
  }
}

/** `value` brought within [low, high]; `high` wins when the range is empty. */
function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
