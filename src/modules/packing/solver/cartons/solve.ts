/**
 * The carton packing solver, pure (no I/O), synchronous, bounded by a deadline:
 *
 * 1. Items no usable carton takes alone are set aside with their reason: too big in every allowed
 *    orientation, too heavy for every carton they fit, or the fill cap too low for every carton
 *    that fits and carries them. All their units are reported; nothing is dropped silently.
 * 2. Construction, best fit decreasing by outer volume: pieces biggest first, each into the open
 *    package whose carton grows least (kept if it fits around the others, otherwise repacked into
 *    the smallest carton that takes them all), or a new package of its own smallest carton. Above
 *    100 pieces the repacks are quick ones and tried for at most 16 packages per piece; past the
 *    deadline none is tried, so even a large plan is answered soon after its time.
 * 3. Improvement until the deadline, the iteration budget or a long stall: merge two packages
 *    into one carton when the outer volume does not grow; ruin a few packages (the emptiest most
 *    likely) and reinsert their pieces in a disturbed order; shrink a package by trying shuffled
 *    placement orders in smaller cartons; now and then restart the construction from a shuffled
 *    order. A change is kept when it is no worse, and the best plan found is answered. The search
 *    also stops when a single package reaches a floor no plan can beat.
 *
 * The objective is lexicographic and exact: total outer volume, then the number of packages, then
 * cost. Weight limits, the fill cap, orientations and no-stack are never relaxed. Equal input,
 * seed and iteration budget give equal output.
 */

import { mulberry32 } from '../../../../platform/random.ts';
import { CartonModel, type Pack } from './model.ts';
import type { CartonSolverInput, CartonSolverOutput, PlannedPackage, UnfitItem } from './types.ts';

export const DEFAULT_CARTON_TIME_LIMIT_MS = 1000;
/** Stop after this many steps (times the pieces, at least) without a better plan. */
const STALL_PER_UNIT = 40;
const MIN_STALL = 400;
const RESTART_AFTER = 150;
const QUICK_FROM_UNITS = 100;
/** In the construction, repacking into a bigger carton is tried for this many packages at most. */
const MAX_REPACKS_PER_PIECE = 16;

type Plan = Pack[];

interface Score {
  volume: number;
  count: number;
  cost: number;
}

export function solveCartons(input: CartonSolverInput): CartonSolverOutput {
  const started = performance.now();
  const deadline = started + (input.timeLimitMs ?? DEFAULT_CARTON_TIME_LIMIT_MS);
  const maxIterations = input.maxIterations ?? Number.POSITIVE_INFINITY;
  const random = mulberry32(input.seed ?? 1);
  const model = new CartonModel(input);
  const score = (plan: Plan): Score => {
    let volume = 0;
    let cost = 0;
    for (const pack of plan) {
      volume += model.cartons[pack.carton]!.outerVolume;
      cost += model.cartons[pack.carton]!.cost;
    }
    return { volume, count: plan.length, cost };
  };

  const everything = model.units.map((_, u) => u);
  // Pieces with many others: a quick first construction (one order, two policies per carton).
  const quick = model.units.length > QUICK_FROM_UNITS;
  let current = insert(model, [], byVolume(model, everything, undefined), deadline, quick);
  // Everything in one carton, when one takes it all, is a plan to start from too.
  const single = everything.length > 0 ? model.smallestCarton(everything, { quick }) : null;
  if (single && compare(score([model.packOf(single)]), score(current)) < 0) current = [model.packOf(single)];
  let currentScore = score(current);
  let best = current;
  let bestScore = currentScore;
  const floor = outerVolumeFloor(model, everything);

  let iterations = 0;
  let sinceBest = 0;
  const stall = Math.max(MIN_STALL, STALL_PER_UNIT * model.units.length);
  let timedOut = false;
  while (current.length > 0 && iterations < maxIterations && sinceBest < stall) {
    if (bestScore.volume <= floor && bestScore.count === 1) break; // nothing can do better
    if (performance.now() > deadline) {
      timedOut = true;
      break;
    }
    iterations++;
    sinceBest++;
    let candidate: Plan | null;
    const draw = random();
    if (sinceBest % RESTART_AFTER === 0) {
      candidate = insert(model, [], byVolume(model, everything, random), deadline, quick);
    } else if (draw < 0.2) {
      candidate = merge(model, current, random);
    } else if (draw < 0.3) {
      candidate = shrink(model, current, random);
    } else if (draw < 0.5) {
      candidate = moveOrSwap(model, current, random);
    } else {
      candidate = ruinAndRecreate(model, current, random, deadline);
    }
    if (!candidate) continue;
    const candidateScore = score(candidate);
    if (sinceBest % RESTART_AFTER === 0 || compare(candidateScore, currentScore) <= 0) {
      current = candidate;
      currentScore = candidateScore;
    }
    if (compare(currentScore, bestScore) < 0) {
      best = current;
      bestScore = currentScore;
      sinceBest = 0;
    }
  }
  return answer(model, best, bestScore, { iterations, elapsedMs: performance.now() - started, timedOut });
}

/**
 * No plan ships less outer volume: the pieces' volume at the best ratio of outer volume to capped
 * inner volume any carton offers, or the carton the most demanding piece needs alone.
 */
function outerVolumeFloor(model: CartonModel, units: readonly number[]): number {
  const ratio = Math.min(...model.cartons.map((carton) => carton.outerVolume / carton.capVolume));
  let floor = units.reduce((sum, u) => sum + model.units[u]!.volume, 0) * ratio;
  for (const u of units)
    floor = Math.max(floor, model.cartons[model.smallestCarton([u])!.carton]!.outerVolume);
  return floor;
}

function compare(a: Score, b: Score): number {
  return a.volume - b.volume || a.count - b.count || a.cost - b.cost;
}

/** Biggest first; with `random`, each volume weighed by a draw in [0.6, 1.4). */
function byVolume(
  model: CartonModel,
  units: readonly number[],
  random: (() => number) | undefined,
): number[] {
  const keyed = units.map((u) => ({ u, key: model.units[u]!.volume * (random ? 0.6 + 0.8 * random() : 1) }));
  return keyed.sort((a, b) => b.key - a.key || a.u - b.u).map((k) => k.u);
}

/**
 * Best fit by outer volume grown; a piece alone gets the smallest carton that takes it. Past the
 * deadline, packages are no longer repacked into bigger cartons: a piece goes where it fits
 * around the others, or alone, so even the largest plan is answered soon after its time.
 */
function insert(
  model: CartonModel,
  plan: Plan,
  units: readonly number[],
  deadline: number,
  quick = false,
): Plan {
  const packs = [...plan];
  for (const u of units) {
    const unit = model.units[u]!;
    const alone = model.smallestCarton([u])!;
    let bestGrowth = model.cartons[alone.carton]!.outerVolume;
    let chosen: { at: number; pack: Pack } | null = null;
    const grown = packs.findIndex((pack) => {
      const bigger = model.grow(pack, u);
      if (bigger) chosen = { at: packs.indexOf(pack), pack: bigger };
      return bigger !== null;
    });
    if (grown < 0 && performance.now() <= deadline) {
      // Repack only the few packages whose growth, by volume alone, could beat a carton of its own.
      const hopefuls = packs
        .map((pack, at) => {
          const own = model.cartons[pack.carton]!.outerVolume;
          return {
            at,
            own,
            floor: model.outerLowerBound(pack.volume + unit.volume, pack.weight + unit.weight) - own,
          };
        })
        .filter((h) => h.floor <= bestGrowth)
        .sort((a, b) => a.floor - b.floor || a.at - b.at)
        .slice(0, MAX_REPACKS_PER_PIECE);
      for (const { at, own, floor } of hopefuls) {
        if (floor > bestGrowth || (floor === bestGrowth && chosen)) break;
        const fitted = model.smallestCarton([...packs[at]!.units, u], { maxOuter: own + bestGrowth, quick });
        if (!fitted) continue;
        const growth = model.cartons[fitted.carton]!.outerVolume - own;
        if (growth < bestGrowth || (growth === bestGrowth && !chosen)) {
          bestGrowth = growth;
          chosen = { at, pack: model.packOf(fitted) };
        }
      }
    }
    const taken = chosen as { at: number; pack: Pack } | null;
    if (taken) packs[taken.at] = taken.pack;
    else packs.push(model.packOf(alone));
  }
  return packs;
}

function pick(plan: Plan, random: () => number): number {
  return Math.floor(random() * plan.length);
}

/**
 * Two or three packages into the smallest carton that takes them all, if that is no bigger than
 * they were: three, because two pieces' worth of growth can each lose to a carton of its own
 * while all three together win.
 */
function merge(model: CartonModel, plan: Plan, random: () => number): Plan | null {
  if (plan.length < 2) return null;
  const count = plan.length > 2 && random() < 0.4 ? 3 : 2;
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(pick(plan, random));
  const packs = [...chosen].map((at) => plan[at]!);
  if (packs.reduce((sum, pack) => sum + pack.volume, 0) > model.largestCap) return null;
  const before = packs.reduce((sum, pack) => sum + model.cartons[pack.carton]!.outerVolume, 0);
  const fitted = model.smallestCarton(
    packs.flatMap((pack) => pack.units),
    { maxOuter: before },
  );
  if (!fitted) return null;
  return [...plan.filter((_, i) => !chosen.has(i)), model.packOf(fitted)];
}

/** One package into a smaller carton, by a shuffled placement order. */
function shrink(model: CartonModel, plan: Plan, random: () => number): Plan | null {
  const at = pick(plan, random);
  const pack = plan[at]!;
  if (pack.carton === 0) return null;
  const fitted = model.smallestCarton(pack.units, { random, below: pack.carton });
  if (!fitted) return null;
  return plan.map((p, i) => (i === at ? model.packOf(fitted) : p));
}

/**
 * One piece from a package into another, or two pieces traded between them, each package then
 * in the smallest carton that takes its new contents.
 */
function moveOrSwap(model: CartonModel, plan: Plan, random: () => number): Plan | null {
  if (plan.length < 2) return null;
  const a = pick(plan, random);
  let b = pick(plan, random);
  if (b === a) b = (a + 1) % plan.length;
  const [from, to] = [plan[a]!, plan[b]!];
  const i = Math.floor(random() * from.units.length);
  const moved = from.units[i]!;
  const swap = random() < 0.5;
  const j = Math.floor(random() * to.units.length);
  const back = to.units[j]!;
  const fromUnits = from.units.filter((_, k) => k !== i);
  const toUnits = [...(swap ? to.units.filter((_, k) => k !== j) : to.units), moved];
  if (swap) fromUnits.push(back);
  const newTo = model.smallestCarton(toUnits);
  if (!newTo) return null;
  const newFrom = fromUnits.length > 0 ? model.smallestCarton(fromUnits) : null;
  if (fromUnits.length > 0 && !newFrom) return null;
  const next = plan.filter((_, k) => k !== a && k !== b);
  next.push(model.packOf(newTo));
  if (newFrom) next.push(model.packOf(newFrom));
  return next;
}

/** Empties one to three packages, the emptiest most likely, and puts their pieces back. */
function ruinAndRecreate(
  model: CartonModel,
  plan: Plan,
  random: () => number,
  deadline: number,
): Plan | null {
  if (plan.length === 0) return null;
  const count = 1 + Math.floor(random() * Math.min(3, plan.length));
  const emptiness = plan.map((pack) => 1.05 - pack.volume / model.cartons[pack.carton]!.innerVolume);
  const removed = new Set<number>();
  while (removed.size < count) {
    const total = emptiness.reduce((sum, e, i) => sum + (removed.has(i) ? 0 : e), 0);
    let draw = random() * total;
    for (let i = 0; i < plan.length; i++) {
      if (removed.has(i)) continue;
      draw -= emptiness[i]!;
      if (draw <= 0) {
        removed.add(i);
        break;
      }
    }
    if (draw > 0) removed.add([...plan.keys()].find((i) => !removed.has(i))!);
  }
  const kept = plan.filter((_, i) => !removed.has(i));
  const loose = [...removed].flatMap((i) => plan[i]!.units);
  // Shuffle the kept packages too, so pieces try other hosts first.
  for (let i = kept.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kept[i], kept[j]] = [kept[j]!, kept[i]!];
  }
  return insert(model, kept, byVolume(model, loose, random), deadline);
}

function answer(
  model: CartonModel,
  plan: Plan,
  total: Score,
  stats: CartonSolverOutput['stats'],
): CartonSolverOutput {
  const unitNumber = new Map<number, number>();
  const packages: PlannedPackage[] = plan
    .map((pack) => {
      const carton = model.cartons[pack.carton]!;
      return {
        carton: carton.ref,
        inner: carton.inner,
        outer: carton.outer,
        items: pack.units.map((u, k) => {
          const { item } = model.units[u]!;
          const unit = unitNumber.get(item) ?? 0;
          unitNumber.set(item, unit + 1);
          const p = pack.layout.placed[k]!;
          return {
            itemId: model.input.items[item]!.id,
            unit,
            x: p.x,
            y: p.y,
            z: p.z,
            orientation: p.orientation,
            placed: { length: p.dx, width: p.dy, height: p.dz },
          };
        }),
        fillRatio: pack.volume / carton.innerVolume,
        grossGrams: pack.weight + carton.tare,
        costMinor: carton.cost,
      };
    })
    .sort(
      (a, b) =>
        b.outer.length * b.outer.width * b.outer.height - a.outer.length * a.outer.width * a.outer.height,
    );
  const unfit: UnfitItem[] = [];
  model.input.items.forEach((item, index) => {
    const reason = model.unfitReason[index];
    if (reason) unfit.push({ itemId: item.id, quantity: item.quantity, reason });
  });
  return {
    packages,
    unfit,
    totals: { outerVolumeMm3: total.volume, packageCount: total.count, costMinor: total.cost },
    stats,
  };
}
