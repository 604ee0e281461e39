/**
 * The loading solver: a synchronous pure function with a deadline. It builds a load greedily
 * (block building over maximal spaces, construct.ts) under two block scores, then runs the pilot
 * method (a one-step look-ahead, below) under the better score, then under the other, then wider,
 * then spends what is left of the budget on randomized restarts and rebuilds of the best load's
 * tail (a GRASP), keeping the fullest load. The module will run it in a worker thread; nothing
 * here does I/O.
 */

import { mulberry32 } from '../../../../platform/random.ts';
import { axleLoadsOf, balanceOnAxles } from './axles.ts';
import { type BoxType, boxTypesOf } from './box-types.ts';
import {
  blocksUnloading,
  type Construction,
  type ConstructionRules,
  type ConstructionState,
  complete,
  construct,
  type PlacedBlock,
  startConstruction,
} from './construct.ts';
import { type Cuboid, reachableHeight, restingRelation, spaceContains, usableVolume } from './space.ts';
import type { LoadingInput, LoadingOutput, Placement, Unplaced, UnplacedReason, Vector3 } from './types.ts';

export const DEFAULT_SUPPORT_SHARE = 0.75;
export const DEFAULT_TIME_LIMIT_MS = 1000;

/** Restart settings tried in turn: how often a step takes a lesser block, and among how many. */
const GREEDINESS = [
  { chance: 0.1, among: 2 },
  { chance: 0.2, among: 3 },
  { chance: 0.35, among: 2 },
  { chance: 0.5, among: 4 },
];

/**
 * The pilot runs in turn, each under the better score and then the other: how many next blocks
 * it weighs at each step, and how many successors of each at each further level (none: a
 * one-step look-ahead).
 */
const PILOT_STAGES: Array<{ width: number; deeper: number[] }> = [
  { width: 12, deeper: [] },
  { width: 12, deeper: [4] },
  { width: 24, deeper: [] },
  { width: 12, deeper: [8] },
  { width: 48, deeper: [] },
  { width: 8, deeper: [4, 3] },
];

/**
 * The pilot method (a one-step look-ahead, as in Fanslau and Bortfeldt's tree search with
 * width one): at each step, complete the load greedily after each of the best few next blocks
 * and keep the block whose completion is fullest. With `deeper` a block is valued by the fullest
 * completion after it and its best few successors, and theirs, level by level (a look-ahead of
 * more steps). Every completion is a whole load, so stopping at the deadline loses nothing.
 */
function pilot(
  rules: ConstructionRules,
  scoring: ConstructionRules['scoring'],
  width: number,
  deeper: number[],
  consider: (c: Construction) => number,
  spent: () => boolean,
): void {
  const greedy = { ...rules, scoring, greediness: { chance: 0, among: 1 } };
  // States are forked, not rebuilt from their blocks: a long prefix is not replaced each time.
  const lookAhead = (state: ConstructionState, level: number): number => {
    const after = level < deeper.length ? state.choices(deeper[level]!) : [];
    if (after.length === 0) {
      return consider(complete(greedy, state));
    }
    let fullest = -1;
    for (const successor of after) {
      const next = state.fork();
      next.place(successor);
      fullest = Math.max(fullest, lookAhead(next, level + 1));
      if (spent()) break;
    }
    return fullest;
  };
  const current = startConstruction(greedy);
  for (;;) {
    const next = current.choices(width);
    if (next.length === 0) return;
    let chosen = next[0]!;
    let fullest = -1;
    for (const option of next) {
      const state = current.fork();
      state.place(option);
      const value = lookAhead(state, 0);
      if (spent()) return;
      if (value > fullest) {
        fullest = value;
        chosen = option;
      }
    }
    current.place(chosen);
  }
}

export function solveLoading(input: LoadingInput): LoadingOutput {
  const started = performance.now();
  const options = input.options ?? {};
  const deadline = started + (options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY;
  const random = mulberry32(options.seed ?? 1);
  const types = boxTypesOf(input.items);
  const rules: ConstructionRules = {
    space: input.space,
    types,
    supportShare: options.supportShare ?? DEFAULT_SUPPORT_SHARE,
    random,
    greediness: { chance: 0, among: 1 },
    scoring: 'volume',
  };
  const total = types.reduce((sum, t) => sum + t.volume * t.item.quantity, 0);
  let best: Load | null = null;
  let iterations = 0;
  // A load is worth the volume it keeps once on its axles: the search steers away from loads
  // that would have to be thinned. Of loads handled by hand keeping as much, the lower centre of
  // gravity wins (elsewhere the later, which the rebuilds start from).
  const byHand = handledByHand(input.space);
  const consider = (c: Construction): number => {
    iterations++;
    const load = loadOf(input, c);
    if (!best || load.volume > best.volume + VOLUME_TIE) best = load;
    else if (load.volume >= best.volume - VOLUME_TIE) {
      if (!byHand || centreHeight(load) <= centreHeight(best)) best = load;
    }
    return load.volume;
  };
  // A load handled by hand that holds everything is enough once it is no higher than floor first;
  // a higher one (walls where the floor had room) is kept only while nothing lower is found.
  let lowEnough = Number.POSITIVE_INFINITY;
  const spent = () =>
    iterations >= maxIterations ||
    performance.now() >= deadline ||
    (best!.volume >= total && (!byHand || centreHeight(best!) <= lowEnough));

  const multiStop = new Set(types.map((t) => t.stop)).size > 1;
  const needed = total / (input.space.length * input.space.width);
  // A load handled by hand is built floor first, layer by layer, first: when everything fits that
  // way, the search ends at once with the lowest of these loads. Then (with stops) the walls,
  // before the greedy loads, so that they are built within a short time limit.
  if (byHand) {
    rules.scoring = 'low';
    const floorFirst = loadOf(input, construct(rules));
    lowEnough = centreHeight(floorFirst) + CENTRE_TIE;
    consider(floorFirst.construction);
    // With stops, floor first mixes the stops' layers, and the unloading order then leaves the
    // first stops little room: walls from the front wall, later stops first, up to a few heights
    // around the one the load needs, often hold every parcel where floor first does not.
    if (multiStop) {
      for (const share of WALL_HEIGHTS) {
        if (spent()) break;
        rules.wallHeight = needed * share;
        consider(construct(rules));
      }
      rules.wallHeight = undefined;
    }
  }
  // The greedy loads, by volume and by fit: the better score leads the pilot.
  rules.scoring = 'volume';
  const greedyVolume = consider(construct(rules));
  rules.scoring = 'fit';
  const scoring = consider(construct(rules)) > greedyVolume ? 'fit' : 'volume';
  // The pilot again while time allows, under the other score and then wider: each run is a
  // different deterministic neighbourhood, where restarts (below) rarely beat a finished pilot.
  // Once everything fits, only a lower load is looked for, by the restarts.
  const other = scoring === 'fit' ? 'volume' : 'fit';
  for (const { width, deeper } of PILOT_STAGES) {
    if (!spent() && best!.volume < total) pilot(rules, scoring, width, deeper, consider, spent);
    if (!spent() && best!.volume < total) pilot(rules, other, width, deeper, consider, spent);
  }
  while (!spent()) {
    rules.greediness = GREEDINESS[iterations % GREEDINESS.length]!;
    // By hand, half the restarts are floor first or walls of a height drawn at random.
    const low = byHand && random() < 0.5;
    rules.scoring = low ? 'low' : random() < 0.5 ? 'volume' : 'fit';
    rules.wallHeight = low && multiStop && random() < 0.8 ? needed * (0.8 + 2.2 * random()) : undefined;
    // Odd turns start afresh; even turns keep the first part of the best load and rebuild the rest.
    const kept = best!.construction.placed;
    const keep = iterations % 2 === 0 ? Math.floor(kept.length * (0.3 + 0.6 * random())) : 0;
    consider(construct(rules, kept.slice(0, keep)));
  }
  return answer(input, types, best!, iterations, performance.now() - started);
}

/** A construction's boxes as they go into the space: slid or thinned to keep its axle limits. */
interface Load {
  construction: Construction;
  /** Null: the construction's boxes as they are (a space without axles). */
  boxes: Box[] | null;
  removed: Box[];
  volume: number;
  /** Worked out when two loads of the same volume are compared. */
  centreHeight?: number;
}

/** Centre heights this close (mm) are the same. */
const CENTRE_TIE = 1e-6;
/** The walls' heights tried, as shares of the height the load would have spread over the floor. */
const WALL_HEIGHTS = [0.8, 1, 1.25, 1.5, 2, 2.5, 3];

/** Volumes this close are the same load's worth (sums of box volumes in floating point). */
const VOLUME_TIE = 1e-6;

const handledByHand = (space: LoadingInput['space']) =>
  space.reachLimit !== undefined || space.stability !== undefined || space.loadAtDoor === true;

/** The height of a load's centre of gravity (of its volume when no box has a weight). */
function centreHeight(load: Load): number {
  if (load.centreHeight !== undefined) return load.centreHeight;
  const boxes = load.boxes ?? load.construction.placed.flatMap(boxesOf);
  const byWeight = boxes.some((b) => b.type.weight > 0);
  let mass = 0;
  let moment = 0;
  for (const b of boxes) {
    const m = byWeight ? b.type.weight : b.type.volume;
    mass += m;
    moment += m * ((b.z0 + b.z1) / 2);
  }
  load.centreHeight = mass > 0 ? moment / mass : 0;
  return load.centreHeight;
}

function loadOf(input: LoadingInput, construction: Construction): Load {
  const { space } = input;
  if (!space.axles && !space.loadAtDoor) {
    return { construction, boxes: null, removed: [], volume: construction.volume };
  }
  let all = construction.placed.flatMap(boxesOf);
  if (space.loadAtDoor && all.length > 0) {
    // To the door end: the unloading order, support and stacking do not change along the length.
    const gap = space.length - Math.max(...all.map((b) => b.x1));
    all = all.map((b) => ({ ...b, x0: b.x0 + gap, x1: b.x1 + gap }));
  }
  if (!space.axles) return { construction, boxes: all, removed: [], volume: construction.volume };
  const { boxes, removed } = balanceOnAxles(input.space, all, (b, dx) => ({
    ...b,
    x0: b.x0 + dx,
    x1: b.x1 + dx,
  }));
  let volume = construction.volume;
  for (const b of removed) volume -= b.type.volume;
  return { construction, boxes, removed, volume };
}

function answer(
  input: LoadingInput,
  types: BoxType[],
  best: Load,
  iterations: number,
  elapsedMs: number,
): LoadingOutput {
  const { space } = input;
  const boxes = inLoadingOrder(best.boxes ?? best.construction.placed.flatMap(boxesOf));
  const placements: Placement[] = boxes.map((b, i) => ({
    step: i + 1,
    itemId: b.type.item.id,
    item: b.type.index,
    x: b.x0,
    y: b.y0,
    z: b.z0,
    length: b.x1 - b.x0,
    width: b.y1 - b.y0,
    height: b.z1 - b.z0,
    orientation: b.code,
  }));
  const byWeight = boxes.some((b) => b.type.weight > 0);
  let mass = 0;
  const moment = { x: 0, y: 0, z: 0 };
  for (const b of boxes) {
    const m = byWeight ? b.type.weight : b.type.volume;
    mass += m;
    moment.x += m * ((b.x0 + b.x1) / 2);
    moment.y += m * ((b.y0 + b.y1) / 2);
    moment.z += m * ((b.z0 + b.z1) / 2);
  }
  const cog: Vector3 | null =
    mass > 0 ? { x: moment.x / mass, y: moment.y / mass, z: moment.z / mass } : null;
  const weight = boxes.reduce((sum, b) => sum + b.type.weight, 0);
  return {
    placements,
    unplaced: unplacedOf(input, types, best),
    volumeUtilization: best.volume / usableVolume(space),
    weightUtilization: space.payloadKg ? weight / space.payloadKg : null,
    totalWeightKg: weight,
    centreOfGravity: cog,
    centreOfGravityOffset: cog
      ? { x: cog.x - space.length / 2, y: cog.y - space.width / 2, z: cog.z - space.height / 2 }
      : null,
    axleLoadsKg: space.axles ? axleLoadsOf(space.axles, boxes) : null,
    stops: stopsOf(boxes),
    iterations,
    elapsedMs,
  };
}

/**
 * Each stop's boxes and how many boxes of later stops stand between them and the door or on
 * them: what a driver moves to reach the stop once the earlier stops are off.
 */
function stopsOf(boxes: Box[]): LoadingOutput['stops'] {
  const stops = [...new Set(boxes.map((b) => b.type.stop))].sort((a, b) => a - b);
  return stops.map((stop) => {
    const own = boxes.filter((b) => b.type.stop === stop);
    const inTheWay = boxes.filter((b) => b.type.stop > stop && own.some((mine) => blocksUnloading(mine, b)));
    return { stop, boxes: own.length, boxesToMove: inTheWay.length };
  });
}

interface Box extends Cuboid {
  type: BoxType;
  code: string;
}

function boxesOf(p: PlacedBlock): Box[] {
  const { dx, dy, dz, code } = p.block.orientation;
  const out: Box[] = [];
  for (let k = 0; k < p.block.nz; k++) {
    for (let i = 0; i < p.block.nx; i++) {
      for (let j = 0; j < p.block.ny; j++) {
        const x0 = p.x0 + i * dx;
        const y0 = p.y0 + j * dy;
        const z0 = p.z0 + k * dz;
        out.push({ x0, y0, z0, x1: x0 + dx, y1: y0 + dy, z1: z0 + dz, type: p.block.type, code });
      }
    }
  }
  return out;
}

/**
 * Loading steps: from the front wall towards the door, bottom up, a box never before the boxes
 * it rests on (Kahn's order over "rests on", taking the deepest, lowest ready box first).
 */
function inLoadingOrder(boxes: Box[]): Box[] {
  const { above, below } = restingRelation(boxes);
  const waiting = below.map((under) => under.length);
  const before = (a: Box, b: Box) => a.x0 - b.x0 || a.z0 - b.z0 || a.y0 - b.y0;
  const ready = boxes.map((_, i) => i).filter((i) => waiting[i] === 0);
  const order: Box[] = [];
  while (ready.length > 0) {
    let at = 0;
    for (let i = 1; i < ready.length; i++) if (before(boxes[ready[i]!]!, boxes[ready[at]!]!) < 0) at = i;
    const [next] = ready.splice(at, 1);
    order.push(boxes[next!]!);
    for (const b of above[next!]!) if (--waiting[b]! === 0) ready.push(b);
  }
  return order;
}

function unplacedOf(input: LoadingInput, types: BoxType[], best: Load): Unplaced[] {
  const { space } = input;
  const payload = space.payloadKg ?? Number.POSITIVE_INFINITY;
  const out: Unplaced[] = [];
  const offForAxles = types.map(() => 0);
  for (const b of best.removed) offForAxles[b.type.index]!++;
  for (const type of types) {
    if (offForAxles[type.index]! > 0) {
      out.push({
        itemId: type.item.id,
        item: type.index,
        quantity: offForAxles[type.index]!,
        reason: 'axle_limit',
      });
    }
    const quantity = best.construction.remaining[type.index]!;
    if (quantity <= 0) continue;
    let reason: UnplacedReason = 'no_room';
    const height = reachableHeight(space);
    const fitsBox = type.orientations.filter(
      (o) => o.dx <= space.length && o.dy <= space.width && o.dz <= height,
    );
    if (fitsBox.length === 0) reason = 'too_large';
    else if (!fitsBox.some((o) => fitsContour(input, o.dx, o.dy, o.dz))) reason = 'outside_contour';
    else if (type.weight > payload) reason = 'too_heavy';
    else if (best.construction.weight + type.weight > payload) reason = 'payload_reached';
    out.push({ itemId: type.item.id, item: type.index, quantity, reason });
  }
  return out;
}

/** Whether a box stands inside the envelope somewhere across the floor (walls and middle). */
function fitsContour(input: LoadingInput, dx: number, dy: number, dz: number): boolean {
  const { space } = input;
  const steps = 20;
  for (let i = 0; i <= steps; i++) {
    const y = ((space.width - dy) * i) / steps;
    if (spaceContains(space, { x0: 0, y0: y, z0: 0, x1: dx, y1: y + dy, z1: dz })) return true;
  }
  return false;
}
