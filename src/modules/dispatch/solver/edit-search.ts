/**
 * The searches behind a dispatcher's edits of one route, pure: where an order's stops fit best,
 * and the best order of a route's stops for its vehicle alone. Stops before `firstFree` (done,
 * failed or arrived at) stay where they are.
 */
import {
  newViolations,
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
/** How many timings the local search of a longer route may try. */
const SEARCH_BUDGET = 200_000;

/**
 * The cheapest place for an order's stops: one stop, or a pickup and its delivery (given in that
 * order, the pickup placed first), anywhere after the first `firstFree` stops, or with the first
 * at index `at`. Cheapest: the fewest rules newly broken, then the least travel time added.
 */
export function bestInsertion(
  route: RouteToTime,
  travel: TravelTimes,
  legs: readonly StopToTime[],
  firstFree: number,
  at?: number,
): Sequenced {
  const before = timeRoute(route, travel).violations;
  let best: { sequenced: Sequenced; score: number[] } | undefined;
  const consider = (stops: StopToTime[]) => {
    const timed = timeRoute({ ...route, stops }, travel);
    const score = [newViolations(before, timed.violations).length, timed.travelSeconds];
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
  let budget = SEARCH_BUDGET;
  let improved = true;
  while (improved && budget > 0) {
    improved = false;
    const current = best.stops.slice(firstFree);
    for (let i = 0; i < current.length && !improved && budget > 0; i++) {
      for (let j = 0; j < current.length && !improved && budget > 0; j++) {
        if (i === j) continue;
        budget -= 2;
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
