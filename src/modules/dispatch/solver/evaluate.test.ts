import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bestInsertion, bestSequence } from './edit-search.ts';
import { newViolations, type RouteToTime, type StopToTime, type TravelTimes, timeRoute } from './evaluate.ts';

// Places on a line, 600 s (and 6 km) apart from one to the next: 0 is the depot.
const line = (count: number): TravelTimes => {
  const at = Array.from({ length: count }, (_, i) => i);
  return {
    seconds: at.map((a) => at.map((b) => Math.abs(a - b) * 600)),
    meters: at.map((a) => at.map((b) => Math.abs(a - b) * 6000)),
  };
};
const TRAVEL = line(6);
const HOUR = 3600;
const NONE = { weightGrams: 0, volumeCm3: 0, count: 0 };
const parcel = (count = 1) => ({ weightGrams: 1000 * count, volumeCm3: 100 * count, count });

const delivery = (orderId: number, point: number, extra: Partial<StopToTime> = {}): StopToTime => ({
  orderId,
  leg: 'delivery',
  point,
  serviceSeconds: 300,
  demand: parcel(),
  carriage: 'from_depot',
  ...extra,
});
const route = (stops: StopToTime[], extra: Partial<RouteToTime> = {}): RouteToTime => ({
  depot: 0,
  shift: { start: 8 * HOUR, end: 18 * HOUR },
  capacity: { weightGrams: 10_000, volumeCm3: 10_000, count: 10 },
  skills: [],
  stops,
  ...extra,
});

describe('timing a route', () => {
  it('drives, serves and returns: times, distance and the load on board at the start', () => {
    const timed = timeRoute(route([delivery(1, 1), delivery(2, 2)]), TRAVEL);
    assert.equal(timed.departure, 8 * HOUR);
    assert.deepEqual(timed.stops, [
      { arrival: 8 * HOUR + 600, start: 8 * HOUR + 600, departure: 8 * HOUR + 900 },
      { arrival: 8 * HOUR + 1500, start: 8 * HOUR + 1500, departure: 8 * HOUR + 1800 },
    ]);
    assert.equal(timed.returnTime, 8 * HOUR + 1800 + 1200);
    assert.equal(timed.distanceMeters, 24_000);
    assert.equal(timed.travelSeconds, 2400);
    assert.deepEqual(timed.load, parcel(2));
    assert.deepEqual(timed.violations, []);
  });

  it('leaves late rather than wait at a first door whose window opens later, and waits at a later one', () => {
    const timed = timeRoute(
      route([
        delivery(1, 1, { window: { start: 10 * HOUR, end: 11 * HOUR } }),
        delivery(2, 2, { window: { start: 12 * HOUR, end: 13 * HOUR } }),
      ]),
      TRAVEL,
    );
    assert.equal(timed.departure, 10 * HOUR - 600);
    assert.equal(timed.stops[0]!.arrival, 10 * HOUR);
    assert.equal(timed.stops[1]!.arrival, 10 * HOUR + 900, 'arrives early');
    assert.equal(timed.stops[1]!.start, 12 * HOUR, 'waits for the window');
    assert.equal(timed.stops[1]!.departure, 12 * HOUR + 300);
    assert.deepEqual(timed.violations, []);
  });

  it('reports a window missed, with the stop and by how much', () => {
    const timed = timeRoute(
      route([delivery(1, 3), delivery(2, 1, { window: { start: 8 * HOUR, end: 8 * HOUR + 1800 } })]),
      TRAVEL,
    );
    // 08:00 + 1800 to the third place + 300 there + 1200 back to the first = 08:55.
    assert.deepEqual(timed.violations, [
      {
        kind: 'time_window',
        orderId: 2,
        leg: 'delivery',
        window: { start: 8 * HOUR, end: 8 * HOUR + 1800 },
        arrival: 8 * HOUR + 3300,
        lateSeconds: 1500,
      },
    ]);
  });

  it('reports each capacity dimension exceeded at its peak', () => {
    const timed = timeRoute(
      route([delivery(1, 1, { demand: parcel(4) }), delivery(2, 2, { demand: parcel(3) })], {
        capacity: { weightGrams: 100_000, volumeCm3: 500, count: 5 },
      }),
      TRAVEL,
    );
    assert.deepEqual(timed.violations, [
      { kind: 'capacity', dimension: 'volume_cm3', load: 700, capacity: 500, over: 200 },
      { kind: 'capacity', dimension: 'count', load: 7, capacity: 5, over: 2 },
    ]);
  });

  it("reports a return after the driver's shift", () => {
    const timed = timeRoute(
      route([delivery(1, 5)], { shift: { start: 8 * HOUR, end: 8 * HOUR + 3600 } }),
      TRAVEL,
    );
    assert.deepEqual(timed.violations, [
      { kind: 'shift', shiftEnd: 9 * HOUR, returnTime: 8 * HOUR + 6300, overSeconds: 2700 },
    ]);
  });

  it('carries a P2P order between its legs only, and reports its pickup after its delivery', () => {
    const pickup = delivery(7, 1, { leg: 'pickup', carriage: 'pair_pickup', demand: parcel(5) });
    const drop = delivery(7, 2, { carriage: 'pair_delivery', demand: parcel(5) });
    const tight = { weightGrams: 100_000, volumeCm3: 100_000, count: 5 };
    const inOrder = timeRoute(route([delivery(1, 3), pickup, drop], { capacity: tight }), TRAVEL);
    assert.deepEqual(inOrder.load, { weightGrams: 5000, volumeCm3: 500, count: 5 });
    assert.deepEqual(inOrder.violations, []);
    const reversed = timeRoute(route([drop, pickup], { capacity: tight }), TRAVEL);
    assert.deepEqual(reversed.violations, [{ kind: 'pickup_after_delivery', orderId: 7 }]);
  });

  it('reports an order needing a skill its driver lacks, once for both legs of a P2P order', () => {
    const chilled = { requiredSkills: ['refrigerated', 'fragile'] };
    const pickup = delivery(7, 1, { leg: 'pickup', carriage: 'pair_pickup', ...chilled });
    const drop = delivery(7, 2, { carriage: 'pair_delivery', ...chilled });
    const stops = [delivery(1, 3, { requiredSkills: ['fragile'] }), pickup, drop];
    assert.deepEqual(timeRoute(route(stops, { skills: ['fragile', 'refrigerated'] }), TRAVEL).violations, []);
    assert.deepEqual(timeRoute(route(stops, { skills: ['fragile'] }), TRAVEL).violations, [
      { kind: 'skills', orderId: 7, missing: ['refrigerated'] },
    ]);
  });

  it('keeps the times of stops already done and goes on no earlier than now on a route under way', () => {
    const timed = timeRoute(
      route(
        [
          delivery(1, 1, { fixed: { arrival: 8 * HOUR + 700, departure: 8 * HOUR + 1000 } }),
          delivery(2, 2, { window: { start: 8 * HOUR, end: 9 * HOUR } }),
        ],
        { started: { departure: 8 * HOUR, resumeNotBefore: 9 * HOUR } },
      ),
      TRAVEL,
    );
    assert.equal(timed.departure, 8 * HOUR);
    assert.equal(timed.stops[0]!.arrival, 8 * HOUR + 700);
    assert.equal(timed.stops[1]!.arrival, 9 * HOUR + 600);
    assert.equal(timed.violations[0]!.kind, 'time_window');
  });

  it('counts as new a violation the route did not have, or has worse', () => {
    const late = (lateSeconds: number) => ({
      kind: 'time_window' as const,
      orderId: 1,
      leg: 'delivery' as const,
      window: { start: 0, end: 1 },
      arrival: 1 + lateSeconds,
      lateSeconds,
    });
    assert.deepEqual(newViolations([late(60)], [late(60)]), []);
    assert.deepEqual(newViolations([late(60)], [late(120)]), [late(120)]);
    assert.deepEqual(newViolations([], [{ kind: 'pickup_after_delivery', orderId: 2 }]).length, 1);
  });

  it('never counts as new a window that closed before now: it is lost whatever the edit does', () => {
    const late = (end: number) => ({
      kind: 'time_window' as const,
      orderId: 1,
      leg: 'delivery' as const,
      window: { start: 0, end },
      arrival: 15 * HOUR,
      lateSeconds: 15 * HOUR - end,
    });
    assert.deepEqual(newViolations([], [late(10 * HOUR)], 14 * HOUR), []);
    assert.deepEqual(newViolations([], [late(14.5 * HOUR)], 14 * HOUR), [late(14.5 * HOUR)]);
  });

  it('leaves the depot no earlier than now when a route not under way is timed late in its day', () => {
    const stops = [delivery(1, 1, { window: { start: 9 * HOUR, end: 10 * HOUR } }), delivery(2, 2)];
    const timed = timeRoute(route(stops, { leavesNotBefore: 14 * HOUR + 50 * 60 }), TRAVEL);
    assert.equal(timed.departure, 14 * HOUR + 50 * 60);
    assert.equal(timed.stops[0]!.arrival, 14 * HOUR + 50 * 60 + 600);
    assert.equal(timed.stops[1]!.arrival, 14 * HOUR + 50 * 60 + 1500);
    assert.deepEqual(
      timed.violations.map((v) => v.kind),
      ['time_window'],
    );
    const early = timeRoute(route(stops, { leavesNotBefore: 7 * HOUR }), TRAVEL);
    assert.equal(early.departure, 9 * HOUR - 600, 'before its planned departure, as planned');
  });

  it('goes on from where the driver of a route under way was, at now, the path driven unchanged', () => {
    const stops = [
      delivery(1, 1, { fixed: { arrival: 8 * HOUR + 600, departure: 8 * HOUR + 900 } }),
      delivery(2, 4),
      delivery(3, 5),
    ];
    const fromStop = timeRoute(
      route(stops, { started: { departure: 8 * HOUR, resumeNotBefore: 14 * HOUR } }),
      TRAVEL,
    );
    assert.equal(fromStop.stops[1]!.arrival, 14 * HOUR + 1800, 'from the stop done, three places away');
    const fromPosition = timeRoute(
      route(stops, {
        started: { departure: 8 * HOUR, resumeNotBefore: 14 * HOUR, from: { point: 3, at: 13 * HOUR } },
      }),
      TRAVEL,
    );
    assert.equal(fromPosition.stops[0]!.arrival, 8 * HOUR + 600, 'the stop done keeps its time');
    assert.equal(fromPosition.stops[1]!.arrival, 14 * HOUR + 600, 'from the position, one place away');
    assert.equal(fromPosition.stops[2]!.arrival, 14 * HOUR + 600 + 300 + 600);
    assert.equal(fromPosition.distanceMeters, fromStop.distanceMeters);
    const allKept = timeRoute(
      route([stops[0]!], {
        started: { departure: 8 * HOUR, resumeNotBefore: 14 * HOUR, from: { point: 2, at: 13 * HOUR } },
      }),
      TRAVEL,
    );
    assert.equal(allKept.returnTime, 14 * HOUR + 1200, 'back to the depot from where the driver is');
  });
});

describe('searching an edited route', () => {
  it('inserts a stop where it adds the least travel, after the stops already done', () => {
    const base = route([delivery(1, 1), delivery(2, 3)]);
    const best = bestInsertion(base, TRAVEL, [delivery(9, 2)], 0);
    assert.deepEqual(
      best.stops.map((stop) => stop.orderId),
      [1, 9, 2],
    );
    const afterDone = bestInsertion(
      route([delivery(1, 3, { fixed: { arrival: 1, departure: 2 } }), delivery(2, 1)]),
      TRAVEL,
      [delivery(9, 2)],
      1,
    );
    assert.equal(afterDone.stops[0]!.orderId, 1);
  });

  it("places a P2P order's pickup before its delivery, and at a given place when told", () => {
    const legs = [
      delivery(9, 2, { leg: 'pickup', carriage: 'pair_pickup', demand: NONE }),
      delivery(9, 4, { carriage: 'pair_delivery', demand: NONE }),
    ];
    const best = bestInsertion(route([delivery(1, 1), delivery(2, 3), delivery(3, 5)]), TRAVEL, legs, 0);
    assert.deepEqual(
      best.stops.map((stop) => `${stop.orderId}${stop.leg[0]}`),
      ['1d', '9p', '2d', '9d', '3d'],
    );
    const given = bestInsertion(route([delivery(1, 1), delivery(2, 3)]), TRAVEL, [delivery(9, 5)], 0, 0);
    assert.equal(given.stops[0]!.orderId, 9);
  });

  it('orders a route for the least driving without breaking its windows', () => {
    // The farthest door closes first: out to it, then back along the others.
    const scrambled = route([
      delivery(2, 2),
      delivery(1, 1),
      delivery(4, 4, { window: { start: 8 * HOUR, end: 8 * HOUR + 2400 } }),
      delivery(3, 3),
    ]);
    const best = bestSequence(scrambled, TRAVEL, 0);
    assert.deepEqual(
      best.stops.map((stop) => stop.orderId),
      [4, 3, 2, 1],
    );
    assert.deepEqual(best.timed.violations, []);
  });

  it('improves a longer route by moves and reversals, keeping the stops done first', () => {
    const travel = line(12);
    const stops = [5, 9, 2, 11, 7, 1, 10, 3, 8, 4, 6].map((point) => delivery(point, point));
    stops[0] = { ...stops[0]!, fixed: { arrival: 8 * HOUR + 3000, departure: 8 * HOUR + 3300 } };
    const before = timeRoute(route(stops), travel).travelSeconds;
    const best = bestSequence(route(stops), travel, 1);
    assert.equal(best.stops[0]!.orderId, 5);
    assert.equal(best.stops.length, 11);
    assert.ok(best.timed.travelSeconds < before);
    // From 5: one way to the end and back the other way, the shortest tour on a line.
    assert.equal(best.timed.travelSeconds, 22 * 600);
  });
});
