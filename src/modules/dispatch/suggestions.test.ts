import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { straightLineMatrix } from './roads.ts';
import type { StopToTime } from './solver/evaluate.ts';
import type { Point } from './solver/types.ts';
import {
  byBenefit,
  fitOf,
  judge,
  lateSecondsWithout,
  nearestRoutes,
  type ObservedRoute,
  relievingOrders,
  resequenceClearsLateness,
  type Suggestion,
  suggestionId,
} from './suggestions.ts';

const DEPOT = { lat: 48.85, lng: 2.35 };
const SETTINGS = { circuity: 1.3, speedMetersPerSecond: 30 / 3.6 };
const north = (km: number, eastKm = 0): Point => ({
  lat: DEPOT.lat + km / 111.2,
  lng: DEPOT.lng + eastKm / 73.2,
});

/** A route from the depot to these places in this order, with these extra orders' legs in its matrix. */
function routeOf(
  places: Array<{ at: Point; window?: { start: number; end: number }; count?: number }>,
  options: {
    capacity?: number;
    extra?: Array<{ id: number; at: Point; window?: { start: number; end: number } }>;
  } = {},
): ObservedRoute {
  const points = [DEPOT, ...places.map((place) => place.at), ...(options.extra ?? []).map((e) => e.at)];
  const stop = (
    orderId: number,
    point: number,
    count: number,
    window?: { start: number; end: number },
  ): StopToTime => ({
    orderId,
    leg: 'delivery',
    point,
    serviceSeconds: 300,
    window,
    demand: { weightGrams: 0, volumeCm3: 0, count },
    carriage: 'from_depot',
  });
  const legsOf = new Map(
    (options.extra ?? []).map((e, at) => [e.id, [stop(e.id, 1 + places.length + at, 1, e.window)]]),
  );
  return {
    id: 1,
    driverId: 1,
    depot: DEPOT,
    places: places.map((place) => place.at),
    firstFree: 0,
    route: {
      depot: 0,
      shift: { start: 8 * 3600, end: 18 * 3600 },
      capacity: { weightGrams: 1_000_000, volumeCm3: 1_000_000, count: options.capacity ?? 50 },
      skills: [],
      stops: places.map((place, at) => stop(100 + at, 1 + at, place.count ?? 1, place.window)),
    },
    travel: straightLineMatrix(points, SETTINGS),
    legsOf,
  };
}

const blank = (kind: Suggestion['kind'], extra: Partial<Suggestion> = {}): Omit<Suggestion, 'id'> => ({
  kind,
  reason: 'fits_slack',
  order_id: null,
  route_id: null,
  to_route_id: null,
  driver_id: null,
  added_distance_m: null,
  dimension: null,
  over: null,
  late_minutes: null,
  late_stops: null,
  write: null,
  ...extra,
});

describe('dispatcher suggestions, pure', () => {
  it('fits an order on the way at no added distance, one off the way at the detour, and refuses one that breaks a window', () => {
    const observed = routeOf([{ at: north(1) }, { at: north(3) }], {
      extra: [
        { id: 7, at: north(2) },
        { id: 8, at: north(2, 1) },
        { id: 9, at: north(40), window: { start: 8 * 3600, end: 8 * 3600 + 600 } },
      ],
    });
    const judged = judge(observed);
    assert.equal(fitOf(judged, observed.legsOf.get(7)!)?.addedMeters, 0);
    const detour = fitOf(judged, observed.legsOf.get(8)!)!.addedMeters;
    // Best on the way back: from the far stop by it to the depot, √2 + √5 km instead of 3, by the circuity of 1.3.
    const expected = 1.3 * (Math.SQRT2 + Math.sqrt(5) - 3) * 1000;
    assert.ok(Math.abs(detour - expected) < 15, JSON.stringify({ detour, expected }));
    assert.equal(fitOf(judged, observed.legsOf.get(9)!), undefined);
  });

  it('names the smallest orders that relieve an overload alone, and none when no one order carries enough', () => {
    const over = judge(
      routeOf(
        [
          { at: north(1), count: 3 },
          { at: north(2), count: 1 },
          { at: north(3), count: 2 },
        ],
        { capacity: 5 },
      ),
    );
    assert.deepEqual(
      over.overloads.map((o) => o.over),
      [1],
    );
    assert.deepEqual(relievingOrders(over), [101, 102, 100]);
    const far = judge(
      routeOf(
        [
          { at: north(1), count: 1 },
          { at: north(2), count: 1 },
          { at: north(3), count: 1 },
        ],
        { capacity: 1 },
      ),
    );
    assert.deepEqual(relievingOrders(far), []);
  });

  it('sees when a new order of the stops, or one order leaving, clears a route’s lateness', () => {
    // The far stop wants to be first; the near ones have all day.
    const late = judge(
      routeOf([
        { at: north(1) },
        { at: north(2) },
        { at: north(6), window: { start: 8 * 3600, end: 8 * 3600 + 1200 } },
      ]),
    );
    assert.equal(late.lateStops.length, 1);
    assert.equal(resequenceClearsLateness(late), true);
    assert.equal(lateSecondsWithout(late, 102), 0);
    assert.ok(lateSecondsWithout(late, 100) > 0);
  });

  it('ranks the nearest routes by the box around their depot and stops', () => {
    const routes = [
      { id: 1, depot: DEPOT, places: [north(10)] },
      { id: 2, depot: DEPOT, places: [north(0, 10)] },
      { id: 3, depot: DEPOT, places: [north(-10)] },
    ];
    assert.deepEqual(
      nearestRoutes(routes, north(8, 2), 2).map((route) => route.id),
      [1, 2],
    );
    assert.deepEqual(
      nearestRoutes(routes, north(8, 2), 2, (route) => route.id !== 1).map((route) => route.id),
      [2, 3],
    );
  });

  it('gives the same content the same id, and other content another', () => {
    const insert = blank('insert_order', {
      order_id: 5,
      route_id: 2,
      write: { tool: 'assign_order_to_route', arguments: { route_id: 2, order_id: 5 } },
    });
    const id = suggestionId('2026-11-10', insert);
    assert.match(id, /^insert_order-[0-9a-f]{16}$/);
    assert.equal(suggestionId('2026-11-10', { ...insert, reason: 'fits_slack', added_distance_m: 10 }), id);
    assert.notEqual(suggestionId('2026-11-11', insert), id);
    assert.notEqual(suggestionId('2026-11-10', { ...insert, route_id: 3 }), id);
  });

  it('puts broken routes first, a written fix before none, the bigger problem and the cheaper insert first', () => {
    const all = [
      blank('idle_driver', { driver_id: 1 }),
      blank('insert_order', { order_id: 1, added_distance_m: 900, write: { tool: 't', arguments: {} } }),
      blank('insert_order', { order_id: 2, added_distance_m: 100, write: { tool: 't', arguments: {} } }),
      blank('route_late', { route_id: 1, late_minutes: 5 }),
      blank('route_late', { route_id: 2, late_minutes: 50 }),
      blank('route_late', { route_id: 3, late_minutes: 1, write: { tool: 't', arguments: {} } }),
      blank('route_over_capacity', { route_id: 4, over: 2 }),
    ].map((s) => ({ id: suggestionId('d', s), ...s }));
    assert.deepEqual(
      all.sort(byBenefit).map((s) => [s.kind, s.route_id ?? s.order_id ?? s.driver_id]),
      [
        ['route_over_capacity', 4],
        ['route_late', 3],
        ['route_late', 2],
        ['route_late', 1],
        ['insert_order', 2],
        ['insert_order', 1],
        ['idle_driver', 1],
      ],
    );
  });
});
