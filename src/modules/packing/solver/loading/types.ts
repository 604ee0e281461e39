/**
 * The container loading problem as the solver sees it: one space, box types with quantities, and
 * the rules a load must keep. Lengths in millimetres, weights in kilograms. Axes: x along the
 * length from the front wall (x = 0) to the door (x = length), y across the width, z up.
 */

/**
 * The space to load. A plain box, optionally cut by a convex cross-section in the y-z plane that
 * runs the whole length: an air ULD envelope whose upper (or lower) corners are chamfered is the
 * box clipped by that polygon. A box is inside when all of it is inside both.
 */
export interface LoadingSpace {
  length: number;
  width: number;
  height: number;
  /** Maximum total weight of the load; none when absent. */
  payloadKg?: number;
  /**
   * Convex polygon of [y, z] points, counter-clockwise, within [0, width] x [0, height]: the usable
   * cross-section. Absent: the whole width x height rectangle.
   */
  crossSection?: Array<[number, number]>;
  /**
   * Two supports under the load, front first (a truck's axles; a trailer's kingpin and axle
   * group), each with its position along x (it may lie outside the space) and the most cargo it
   * may carry. The load is slid or thinned until both hold (axles.ts).
   */
  axles?: [Axle, Axle];
  /** No box's top higher above the floor than this: a person's reach in a van. None: the height. */
  reachLimit?: number;
  /**
   * Stability as a rule: each box's centre of gravity stands over its support (within the outline
   * around the tops it rests on), and no stack is taller than `maxStackRatio` times the narrowest
   * side of the floor it stands on (the footprint of the floor boxes under it, through others).
   */
  stability?: { maxStackRatio: number };
  /**
   * A load unloaded from the rear door by hand: pushed to the door end, so the first stops are
   * within reach from the door. Otherwise the load stays against the front wall.
   */
  loadAtDoor?: boolean;
}

export interface Axle {
  positionMm: number;
  maxLoadKg: number;
}

export interface LoadingItem {
  /** The caller's name for this box type, echoed in placements. */
  id: string;
  length: number;
  width: number;
  height: number;
  quantity: number;
  /** Weight of one box. */
  weightKg?: number;
  /**
   * Which of the box's own dimensions (length, width, height) may stand vertical, as in the
   * Bischoff and Ratcliff format's 0/1 flags. Absent: any orientation.
   */
  mayBeVertical?: [boolean, boolean, boolean];
  /** Nothing may rest on this box. */
  fragile?: boolean;
  /** The most weight this box may carry: everything resting on it, directly or through others. */
  maxLoadOnTopKg?: number;
  /** Unloading order on a multi-drop route: stop 1 is unloaded first. Absent: one stop (0). */
  stop?: number;
}

export interface LoadingOptions {
  /**
   * The share of each box's base that must rest on the floor or on the tops of boxes directly
   * below (0 = no support rule, 1 = full support). Default 0.75.
   */
  supportShare?: number;
  /** Wall-clock budget for the search, milliseconds. Default 1000. */
  timeLimitMs?: number;
  /** Stop after this many constructions (tests use it to be machine-independent). */
  maxIterations?: number;
  seed?: number;
}

export interface LoadingInput {
  space: LoadingSpace;
  items: LoadingItem[];
  options?: LoadingOptions;
}

/** One box in the load, in loading order (step 1 goes in first). */
export interface Placement {
  step: number;
  itemId: string;
  /** Index of the item in the input. */
  item: number;
  x: number;
  y: number;
  z: number;
  /** Placed extents along x, y, z. */
  length: number;
  width: number;
  height: number;
  /** Which of the item's own dimensions lies along x, y, z: e.g. "LWH" (as given), "WHL". */
  orientation: string;
}

export type UnplacedReason =
  | 'too_large'
  | 'outside_contour'
  | 'too_heavy'
  | 'payload_reached'
  | 'axle_limit'
  | 'no_room';

export interface Unplaced {
  itemId: string;
  item: number;
  quantity: number;
  reason: UnplacedReason;
}

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface LoadingOutput {
  placements: Placement[];
  unplaced: Unplaced[];
  /** Placed box volume / the space's usable volume (the cross-section's area x length), 0..1. */
  volumeUtilization: number;
  /** Placed weight / payload, 0..1; null without a payload. */
  weightUtilization: number | null;
  totalWeightKg: number;
  /** Weighted by weight, or by volume when no box has a weight; null for an empty load. */
  centreOfGravity: Vector3 | null;
  /** centreOfGravity minus the space's centre (length/2, width/2, height/2). */
  centreOfGravityOffset: Vector3 | null;
  /** Cargo on each of the space's two axles, front first, kg; null without axles. */
  axleLoadsKg: [number, number] | null;
  /**
   * Per stop (in unloading order), its boxes and how many boxes of later stops must be moved to
   * reach them from the door once the earlier stops are off: 0 is the goal, and the rule.
   */
  stops: Array<{ stop: number; boxes: number; boxesToMove: number }>;
  iterations: number;
  elapsedMs: number;
}
