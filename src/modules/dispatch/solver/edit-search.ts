/**
 * The searches behind a dispatcher's edits of one route, pure: where an order's stops fit best,
 * and the best order of a route's stops for its vehicle alone. Stops before `firstFree` (done,
 * failed or arrived at) stay where they are.
 */
import {
  newViolations,
  nowOf,
  type RouteToTime,
  type StopToTime,
  type TimedRoute,
  type TravelTimes,
  timeRoute,
  type Violation,
} from './evaluate.ts';

export interface Sequenced {
  stops: StopToTime[];
  timed: TimedRoute;
}

/** Routes up to this many free stops are ordered exactly, by trying every order. */
const EXACT_UP_TO = 7;
/**
 * How much timing (stops timed, summed over the routes tried) the local search of a longer route
 * may do (a few milliseconds): it starts from the order a travel-time-only search found (cheap), so it
 * mostly confirms that order or mends its windows.
 */
const SEARCH_BUDGET = 20_000;

/**
 * The cheapest place for an order's stops: one stop, or a pickup and its delivery (given in that
 * order, the pickup placed first), anywhere after the first `firstFree` stops, or with the first
 * at index `at`. Cheapest: the fewest rules newly broken (a window closed before now is lost
 * anywhere), then the least travel time added.
 */
export function bestInsertion(
  route: RouteToTime,
  travel: TravelTimes,
  legs: readonly StopToTime[],
  firstFree: number,
  at?: number,
): Sequenced {
  const before = timeRoute(route, travel).violations;
  const now = nowOf(route);
  let best: { sequenced: Sequenced; score: number[] } | undefined;
  const consider = (stops: StopToTime[]) => {
    const timed = timeRoute({ ...route, stops }, travel);
    const score = [newViolations(before, timed.violations, now).length, timed.travelSeconds];
    if (!best || lessThan(score, best.score)) best = { sequenced: { stops, timed }, score };
  };
  const base = route.stops;
  for (let i = at ?? firstFree; i <= (at ?? base.length); i++) {
    const withFirst = [...base.slice(0, i), legs[0]!, ...base.slice(i)];
    if (legs.length === 1) {
      consider(withFirst);
      continue;
    }
    for (let j = i + 1; j <= withFirst.length; j++) {
      consider([...withFirst.slice(0, j), legs[1]!, ...withFirst.slice(j)]);
    }
  }
  return best!.sequenced;
}

/**
 * The best order of the route's free stops for its vehicle alone: the fewest rules broken, then
 * the least lateness (at windows and at the shift's end), then the least travel time, then the
 * earliest return. Exact for a few stops; for more, moves of one
 * stop and reversals of a stretch from the current order, while one helps.
 */
export function bestSequence(route: RouteToTime, travel: TravelTimes, firstFree: number): Sequenced {
  const fixed = route.stops.slice(0, firstFree);
  const free = route.stops.slice(firstFree);
  const time = (order: readonly StopToTime[]): Sequenced => {
    const stops = [...fixed, ...order];
    return { stops, timed: timeRoute({ ...route, stops }, travel) };
  };
  const scoreOf = ({ timed }: Sequenced) => [
    timed.violations.length,
    timed.violations.reduce((sum, violation) => sum + lateness(violation), 0),
    timed.travelSeconds,
    timed.returnTime,
  ];
  let best = time(free);
  let bestScore = scoreOf(best);
  const offer = (order: StopToTime[]): boolean => {
    const candidate = time(order);
    const score = scoreOf(candidate);
    if (!lessThan(score, bestScore)) return false;
    best = candidate;
    bestScore = score;
    return true;
  };
  if (free.length <= EXACT_UP_TO) {
    for (const order of permutations(free)) offer(order);
    return best;
  }
  const from = fixed.at(-1)?.point ?? route.depot;
  offer(shortestByTravel(free, travel.seconds, from, route.depot));
  let budget = SEARCH_BUDGET;
  let improved = true;
  while (improved && budget > 0) {
    improved = false;
    const current = best.stops.slice(firstFree);
    for (let i = 0; i < current.length && !improved && budget > 0; i++) {
      for (let j = 0; j < current.length && !improved && budget > 0; j++) {
        if (i === j) continue;
        budget -= 2 * route.stops.length;
        const moved = [...current];
        const [stop] = moved.splice(i, 1);
        moved.splice(j, 0, stop!);
        if (offer(moved)) improved = true;
        else if (j > i + 1) {
          improved = offer([
            ...current.slice(0, i),
            ...current.slice(i, j + 1).reverse(),
            ...current.slice(j + 1),
          ]);
        }
      }
    }
  }
  return best;
}

/**
 * The stops in the order that drives least from `from` back to `to`, by travel time alone:
 * reversals of a stretch (2-opt) and moves of a stretch of one to three stops (or-opt), each
 * judged by its change in O(1), until none helps. Windows, loads and pairs are for the caller to judge.
 */
function shortestByTravel(
  stops: readonly StopToTime[],
  seconds: TravelTimes['seconds'],
  from: number,
  to: number,
): StopToTime[] {
  const order = [...stops];
  const n = order.length;
  // The place before position i (the start for i = 0) and after it (the end for i = n - 1).
  const at = (i: number) => (i < 0 ? from : i >= n ? to : order[i]!.point);
  const leg = (a: number, b: number) => seconds[a]![b]!;
  for (let improved = true, rounds = 0; improved && rounds < 50; rounds++) {
    improved = false;
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        // Reverse order[i..j].
        const delta =
          leg(at(i - 1), at(j)) + leg(at(i), at(j + 1)) - leg(at(i - 1), at(i)) - leg(at(j), at(j + 1));
        if (delta < -1e-9) {
          order.splice(i, j - i + 1, ...order.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
    // Or-opt: move a stretch of one to three stops elsewhere, as it is.
    for (let length = 1; length <= 3; length++) {
      for (let i = 0; i + length <= n; i++) {
        const last = i + length - 1;
        const removed = leg(at(i - 1), at(i)) + leg(at(last), at(last + 1)) - leg(at(i - 1), at(last + 1));
        const stretch = order.splice(i, length);
        const rest = order.length;
        let bestJ = i - 1;
        let bestAdded = removed;
        for (let j = -1; j < rest; j++) {
          const before = j < 0 ? from : order[j]!.point;
          const after = j + 1 >= rest ? to : order[j + 1]!.point;
          const added =
            leg(before, stretch[0]!.point) + leg(stretch.at(-1)!.point, after) - leg(before, after);
          if (added < bestAdded - 1e-9) {
            bestAdded = added;
            bestJ = j;
          }
        }
        order.splice(bestJ + 1, 0, ...stretch);
        if (bestJ !== i - 1) improved = true;
      }
    }
  }
  return order;
}

function lateness(violation: Violation): number {
  if (violation.kind === 'time_window') return violation.lateSeconds;
  return violation.kind === 'shift' ? violation.overSeconds : 0;
}

function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i]!, ...tail];
  }
}

/** Lexicographic comparison of scores. */
function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  }
  return false;
}
