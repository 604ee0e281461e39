import { formatLocalDateTime } from '../../platform/clock.ts';
import type * as edits from './edits-repository.ts';
import { seconds } from './order-legs.ts';
import { type PlanStop, toTime, type WireViolation, wire } from './plan-stops.ts';
import type { RoadNetwork, StraightLineSettings } from './roads.ts';
import { pointKey } from './solver/distance.ts';
import { newViolations, nowOf, type RouteToTime, type TimedRoute } from './solver/evaluate.ts';
import { DAY_SECONDS, resumeOf } from './solver/resume.ts';
import type { Load, Point, TimeWindow } from './solver/types.ts';

// How a route under edit is timed: its travel matrix, where and when its pending stops go on from
// (solver/resume.ts), and which of the windows it misses an edit brings and which were lost already.

/** A route with the driver it is timed for. */
export type DrivenRoute = edits.LockedRoute & { driver_user_id: number };

/** A route with what its timing depends on: its depot, its driver's shift, its capacity, its stops, its day. */
export interface RoutePlan {
  row: DrivenRoute;
  /** The route's own depot; one without (an instant rider's route) takes its driver's. */
  depotId: number;
  depot: Point;
  shift: TimeWindow;
  capacity: Load;
  /** The skills its driver holds. */
  skills: readonly string[];
  stops: PlanStop[];
  /** Stops before this index stay where they are: the last one done, failed or arrived at, and those before it. */
  firstFree: number;
  /** The business's stand-in for roads where no routing engine answers, as planning uses it. */
  straightLine: StraightLineSettings;
  /** Where its day stands as the edit reads it. */
  day: RouteDay;
}

/** Now on a route's day, and the driver's last reported position on it. */
export interface RouteDay {
  /** Seconds since the route day's midnight: 0 before the day, DAY_SECONDS after it. */
  now: number;
  /** The business's time zone: the phone's recorded times are read on the route's day in it. */
  timeZone: string;
  /** The driver's last reported position on this route, and when (seconds of the route's day). */
  position?: { location: Point; at: number };
}

/** An instant as seconds since the midnight of `date` in `timeZone`: 0 before that day, DAY_SECONDS after it. */
export function secondsOnDay(at: Date, date: string, timeZone: string): number {
  const local = formatLocalDateTime(at, timeZone);
  if (local.slice(0, 10) < date) return 0;
  if (local.slice(0, 10) > date) return DAY_SECONDS;
  return seconds(local.slice(11));
}

/**
 * The travel matrix of the route's depot, these stops and the driver's last position, the route
 * as the timing reads it (re-timed from now: solver/resume.ts), and each timed stop's own.
 */
export async function timing(
  roads: RoadNetwork,
  plan: RoutePlan,
  stops: readonly PlanStop[],
  serviceMinutes: number,
) {
  const points: Point[] = [plan.depot];
  const index = new Map<string, number>([[pointKey(plan.depot), 0]]);
  const pointOf = (point: Point) => {
    if (!index.has(pointKey(point))) {
      index.set(pointKey(point), points.length);
      points.push(point);
    }
    return index.get(pointKey(point))!;
  };
  const timed = stops.map((stop) => toTime(stop, pointOf(stop.location), serviceMinutes));
  const { row, day } = plan;
  const kept = stops[plan.firstFree - 1];
  const onDay = (at: Date | null) => (at === null ? null : secondsOnDay(at, row.route_date, day.timeZone));
  const resume = resumeOf({
    status: row.status,
    now: day.now,
    departure: seconds(row.departure),
    depot: 0,
    lastKept:
      kept && kept.status !== 'pending'
        ? {
            point: timed[plan.firstFree - 1]!.point,
            status: kept.status,
            arrivedAt: onDay(kept.arrivedAt),
            completedAt: onDay(kept.completedAt),
            planned: kept.planned ?? { arrival: day.now, departure: day.now },
            serviceSeconds: serviceMinutes * 60,
          }
        : undefined,
    position: day.position && { point: pointOf(day.position.location), at: day.position.at },
  });
  const travel = await roads.matrix({
    businessId: row.business_id,
    date: row.route_date,
    points,
    straightLine: plan.straightLine,
  });
  const route: RouteToTime = {
    depot: 0,
    shift: plan.shift,
    capacity: plan.capacity,
    skills: plan.skills,
    stops: timed,
    ...resume,
  };
  const planStopOf = new Map(timed.map((stop, at) => [stop, stops[at]!]));
  return { travel, route, planStopOf };
}

/**
 * What an edit of one route did to its rules, both timings from now: the violations it brings
 * (new, or worse than the route as read had them) and the windows the route had lost already and
 * still misses (no later than before, or closed before now: lost whatever the edit does).
 */
export function editOutcome(
  routeId: number,
  before: TimedRoute,
  after: { route: RouteToTime; timed: TimedRoute },
): { brought: WireViolation[]; lostWindows: WireViolation[] } {
  const brought = newViolations(before.violations, after.timed.violations, nowOf(after.route));
  const lost = after.timed.violations.filter(
    (violation) => violation.kind === 'time_window' && !brought.includes(violation),
  );
  return {
    brought: brought.map((violation) => wire(routeId, violation)),
    lostWindows: lost.map((violation) => wire(routeId, violation)),
  };
}
