import { createHash } from 'node:crypto';
import { bestInsertion, bestSequence } from './solver/edit-search.ts';
import {
  type LoadDimension,
  newViolations,
  type RouteToTime,
  type StopToTime,
  type TimedRoute,
  type TravelTimes,
  timeRoute,
  type Violation,
} from './solver/evaluate.ts';
import type { Load, Point } from './solver/types.ts';

// Dispatcher suggestions, pure: what the service itself proposes for a day from its observed state,
// judged with the plan edits' own evaluation (timeRoute, bestInsertion, bestSequence). The reads,
// the travel matrices and the words are the caller's (suggestion-reader.ts); docs/dispatch-suggestions.md.

export const SUGGESTION_KINDS = [
  'route_over_capacity',
  'route_late',
  'release_hold',
  'insert_order',
  'idle_driver',
] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

/** Why a suggestion is made: the sentence each code reads as is in suggestion-words.ts. */
export const REASON_CODES = [
  'fits_slack',
  'move_fixes_overload',
  'no_single_move_fixes_overload',
  'resequence_fixes_lateness',
  'move_fixes_lateness',
  'no_single_move_fixes_lateness',
  'address_placed_after_hold',
  'shift_without_route',
  'shift_without_route_nothing_waiting',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** Most suggestions one answer lists, best first (the total counts them all). */
export const MAX_SUGGESTIONS = 200;
/** Routes an unplanned order is tried on (or a moved order offered to): the nearest with room. */
export const NEAREST_ROUTES = 3;
/** Orders of an over-capacity route tried as the one to move, smallest sufficient first. */
const MOVES_TRIED = 3;
/**
 * The minutes at each pending stop the suggestions are timed with: the plan-edit tools' default,
 * which their writes (given no service_minutes) use too.
 */
export const SERVICE_MINUTES = 5;

/** The write a suggestion would make: a write tool of the user agent server, and its arguments. */
export interface SuggestionWrite {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface Suggestion {
  /** Stable: derived from the day, the kind, its subjects and its write (suggestionId). */
  id: string;
  kind: SuggestionKind;
  reason: ReasonCode;
  order_id: number | null;
  route_id: number | null;
  to_route_id: number | null;
  driver_id: number | null;
  added_distance_m: number | null;
  dimension: LoadDimension | null;
  over: number | null;
  late_minutes: number | null;
  late_stops: number | null;
  write: SuggestionWrite | null;
}

/** A route of the day as observed, ready to time: stops in matrix terms over its own matrix. */
export interface ObservedRoute {
  id: number;
  driverId: number;
  /** Its depot and its stops' places: where it is, to find the routes near an order. */
  depot: Point;
  places: Point[];
  route: RouteToTime;
  /** Stops before this index stay where they are (done, failed or arrived at, and those before). */
  firstFree: number;
  /** Its travel matrix: the depot (row 0), its stops, then any order's legs tried on it. */
  travel: TravelTimes;
  /** Each order's legs (pickup first) as rows of `travel`, for the orders tried on this route. */
  legsOf: Map<number, StopToTime[]>;
}

/** What one route's timing says: as observed, and what breaks. */
export interface JudgedRoute {
  observed: ObservedRoute;
  timed: TimedRoute;
  overloads: Array<Extract<Violation, { kind: 'capacity' }>>;
  lateStops: Array<Extract<Violation, { kind: 'time_window' }>>;
}

export function judge(observed: ObservedRoute): JudgedRoute {
  const timed = timeRoute(observed.route, observed.travel);
  return {
    observed,
    timed,
    overloads: timed.violations.filter((v) => v.kind === 'capacity'),
    lateStops: timed.violations.filter((v) => v.kind === 'time_window'),
  };
}

/**
 * The order's legs on the route where they cost least (the plan edits' bestInsertion), when they
 * break no rule the route kept: the distance added, in whole meters. Undefined when it does not fit.
 */
export function fitOf(judged: JudgedRoute, legs: readonly StopToTime[]): { addedMeters: number } | undefined {
  const { observed, timed } = judged;
  const best = bestInsertion(observed.route, observed.travel, legs, observed.firstFree);
  if (newViolations(timed.violations, best.timed.violations).length > 0) return undefined;
  return { addedMeters: Math.round(best.timed.distanceMeters) - Math.round(timed.distanceMeters) };
}

/** Whether the best order of the route's free stops (resequence_route optimize) clears its lateness without breaking a new rule. */
export function resequenceClearsLateness(judged: JudgedRoute): boolean {
  const { observed, timed } = judged;
  const best = bestSequence(observed.route, observed.travel, observed.firstFree);
  return (
    best.timed.violations.every((v) => v.kind !== 'time_window') &&
    newViolations(timed.violations, best.timed.violations).length === 0
  );
}

/** The route timed without one order's stops: what is left of its lateness. */
export function lateSecondsWithout(judged: JudgedRoute, orderId: number): number {
  const { route, travel } = judged.observed;
  const stops = route.stops.filter((stop) => stop.orderId !== orderId);
  return lateSeconds(timeRoute({ ...route, stops }, travel).violations);
}

export function lateSeconds(violations: readonly Violation[]): number {
  return violations.reduce((sum, v) => sum + (v.kind === 'time_window' ? v.lateSeconds : 0), 0);
}

/**
 * The orders of an over-capacity route that one move could relieve: free (every stop of it still
 * movable), carrying at least the overload in every dimension over; the smallest such first.
 */
export function relievingOrders(judged: JudgedRoute): number[] {
  const { route, firstFree } = judged.observed;
  const demand = new Map<number, { load: Load; movable: boolean }>();
  route.stops.forEach((stop, index) => {
    const known = demand.get(stop.orderId);
    // A P2P order's two legs carry the same demand: counted once.
    demand.set(stop.orderId, {
      load: stop.demand,
      movable: (known?.movable ?? true) && index >= firstFree,
    });
  });
  const key = (dimension: LoadDimension): keyof Load =>
    dimension === 'weight_grams' ? 'weightGrams' : dimension === 'volume_cm3' ? 'volumeCm3' : 'count';
  return [...demand]
    .filter(
      ([, { load, movable }]) => movable && judged.overloads.every((o) => load[key(o.dimension)] >= o.over),
    )
    .sort(([a, x], [b, y]) => size(x.load) - size(y.load) || a - b)
    .slice(0, MOVES_TRIED)
    .map(([orderId]) => orderId);
}

const size = (load: Load) => load.weightGrams + load.volumeCm3 + load.count;

/** The routes nearest a place (by the box around each route's depot and stops), nearest first, at most `count`. */
export function nearestRoutes<R extends { id: number; depot: Point; places: Point[] }>(
  routes: readonly R[],
  place: Point,
  count: number,
  admit: (route: R) => boolean = () => true,
): R[] {
  return routes
    .filter(admit)
    .map((route) => ({ route, meters: boxMeters(boxOf(route), place) }))
    .sort((a, b) => a.meters - b.meters || a.route.id - b.route.id)
    .slice(0, count)
    .map(({ route }) => route);
}

interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

const boxes = new WeakMap<object, Box>();

function boxOf(route: { depot: Point; places: Point[] }): Box {
  let box = boxes.get(route);
  if (!box) {
    box = {
      minLat: route.depot.lat,
      maxLat: route.depot.lat,
      minLng: route.depot.lng,
      maxLng: route.depot.lng,
    };
    for (const { lat, lng } of route.places) {
      box.minLat = Math.min(box.minLat, lat);
      box.maxLat = Math.max(box.maxLat, lat);
      box.minLng = Math.min(box.minLng, lng);
      box.maxLng = Math.max(box.maxLng, lng);
    }
    boxes.set(route, box);
  }
  return box;
}

/** Meters from a place to a box (0 inside), on the flat approximation: enough to rank routes. */
function boxMeters(box: Box, { lat, lng }: Point): number {
  const dLat = Math.max(box.minLat - lat, 0, lat - box.maxLat);
  const dLng = Math.max(box.minLng - lng, 0, lng - box.maxLng) * Math.cos((lat * Math.PI) / 180);
  return Math.hypot(dLat, dLng) * 111_195;
}

/**
 * The same day, kind, subjects and write give the same id; anything else another. A kind prefix
 * keeps ids readable in logs.
 */
export function suggestionId(date: string, suggestion: Omit<Suggestion, 'id'>): string {
  const content = JSON.stringify([
    date,
    suggestion.kind,
    suggestion.order_id,
    suggestion.route_id,
    suggestion.to_route_id,
    suggestion.driver_id,
    suggestion.write,
  ]);
  return `${suggestion.kind}-${createHash('sha256').update(content).digest('hex').slice(0, 16)}`;
}

/**
 * Best first: the kinds in SUGGESTION_KINDS order (a route breaking a rule, then orders to serve,
 * then idle drivers); within a kind, one with a write before one without, then the bigger problem
 * (relative overload, minutes late) or the smaller cost (meters added), then by id.
 */
export function byBenefit(a: Suggestion, b: Suggestion): number {
  const kind = SUGGESTION_KINDS.indexOf(a.kind) - SUGGESTION_KINDS.indexOf(b.kind);
  if (kind !== 0) return kind;
  const written = Number(b.write !== null) - Number(a.write !== null);
  if (written !== 0) return written;
  const size = (s: Suggestion) =>
    s.kind === 'route_over_capacity'
      ? -(s.over ?? 0)
      : s.kind === 'route_late'
        ? -(s.late_minutes ?? 0)
        : (s.added_distance_m ?? 0);
  return size(a) - size(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
