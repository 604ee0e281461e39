import type { PlannedStop, StaleChange } from './tables.ts';

// When a route's load plan no longer holds (docs/loading.md, "When the route changes"): a plan
// loads the route's deliveries still to make, unloaded in their order on the route. What differs
// on the route from that is listed, each change with when it was first seen.

/** A stop of a route as dispatch answers it: what a load plan follows of it. */
export interface FollowedStop {
  order_id: number;
  leg: 'pickup' | 'delivery';
  status: 'pending' | 'arrived' | 'done' | 'failed';
}

/**
 * The deliveries whose packages are on board, in the order they are unloaded (stop 1 first):
 * every delivery leg not done yet. A pickup's goods are not loaded at the depot; a delivery done
 * has left the vehicle; a failed one is still on board.
 */
export function loadedStops(stops: readonly FollowedStop[]): PlannedStop[] {
  return stops
    .filter((stop) => stop.leg !== 'pickup' && stop.status !== 'done')
    .map((stop, at) => ({ order_id: stop.order_id, stop: at + 1 }));
}

/**
 * What differs on the route (`stops`, as it is now) from what the plan loaded (`basis`): a
 * delivery added, taken off, completed, or moved (off the longest run of the plan's deliveries
 * still in the plan's order). A change already listed (`before`) keeps when it was first seen;
 * a new one is seen `now`. Empty when the plan holds, even if the route changed and changed back.
 */
export function staleChanges(
  basis: readonly PlannedStop[],
  stops: readonly FollowedStop[],
  before: readonly StaleChange[],
  now: Date,
): StaleChange[] {
  const loaded = loadedStops(stops);
  const stopNow = new Map(loaded.map((stop) => [stop.order_id, stop.stop]));
  const planned = new Set(basis.map((stop) => stop.order_id));
  const done = new Set(
    stops.filter((stop) => stop.leg !== 'pickup' && stop.status === 'done').map((stop) => stop.order_id),
  );
  const found: Array<Omit<StaleChange, 'at'>> = [];
  for (const { order_id, stop } of basis) {
    if (stopNow.has(order_id)) continue;
    const kind = done.has(order_id) ? 'stop_completed' : 'stop_removed';
    found.push({ kind, order_id, planned_stop: stop, stop: null });
  }
  for (const { order_id, stop } of loaded) {
    if (!planned.has(order_id)) found.push({ kind: 'stop_added', order_id, planned_stop: null, stop });
  }
  // A delivery added or completed shifts the others' numbers without moving them: only those no
  // longer in the plan's order among the deliveries both hold have moved.
  const common = basis.filter((stop) => stopNow.has(stop.order_id));
  const inOrder = longestIncreasing(common.map((stop) => stopNow.get(stop.order_id)!));
  common.forEach((stop, at) => {
    if (inOrder.has(at)) return;
    const now = stopNow.get(stop.order_id)!;
    found.push({ kind: 'stop_moved', order_id: stop.order_id, planned_stop: stop.stop, stop: now });
  });
  const seen = new Map(before.map((change) => [keyOf(change), change.at]));
  const at = now.toISOString();
  return found
    .map((change) => ({ ...change, at: seen.get(keyOf(change)) ?? at }))
    .sort((a, b) => a.at.localeCompare(b.at));
}

/** The route the plan was made for is gone: a rebuild dissolved it. */
export function dissolved(before: readonly StaleChange[], now: Date): StaleChange[] {
  const change = { kind: 'route_dissolved' as const, order_id: null, planned_stop: null, stop: null };
  return [{ ...change, at: before.find((one) => one.kind === change.kind)?.at ?? now.toISOString() }];
}

/** When a plan went stale: its earliest change still listed; null while it holds. */
export function staleSince(changes: readonly StaleChange[]): Date | null {
  return changes.length === 0 ? null : new Date(changes[0]!.at);
}

const keyOf = (change: Omit<StaleChange, 'at'>) => `${change.kind}:${change.order_id}`;

/** The positions of one longest strictly increasing run of `values` (quadratic: a route's deliveries). */
function longestIncreasing(values: readonly number[]): Set<number> {
  const length = values.map(() => 1);
  const previous = values.map(() => -1);
  for (let at = 0; at < values.length; at++) {
    for (let before = 0; before < at; before++) {
      if (values[before]! < values[at]! && length[before]! + 1 > length[at]!) {
        length[at] = length[before]! + 1;
        previous[at] = before;
      }
    }
  }
  const kept = new Set<number>();
  let at = length.indexOf(Math.max(0, ...length));
  while (at >= 0) {
    kept.add(at);
    at = previous[at]!;
  }
  return kept;
}
