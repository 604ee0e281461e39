/**
 * The carton packing solver's input and output. Lengths in millimetres, weights in grams, money in
 * minor units. Axes: x along a carton's length, y along its width, z up (its height); an item's
 * own length, width and height are named the same way, its height being the side that stays up
 * when it must (this_side_up).
 */

export interface Dimensions {
  length: number;
  width: number;
  height: number;
}

export interface CartonType {
  /** A catalog carton's id; a custom size may carry one of its own or none. */
  id?: number;
  inner: Dimensions;
  outer: Dimensions;
  tareGrams: number;
  /** Carton and contents together. */
  maxGrossGrams: number;
  costMinor: number;
  active: boolean;
}

export interface PackingItem {
  id: number;
  dimensions: Dimensions;
  weightGrams: number;
  quantity: number;
  /** Any of the six orientations (default true). */
  mayRotate?: boolean;
  /** Only turns about the vertical axis; wins over mayRotate. */
  thisSideUp?: boolean;
  /** Nothing may rest above it. */
  noStack?: boolean;
}

export interface CartonSolverInput {
  catalog: CartonType[];
  customCartons?: CartonType[];
  items: PackingItem[];
  /** Hard: no package's items fill more than this share of the carton's inner volume. */
  targetUtilizationPercent: number;
  timeLimitMs?: number;
  /** Stops the search after this many improvement steps: equal input and seed, equal answer. */
  maxIterations?: number;
  seed?: number;
}

/**
 * Which side of the item lies along the carton's x, y and z: 'lwh' is as given, 'wlh' turned a
 * quarter about the vertical axis; the other four lay it on a side.
 */
export type Orientation = 'lwh' | 'wlh' | 'lhw' | 'hlw' | 'whl' | 'hwl';

export interface PlacedItem {
  itemId: number;
  /** Which unit of the item's quantity, from 0. */
  unit: number;
  /** The corner nearest the carton's origin, inside the inner space. */
  x: number;
  y: number;
  z: number;
  orientation: Orientation;
  /** The item's extent along x, y, z in that orientation. */
  placed: Dimensions;
}

export interface CartonRef {
  source: 'catalog' | 'custom';
  /** The carton's id when it has one. */
  id: number | null;
  /** Position in the list it came from (catalog or customCartons). */
  index: number;
}

export interface PlannedPackage {
  carton: CartonRef;
  inner: Dimensions;
  outer: Dimensions;
  items: PlacedItem[];
  /** Items' volume over the inner volume, 0 to 1. */
  fillRatio: number;
  /** Tare plus items. */
  grossGrams: number;
  costMinor: number;
}

export type UnfitReason = 'too_large' | 'too_heavy' | 'fill_cap_too_low';

export interface UnfitItem {
  itemId: number;
  quantity: number;
  reason: UnfitReason;
}

export interface CartonSolverOutput {
  packages: PlannedPackage[];
  unfit: UnfitItem[];
  totals: { outerVolumeMm3: number; packageCount: number; costMinor: number };
  stats: { iterations: number; elapsedMs: number; timedOut: boolean };
}
