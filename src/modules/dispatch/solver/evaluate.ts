/**
 * Times one route as it stands, pure: the planned arrival, start and departure at each stop, the
 * departure from and return to the depot, the distance driven, the most it carries at once, and
 * every rule the plan breaks (a window missed, a capacity exceeded, the shift overrun, a pickup
 * after its delivery, a skill the driver lacks). What a dispatcher's edit is checked with, on the travel matrix planning uses.
 *
 * Times are seconds from midnight of the route's day, as in the solver. The timing follows the
 * solver's: a vehicle arriving before a window opens waits; the route leaves the depot as late as
 * still starting its first service at the same time.
 */
import type { Load, TimeWindow } from './types.ts';

/** How a stop changes what is on board. */
export type Carriage =
  /** A delivery loaded at the depot: on board from the departure until this stop. */
  | 'from_depot'
  /** A pickup brought back to the depot: on board from this stop to the return. */
  | 'to_depot'
  /** The pickup leg of a pickup-and-delivery order: on board from here to its delivery leg. */
  | 'pair_pickup'
  /** The delivery leg of a pickup-and-delivery order. */
  | 'pair_delivery';

export interface StopToTime {
  orderId: number;
  leg: 'pickup' | 'delivery';
  /** Its place's row in the travel matrix. */
  point: number;
  serviceSeconds: number;
  /** Arrival must be no later than its end; arriving before its start, one waits. */
  window?: TimeWindow;
  demand: Load;
  carriage: Carriage;
  /** Done, failed or arrived at already: it keeps these times and is not checked against its window. */
  fixed?: { arrival: number; departure: number };
  /** Skills its order needs of the driver. */
  requiredSkills?: readonly string[];
}

export interface RouteToTime {
  /** The depot's row in the travel matrix: where the route leaves from and returns to. */
  depot: number;
  shift: TimeWindow;
  capacity: Load;
  /** The skills its driver holds. */
  skills: readonly string[];
  stops: readonly StopToTime[];
  /**
   * A route under way: the departure it took stays, and what is left after its last stop kept
   * (`fixed`) goes on no earlier than `resumeNotBefore` (now, on the route's own day), from `from`
   * when given: where the driver last was (a row of the travel matrix) and from when, instead of
   * the last kept stop's planned departure (resume.ts decides it).
   */
  started?: { departure: number; resumeNotBefore: number; from?: { point: number; at: number } };
  /** A route not under way leaves its depot no earlier than this: now, on its own day (resume.ts). */
  leavesNotBefore?: number;
}

/** Meters and seconds between the matrix's places, `[from][to]`. */
export interface TravelTimes {
  meters: readonly (readonly number[])[];
  seconds: readonly (readonly number[])[];
}

export type LoadDimension = 'weight_grams' | 'volume_cm3' | 'count';

export type Violation =
  | {
      kind: 'time_window';
      orderId: number;
      leg: 'pickup' | 'delivery';
      window: TimeWindow;
      arrival: number;
      lateSeconds: number;
    }
  | { kind: 'capacity'; dimension: LoadDimension; load: number; capacity: number; over: number }
  | { kind: 'shift'; shiftEnd: number; returnTime: number; overSeconds: number }
  | { kind: 'pickup_after_delivery'; orderId: number }
  | { kind: 'skills'; orderId: number; missing: string[] };

export interface TimedStop {
  arrival: number;
  /** When the service begins: the arrival, or the window's opening when early. */
  start: number;
  departure: number;
}

export interface TimedRoute {
  departure: number;
  returnTime: number;
  distanceMeters: number;
  travelSeconds: number;
  /** The most on board at once, per dimension. */
  load: Load;
  stops: TimedStop[];
  violations: Violation[];
}

const DIMENSIONS: ReadonlyArray<[LoadDimension, keyof Load]> = [
  ['weight_grams', 'weightGrams'],
  ['volume_cm3', 'volumeCm3'],
  ['count', 'count'],
];

export function timeRoute(route: RouteToTime, travel: TravelTimes): TimedRoute {
  const { stops, depot, started } = route;
  const departure =
    started?.departure ?? Math.max(plannedDeparture(route, travel), route.leavesNotBefore ?? -Infinity);
  let clock = departure;
  let previous = depot;
  /** Where the drive to the next stop starts: the previous stop, or where the driver was when the route resumed. */
  let origin = depot;
  let distanceMeters = 0;
  let travelSeconds = 0;
  const timed: TimedStop[] = [];
  const violations: Violation[] = [];
  // What is left of a route under way, after its last stop kept, cannot start before now.
  const resumeAt = started ? stops.findLastIndex((stop) => stop.fixed !== undefined) + 1 : -1;
  const resume = () => {
    const from = started!.from;
    clock = Math.max(from ? from.at : clock, started!.resumeNotBefore);
    origin = from?.point ?? previous;
  };
  stops.forEach((stop, index) => {
    if (index === resumeAt) resume();
    // The distance is the stops' own path; where the driver stands changes only the clock.
    distanceMeters += travel.meters[previous]![stop.point]!;
    travelSeconds += travel.seconds[previous]![stop.point]!;
    if (stop.fixed) {
      timed.push({ arrival: stop.fixed.arrival, start: stop.fixed.arrival, departure: stop.fixed.departure });
      clock = stop.fixed.departure;
    } else {
      const arrival = clock + travel.seconds[origin]![stop.point]!;
      const start = Math.max(arrival, stop.window?.start ?? arrival);
      clock = start + stop.serviceSeconds;
      timed.push({ arrival, start, departure: clock });
      if (stop.window && arrival > stop.window.end) {
        violations.push({
          kind: 'time_window',
          orderId: stop.orderId,
          leg: stop.leg,
          window: stop.window,
          arrival,
          lateSeconds: arrival - stop.window.end,
        });
      }
    }
    previous = stop.point;
    origin = stop.point;
  });
  if (resumeAt === stops.length && stops.length > 0) resume();
  distanceMeters += travel.meters[previous]![depot]!;
  travelSeconds += travel.seconds[previous]![depot]!;
  const returnTime = stops.length === 0 ? departure : clock + travel.seconds[origin]![depot]!;
  if (returnTime > route.shift.end) {
    violations.push({
      kind: 'shift',
      shiftEnd: route.shift.end,
      returnTime,
      overSeconds: returnTime - route.shift.end,
    });
  }
  const load = peakLoad(stops);
  for (const [dimension, key] of DIMENSIONS) {
    if (load[key] > route.capacity[key]) {
      violations.push({
        kind: 'capacity',
        dimension,
        load: load[key],
        capacity: route.capacity[key],
        over: load[key] - route.capacity[key],
      });
    }
  }
  violations.push(...pickupsAfterDeliveries(stops), ...skillsLacking(stops, route.skills));
  return { departure, returnTime, distanceMeters, travelSeconds, load, stops: timed, violations };
}

/** Leave as late as still starting the first service at the same time, never before the shift. */
function plannedDeparture(route: RouteToTime, travel: TravelTimes): number {
  const first = route.stops[0];
  if (!first) return route.shift.start;
  const drive = travel.seconds[route.depot]![first.point]!;
  return Math.max(route.shift.start + drive, first.window?.start ?? -Infinity) - drive;
}

/**
 * The most on board at once per dimension: at the departure, or after any stop. Written out per
 * dimension: every edit and every suggestion times routes with it thousands of times.
 */
function peakLoad(stops: readonly StopToTime[]): Load {
  let weight = 0;
  let volume = 0;
  let count = 0;
  for (const stop of stops) {
    if (stop.carriage !== 'from_depot') continue;
    weight += stop.demand.weightGrams;
    volume += stop.demand.volumeCm3;
    count += stop.demand.count;
  }
  let peakWeight = weight;
  let peakVolume = volume;
  let peakCount = count;
  for (const stop of stops) {
    const sign = stop.carriage === 'from_depot' || stop.carriage === 'pair_delivery' ? -1 : 1;
    weight += sign * stop.demand.weightGrams;
    volume += sign * stop.demand.volumeCm3;
    count += sign * stop.demand.count;
    if (weight > peakWeight) peakWeight = weight;
    if (volume > peakVolume) peakVolume = volume;
    if (count > peakCount) peakCount = count;
  }
  return { weightGrams: peakWeight, volumeCm3: peakVolume, count: peakCount };
}

function pickupsAfterDeliveries(stops: readonly StopToTime[]): Violation[] {
  const deliveredAt = new Map<number, number>();
  const violations: Violation[] = [];
  stops.forEach((stop, index) => {
    if (stop.carriage === 'pair_delivery') deliveredAt.set(stop.orderId, index);
    if (stop.carriage === 'pair_pickup' && (deliveredAt.get(stop.orderId) ?? Infinity) < index) {
      violations.push({ kind: 'pickup_after_delivery', orderId: stop.orderId });
    }
  });
  return violations;
}

/** Each order on the route that needs a skill its driver lacks, once (a P2P order has two stops). */
function skillsLacking(stops: readonly StopToTime[], held: readonly string[]): Violation[] {
  const lacking = new Map<number, string[]>();
  for (const stop of stops) {
    const missing = (stop.requiredSkills ?? []).filter((skill) => !held.includes(skill));
    if (missing.length > 0) lacking.set(stop.orderId, missing);
  }
  return [...lacking].map(([orderId, missing]) => ({ kind: 'skills', orderId, missing }));
}

/**
 * The violations an edit brings: those of `after` the route did not break before, or breaks by
 * more (later, heavier, longer) than before. A window that closed before `now` is lost whatever
 * the edit does (the stop is reached at now at the earliest): never one the edit brings.
 */
export function newViolations(
  before: readonly Violation[],
  after: readonly Violation[],
  now = -Infinity,
): Violation[] {
  const was = new Map(before.map((violation) => [violationKey(violation), amountOf(violation)]));
  return after.filter((violation) => {
    if (violation.kind === 'time_window' && violation.window.end < now) return false;
    const previous = was.get(violationKey(violation));
    return previous === undefined || amountOf(violation) > previous;
  });
}

/** Now, as the route's timing knows it: undefined when its times do not depend on the clock. */
export function nowOf(route: RouteToTime): number | undefined {
  return route.started?.resumeNotBefore ?? route.leavesNotBefore;
}

/** What identifies a violation across two timings of one route: the same rule broken at the same place. */
function violationKey(violation: Violation): string {
  switch (violation.kind) {
    case 'time_window':
      return `time_window:${violation.orderId}:${violation.leg}`;
    case 'capacity':
      return `capacity:${violation.dimension}`;
    case 'shift':
      return 'shift';
    case 'pickup_after_delivery':
      return `pickup_after_delivery:${violation.orderId}`;
    case 'skills':
      return `skills:${violation.orderId}`;
  }
}

function amountOf(violation: Violation): number {
  switch (violation.kind) {
    case 'time_window':
      return violation.lateSeconds;
    case 'capacity':
      return violation.over;
    case 'shift':
      return violation.overSeconds;
    case 'pickup_after_delivery':
      return 1;
    case 'skills':
      return violation.missing.length;
  }
}
