/**
 * Where and when what is left of a route goes on, pure: what keeps a plan true as its day goes by.
 * Every plan edit times the routes it changes with it, as it reads them and as they become, so a
 * route planned for the morning and still waiting in the afternoon is timed from now, and one
 * under way from where its driver was last seen (docs/dispatch.md, "Re-timing").
 */
import type { RouteToTime } from './evaluate.ts';

/** A whole day in seconds: `now` is this on a day gone by. */
export const DAY_SECONDS = 24 * 3600;

/** What a route's day says of it, in seconds from the midnight of the route's day. */
export interface RouteProgress {
  status: 'planned' | 'started' | 'finished';
  /** Now: 0 before the route's day, DAY_SECONDS after it. */
  now: number;
  /** The departure the route took (a route under way). */
  departure: number;
  /** The depot's row in the travel matrix. */
  depot: number;
  /** The last stop done, failed or arrived at, with the times the driver's phone recorded. */
  lastKept?: {
    point: number;
    status: 'arrived' | 'done' | 'failed';
    arrivedAt: number | null;
    completedAt: number | null;
    planned: { arrival: number; departure: number };
    serviceSeconds: number;
  };
  /** The driver's last reported position on this route, and when. */
  position?: { point: number; at: number };
}

/**
 * How the route's pending stops are timed:
 * - not under way: it leaves its depot at now at the earliest (a day to come: as planned). A day
 *   gone by that it never started keeps its plan: nothing can be driven there any more.
 * - under way: from the driver's last known place, at now at the earliest. That place is the stop
 *   it is at (arrived: it leaves once served there), else its last reported position when no older
 *   than its last stop done or failed, else that stop, else the depot it left.
 */
export function resumeOf(progress: RouteProgress): Pick<RouteToTime, 'started' | 'leavesNotBefore'> {
  const { now, lastKept, position } = progress;
  if (progress.status !== 'started') return now < DAY_SECONDS ? { leavesNotBefore: now } : {};
  const atStop = lastKept?.status === 'arrived';
  let from = lastKept
    ? {
        point: lastKept.point,
        at: atStop
          ? (lastKept.arrivedAt ?? lastKept.planned.arrival) + lastKept.serviceSeconds
          : (lastKept.completedAt ?? lastKept.planned.departure),
      }
    : { point: progress.depot, at: progress.departure };
  if (position && !atStop && position.at >= from.at) from = position;
  return { started: { departure: progress.departure, resumeNotBefore: now, from } };
}
