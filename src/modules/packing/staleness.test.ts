import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dissolved, type FollowedStop, loadedStops, staleChanges, staleSince } from './staleness.ts';

const delivery = (order_id: number, status: FollowedStop['status'] = 'pending'): FollowedStop => ({
  order_id,
  leg: 'delivery',
  status,
});
const pickup = (order_id: number): FollowedStop => ({ order_id, leg: 'pickup', status: 'pending' });
const FIRST = new Date('2026-11-02T10:00:00Z');
const LATER = new Date('2026-11-02T11:00:00Z');
/** The route the plan was made from: deliveries 1, 2, 3 in that order, a pickup among them. */
const ROUTE = [delivery(1), pickup(9), delivery(2), delivery(3)];
const basis = loadedStops(ROUTE);
const kinds = (changes: ReturnType<typeof staleChanges>) =>
  changes.map((change) => [change.kind, change.order_id, change.planned_stop, change.stop]);

describe('when a load plan no longer holds', () => {
  it('loads the deliveries still to make, unloaded in their order: pickups and deliveries done are off', () => {
    assert.deepEqual(basis, [
      { order_id: 1, stop: 1 },
      { order_id: 2, stop: 2 },
      { order_id: 3, stop: 3 },
    ]);
    assert.deepEqual(loadedStops([delivery(1, 'done'), delivery(2, 'failed'), delivery(3, 'arrived')]), [
      { order_id: 2, stop: 1 },
      { order_id: 3, stop: 2 },
    ]);
  });

  it('holds while the deliveries are as planned, whatever else happens on the route', () => {
    assert.deepEqual(staleChanges(basis, ROUTE, [], FIRST), []);
    // A pickup added, a driver at a door, a failed delivery (its parcels still on board): no change.
    const busier = [pickup(8), delivery(1, 'arrived'), pickup(9), delivery(2, 'failed'), delivery(3)];
    assert.deepEqual(staleChanges(basis, busier, [], FIRST), []);
    assert.equal(staleSince([]), null);
  });

  it('names a delivery added, taken off and completed, and only the deliveries that moved', () => {
    const changed = [delivery(1, 'done'), delivery(4), delivery(3)];
    assert.deepEqual(kinds(staleChanges(basis, changed, [], FIRST)), [
      ['stop_completed', 1, 1, null],
      ['stop_removed', 2, 2, null],
      ['stop_added', 4, null, 1],
    ]);
    // Moving the last delivery first moves that one, not the two it passed.
    assert.deepEqual(kinds(staleChanges(basis, [delivery(3), delivery(1), delivery(2)], [], FIRST)), [
      ['stop_moved', 3, 3, 1],
    ]);
  });

  it('keeps when each change was first seen, and forgets a change undone', () => {
    const added = staleChanges(basis, [...ROUTE, delivery(4)], [], FIRST);
    const more = staleChanges(
      basis,
      [delivery(1, 'done'), pickup(9), delivery(2), delivery(3), delivery(4)],
      added,
      LATER,
    );
    assert.deepEqual(
      more.map((change) => [change.kind, change.order_id, change.at]),
      [
        ['stop_added', 4, FIRST.toISOString()],
        ['stop_completed', 1, LATER.toISOString()],
      ],
    );
    assert.deepEqual(staleSince(more), FIRST);
    assert.deepEqual(staleChanges(basis, ROUTE, more, LATER), [], 'the added delivery taken off again');
  });

  it('says when the route is gone, keeping when that was first seen', () => {
    const gone = dissolved([], FIRST);
    assert.deepEqual(gone, [
      { kind: 'route_dissolved', order_id: null, planned_stop: null, stop: null, at: FIRST.toISOString() },
    ]);
    assert.deepEqual(dissolved(gone, LATER), gone);
  });
});
