import type { StreamEvent } from '../../platform/http/event-stream.ts';
import type { BoardAnswer, BoardRoute, BoardStop } from './board.ts';

// What changed between two answers of one board, as the small messages a live board sends: each
// sets the state of one thing (a route, a stop, a position, an exception, the totals), so applying
// one twice, or one already in a snapshot, changes nothing.

/** The board's first message on a stream: the whole answer, as get_dispatch_board gives it. */
export function snapshotEvent(answer: BoardAnswer): StreamEvent {
  return { event: 'snapshot', id: String(answer.version), data: { result: true, ...answer } };
}

/**
 * The messages that take a client from `before` to `after`:
 * - `route`: a route appeared or its summary changed (with `stops` when it is new or its stops
 *   were added, removed or re-sequenced);
 * - `route_removed`: a route is no longer on the board;
 * - `stop`: a stop's state changed (arrived, done, failed, its order's status);
 * - `position`: the driver of a route reported a newer position;
 * - `exception` / `exception_cleared`: an exception appeared (or changed), or no longer holds;
 * - `totals`: the board's counts changed.
 */
export function deltasBetween(before: BoardAnswer, after: BoardAnswer): StreamEvent[] {
  const id = String(after.version);
  const version = after.version;
  const events: StreamEvent[] = [];
  const push = (event: string, data: Record<string, unknown>) =>
    events.push({ event, id, data: { version, ...data } });
  const old = new Map(before.routes.map((route) => [route.id, route]));
  for (const route of after.routes) {
    const previous = old.get(route.id);
    old.delete(route.id);
    // A route no read touched since keeps its very stops: nothing of them to compare.
    const sameStops = previous?.stops === route.stops;
    if (!previous || (!sameStops && !sameLayout(previous.stops, route.stops))) {
      push('route', { route });
      continue;
    }
    if (JSON.stringify(summaryOf(previous)) !== JSON.stringify(summaryOf(route))) {
      push('route', { route: summaryOf(route) });
    }
    if (!sameStops)
      route.stops.forEach((stop, index) => {
        if (JSON.stringify(stop) !== JSON.stringify(previous.stops[index]))
          push('stop', { route_id: route.id, stop });
      });
    if (route.position && !samePosition(previous.position, route.position)) {
      push('position', { route_id: route.id, driver_id: route.driver.id, position: route.position });
    }
  }
  for (const gone of old.keys()) push('route_removed', { route_id: gone });
  const held = new Map(before.exceptions.map((exception) => [exception.key, exception]));
  for (const exception of after.exceptions) {
    const previous = held.get(exception.key);
    held.delete(exception.key);
    if (!previous || JSON.stringify(previous) !== JSON.stringify(exception)) push('exception', { exception });
  }
  for (const [key, exception] of held) push('exception_cleared', { key, kind: exception.kind });
  if (JSON.stringify(before.totals) !== JSON.stringify(after.totals))
    push('totals', { totals: after.totals });
  return events;
}

/** The route without its stops and position: what a `route` message carries when only that changed. */
function summaryOf(route: BoardRoute) {
  const { stops: _stops, position: _position, ...summary } = route;
  return summary;
}

/** The same stops in the same order, with the same windows and places (only their states may differ). */
function sameLayout(a: readonly BoardStop[], b: readonly BoardStop[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((stop, index) => {
    const other = b[index]!;
    return (
      stop.order_id === other.order_id &&
      stop.leg === other.leg &&
      stop.sequence === other.sequence &&
      JSON.stringify([stop.window, stop.kind, stop.lat, stop.lng]) ===
        JSON.stringify([other.window, other.kind, other.lat, other.lng])
    );
  });
}

function samePosition(a: BoardRoute['position'], b: NonNullable<BoardRoute['position']>): boolean {
  return a !== null && a.at === b.at && a.lat === b.lat && a.lng === b.lng && a.route_id === b.route_id;
}
