/**
 * The vehicle routing solver's contract: stops (orders) to visit, vehicles (drivers) to visit them
 * with, and the routes it plans. Pure data, no database ids beyond the numbers it echoes back.
 */

export interface Point {
  lat: number;
  lng: number;
}

export interface Load {
  weightGrams: number;
  volumeCm3: number;
  count: number;
}

/** Times are seconds from midnight of the planning day, in the business's time zone. */
export interface TimeWindow {
  start: number;
  end: number;
}

export interface SolverStop {
  id: number; // order id
  location: Point;
  demand: Load;
  serviceSeconds: number;
  window?: TimeWindow; // arrival must be <= end; a vehicle arriving before start waits
  requiredSkills?: string[];
  /**
   * What the vehicle does at `location`: 'delivery' (default) drops goods loaded at the depot;
   * 'pickup' collects goods it brings back to its end depot. Ignored when `pickup` is set.
   */
  kind?: 'delivery' | 'pickup';
  /**
   * A pickup-and-delivery (P2P) order: collect the demand here, then carry it to `location` on
   * the same route. The load is on board between the two legs only.
   */
  pickup?: PickupLeg;
}

export interface PickupLeg {
  location: Point;
  serviceSeconds: number;
  window?: TimeWindow;
}

export interface SolverVehicle {
  id: number; // driver id
  start: Point; // where the shift starts (depot)
  end?: Point; // where it must return; defaults to start
  capacity: Load;
  shift: TimeWindow; // leave start no earlier than shift.start, back at end no later than shift.end
  skills: string[];
}

/**
 * What the search minimises, after serving as many stops as it can (always first):
 * - least_distance: total distance;
 * - fewest_vehicles: total distance plus a cost per vehicle used larger than any plan's distance
 *   (see Model.vehicleCost), so one route fewer always wins; ruin moves also empty whole routes;
 * - balanced: total distance plus BALANCE_METERS_PER_SECOND metres for each second between the
 *   longest and the shortest route duration over all the vehicles given (an idle one lasts 0 s).
 */
export type Objective = 'least_distance' | 'fewest_vehicles' | 'balanced';

/** Travel between places measured beforehand (a routing engine's table): meters and seconds from points[i] to points[j]. */
export interface TravelTable {
  points: readonly Point[];
  /** Rows of plain arrays, or of typed arrays (on shared memory when the searches run on threads). */
  meters: readonly ArrayLike<number>[];
  seconds: readonly ArrayLike<number>[];
}

export interface SolverInput {
  stops: SolverStop[];
  vehicles: SolverVehicle[];
  /** Default least_distance. */
  objective?: Objective;
  /**
   * Road distances and times over every place of the input (stops, pickups, vehicle starts and
   * ends); when given, `distance`, `speedMetersPerSecond` and `roundTravelTimes` are not used.
   */
  travel?: TravelTable;
  distance?: (a: Point, b: Point) => number; // meters; default haversine
  /** Default 8.33 (30 km/h city average). A leg takes ceil(meters / speed) whole seconds. */
  speedMetersPerSecond?: number;
  /** false: a leg takes exactly meters / speed (benchmarks with unrounded times); default true. */
  roundTravelTimes?: boolean;
  /** Search budget in milliseconds of wall clock; default 2000. The search also stops at `maxIterations`. */
  timeLimitMs?: number;
  /**
   * Iteration budget of the search. With it alone (no `timeLimitMs`) the result depends only on
   * the input and the seed, whatever the machine; tests use it.
   */
  maxIterations?: number;
  seed?: number; // deterministic results for equal input and iteration budget; default 1
  /** false returns the construction as built, without the search (for comparisons); default true. */
  localSearch?: boolean;
}

export type UnassignedReason =
  | 'capacity' // the stop's demand exceeds every eligible vehicle's capacity
  | 'skills' // no vehicle has every required skill
  | 'time_window' // no eligible vehicle can reach it within its window and shift, even alone
  | 'fleet_full'; // feasible alone, but no room left in any route

export interface PlannedStop {
  stopId: number;
  /** A P2P order has both legs on one route, pickup first; another stop is one leg, as its kind says. */
  leg: 'pickup' | 'delivery';
  arrival: number;
  start: number;
  departure: number;
  distanceFromPreviousMeters: number;
}

export interface PlannedRoute {
  vehicleId: number;
  stops: PlannedStop[]; // in visiting order
  distanceMeters: number; // start -> stops -> end
  departure: number; // leaves start
  returnTime: number; // back at end
  /** The most the vehicle carries at once along the route (per dimension, each at its own peak). */
  load: Load;
}

export interface SolverOutput {
  routes: PlannedRoute[]; // only vehicles with at least one stop
  unassigned: Array<{ stopId: number; reason: UnassignedReason }>;
  totals: { distanceMeters: number; assigned: number; unassigned: number; vehiclesUsed: number };
  /**
   * How the search went: wall-clock milliseconds spent in all, ruin-and-recreate iterations, and
   * the plan's cost under the objective (its distance, plus its price of vehicles or unevenness).
   */
  search: { elapsedMs: number; iterations: number; cost: number };
}
