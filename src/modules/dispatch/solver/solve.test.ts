import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidPlan } from '../../../../test/support/solver-plans.ts';
import { haversineMeters } from './distance.ts';
import { type GeneratedInstance, generateInstance } from './generate.ts';
import { solveRoutes, solveRoutesAsync } from './solve.ts';
import type { Point, SolverOutput, SolverStop, SolverVehicle } from './types.ts';

const SEEDS = [1, 2, 3];
/** Iteration-bound, so results do not depend on the machine; small, to keep the suite fast. */
const ITERATIONS = 2000;
const HOUR = 3600;

interface Solved {
  instance: GeneratedInstance;
  constructed: SolverOutput;
  improved: SolverOutput;
}
const solvedInstances = new Map<number, Solved>();
/** Each seed's instance, solved with and without local search, once for all the tests below. */
function solved(seed: number): Solved {
  let entry = solvedInstances.get(seed);
  if (!entry) {
    const instance = generateInstance({ stops: 200, vehicles: 10, seed });
    entry = {
      instance,
      constructed: solveRoutes({ ...instance, localSearch: false }),
      improved: solveRoutes({ ...instance, maxIterations: ITERATIONS }),
    };
    solvedInstances.set(seed, entry);
  }
  return entry;
}

describe('solveRoutes on generated city days (200 stops, 10 vehicles)', () => {
  for (const seed of SEEDS) {
    it(`plans only drivable routes (seed ${seed})`, () => {
      const { instance, constructed, improved } = solved(seed);
      assertValidPlan(instance, constructed);
      assertValidPlan(instance, improved);
    });
  }

  it('assigns every feasible order: only the deliberately infeasible stops are left, with their reasons', () => {
    for (const seed of SEEDS) {
      const { instance, improved } = solved(seed);
      const byId = (a: { stopId: number }, b: { stopId: number }): number => a.stopId - b.stopId;
      assert.ok(instance.infeasible.length >= 3, 'the generator plants infeasible stops');
      assert.deepEqual(
        new Set(instance.infeasible.map(({ reason }) => reason)),
        new Set(['capacity', 'skills', 'time_window']),
      );
      assert.deepEqual(
        [...improved.unassigned].sort(byId),
        [...instance.infeasible].sort(byId),
        `seed ${seed}`,
      );
    }
  });

  it('shortens the construction with the search, never lengthening it', () => {
    const gains = SEEDS.map((seed) => {
      const { constructed, improved } = solved(seed);
      assert.ok(improved.totals.assigned >= constructed.totals.assigned, `seed ${seed} lost stops`);
      assert.ok(
        improved.totals.distanceMeters <= constructed.totals.distanceMeters,
        `seed ${seed} got longer`,
      );
      return constructed.totals.distanceMeters - improved.totals.distanceMeters;
    });
    assert.ok(
      gains.some((gain) => gain > 1000),
      `the search saved no kilometre anywhere: ${gains.join(', ')} m`,
    );
  });

  it('keeps routes valid and fits in left-out stops when short shifts, not capacity, bind', () => {
    const instance = generateInstance({ stops: 200, vehicles: 10, seed: 2 });
    for (const vehicle of instance.vehicles) vehicle.shift = { start: 8 * HOUR, end: 11 * HOUR };
    const constructed = solveRoutes({ ...instance, localSearch: false });
    const improved = solveRoutes({ ...instance, maxIterations: ITERATIONS });
    assertValidPlan(instance, constructed);
    assertValidPlan(instance, improved);
    // Three-hour shifts run the construction out of time (assertValidPlan checks every reason given);
    // shorter routes free time for the stops it left out.
    assert.ok(constructed.unassigned.some(({ reason }) => reason === 'fleet_full'));
    assert.ok(improved.totals.assigned > constructed.totals.assigned);
  });

  it('gives the same plan for the same input, seed and iteration budget', () => {
    const run = () => {
      const { search: _search, ...plan } = solveRoutes({
        ...generateInstance({ stops: 200, vehicles: 10, seed: 7 }),
        maxIterations: ITERATIONS,
      });
      return plan;
    };
    assert.deepEqual(run(), run());
  });
});

/** A point `eastKm` km east and `northKm` km north of a depot in Paris. */
function at(eastKm: number, northKm = 0): Point {
  const depot = { lat: 48.85, lng: 2.35 };
  return {
    lat: depot.lat + (northKm * 1000) / 111_320,
    lng: depot.lng + (eastKm * 1000) / (111_320 * Math.cos((depot.lat * Math.PI) / 180)),
  };
}

function vehicle(id: number, overrides: Partial<SolverVehicle> = {}): SolverVehicle {
  return {
    id,
    start: at(0),
    capacity: { weightGrams: 1_000_000, volumeCm3: 10_000_000, count: 100 },
    shift: { start: 8 * HOUR, end: 17 * HOUR },
    skills: [],
    ...overrides,
  };
}

function stop(id: number, location: Point, overrides: Partial<SolverStop> = {}): SolverStop {
  return {
    id,
    location,
    demand: { weightGrams: 10_000, volumeCm3: 50_000, count: 1 },
    serviceSeconds: 300,
    ...overrides,
  };
}

const visitOrder = (output: SolverOutput): number[][] =>
  output.routes.map((route) => route.stops.map((planned) => planned.stopId));

describe('solveRoutes on small hand-made days', () => {
  it('visits a stop whose window closes early before a nearer one', () => {
    const near = stop(1, at(1));
    const far = stop(2, at(3));
    const vehicles = [vehicle(10)];
    assert.deepEqual(visitOrder(solveRoutes({ stops: [near, far], vehicles })), [[1, 2]]);

    // 3 km take 6 min: reachable by 08:10 only when driven to first.
    const input = { stops: [near, { ...far, window: { start: 0, end: 8 * HOUR + 10 * 60 } }], vehicles };
    const output = solveRoutes(input);
    assert.deepEqual(visitOrder(output), [[2, 1]]);
    assertValidPlan(input, output);
  });

  it('waits for a window to open and leaves the depot late rather than idle at the door', () => {
    const input = {
      stops: [stop(1, at(2), { window: { start: 10 * HOUR, end: 12 * HOUR } })],
      vehicles: [vehicle(10)],
    };
    const output = solveRoutes(input);
    assertValidPlan(input, output);
    const [route] = output.routes;
    assert.ok(route);
    assert.deepEqual(
      route.stops.map(({ arrival, start }) => [arrival, start]),
      [[10 * HOUR, 10 * HOUR]],
    );
    assert.ok(route.departure > 8 * HOUR);
  });

  it('builds by regret: the stop with most to lose goes first, not the cheapest', () => {
    // One parcel per van; van 10 at the depot, van 11 10 km east. Stop 1 is cheap from both
    // (8 and 12 km round trips), stop 2 dearer but far dearer from van 11 (9 against 21.9 km).
    // Cheapest-first would give van 10 stop 1 and send van 11 to stop 2 (29.9 km); regret gives
    // van 10 stop 2 and van 11 stop 1 (21 km).
    const oneParcel = { weightGrams: 1_000_000, volumeCm3: 10_000_000, count: 1 };
    const input = {
      stops: [stop(1, at(4)), stop(2, at(0, 4.5))],
      vehicles: [vehicle(10, { capacity: oneParcel }), vehicle(11, { start: at(10), capacity: oneParcel })],
      localSearch: false,
    };
    const output = solveRoutes(input);
    assert.deepEqual(
      output.routes.map((route) => [route.vehicleId, route.stops.map(({ stopId }) => stopId)]),
      [
        [10, [2]],
        [11, [1]],
      ],
    );
    assertValidPlan(input, output);
  });

  it('splits stops between two vehicles when one cannot carry them all', () => {
    const heavy = { weightGrams: 600_000, volumeCm3: 1000, count: 1 };
    const input = {
      stops: [stop(1, at(1), { demand: heavy }), stop(2, at(1.2), { demand: heavy })],
      vehicles: [vehicle(10), vehicle(11)].map((v) => ({
        ...v,
        capacity: { ...v.capacity, weightGrams: 1_000_000 },
      })),
    };
    const output = solveRoutes(input);
    assert.equal(output.totals.vehiclesUsed, 2);
    assert.equal(output.totals.assigned, 2);
    assertValidPlan(input, output);
  });

  it("reports a stop that fits alone but not beside the others as 'fleet_full'", () => {
    const demand = { weightGrams: 400_000, volumeCm3: 1000, count: 1 };
    const input = {
      stops: [1, 2, 3].map((id) => stop(id, at(id), { demand })),
      vehicles: [vehicle(10, { capacity: { weightGrams: 1_000_000, volumeCm3: 1e6, count: 10 } })],
    };
    const output = solveRoutes(input);
    assert.equal(output.totals.assigned, 2);
    assert.deepEqual(
      output.unassigned.map(({ reason }) => reason),
      ['fleet_full'],
    );
    assertValidPlan(input, output);
  });

  it('tells capacity, skills and time-window impossibilities apart', () => {
    const refrigerated = vehicle(10, {
      skills: ['refrigerated'],
      capacity: { weightGrams: 100_000, volumeCm3: 1e6, count: 10 },
    });
    const big = vehicle(11, { capacity: { weightGrams: 900_000, volumeCm3: 1e7, count: 100 } });
    const input = {
      stops: [
        // Fits the big van, but only the small refrigerated one may carry it.
        stop(1, at(1), {
          requiredSkills: ['refrigerated'],
          demand: { weightGrams: 200_000, volumeCm3: 1000, count: 1 },
        }),
        stop(2, at(1), { requiredSkills: ['hazmat'] }),
        // 20 km out: 40 min away, so a window closing at 08:30 cannot be met.
        stop(3, at(20), { window: { start: 8 * HOUR, end: 8.5 * HOUR } }),
        stop(4, at(1), { requiredSkills: ['refrigerated'] }),
      ],
      vehicles: [refrigerated, big],
    };
    const output = solveRoutes(input);
    assert.deepEqual(output.unassigned, [
      { stopId: 1, reason: 'capacity' },
      { stopId: 2, reason: 'skills' },
      { stopId: 3, reason: 'time_window' },
    ]);
    assert.deepEqual(
      output.routes.map((route) => route.vehicleId),
      [10],
    );
  });

  it("reports a stop too far for the shift's round trip as 'time_window'", () => {
    // 30 km out is an hour's drive each way; the shift lasts 90 minutes.
    const input = {
      stops: [stop(1, at(30)), stop(2, at(1))],
      vehicles: [vehicle(10, { shift: { start: 8 * HOUR, end: 9.5 * HOUR } })],
    };
    const output = solveRoutes(input);
    assert.deepEqual(output.unassigned, [{ stopId: 1, reason: 'time_window' }]);
    assertValidPlan(input, output);
  });

  it('answers an empty plan for no stops, without searching', () => {
    const { search, ...plan } = solveRoutes({ stops: [], vehicles: [vehicle(10)] });
    assert.deepEqual(plan, {
      routes: [],
      unassigned: [],
      totals: { distanceMeters: 0, assigned: 0, unassigned: 0, vehiclesUsed: 0 },
    });
    assert.equal(search.iterations, 0);
  });

  it("leaves every stop unassigned for 'capacity' when there are no vehicles", () => {
    // An empty fleet has no capacity at all; 'fleet_full' would suggest the stops fit some vehicle.
    const output = solveRoutes({
      stops: [stop(1, at(1)), stop(2, at(2), { requiredSkills: ['heavy'] })],
      vehicles: [],
    });
    assert.deepEqual(output.unassigned, [
      { stopId: 1, reason: 'capacity' },
      { stopId: 2, reason: 'capacity' },
    ]);
    assert.deepEqual(output.totals, { distanceMeters: 0, assigned: 0, unassigned: 2, vehiclesUsed: 0 });
  });

  it('honours a custom distance source and speed', () => {
    // Manhattan-like: twice the straight line; at 10 m/s a 2 km straight leg takes 400 s.
    const doubled = (a: Point, b: Point): number => 2 * haversineMeters(a, b);
    const input = {
      stops: [stop(1, at(1))],
      vehicles: [vehicle(10)],
      distance: doubled,
      speedMetersPerSecond: 10,
    };
    const output = solveRoutes(input);
    assertValidPlan(input, output);
    assert.ok(Math.abs(output.totals.distanceMeters - 4000) < 5);
  });
});

describe('haversineMeters', () => {
  it('measures Paris to London as about 343.5 km', () => {
    const meters = haversineMeters({ lat: 48.8566, lng: 2.3522 }, { lat: 51.5074, lng: -0.1278 });
    assert.ok(Math.abs(meters - 343_500) < 1000, `${meters}`);
  });
});

describe('solveRoutes with P2P orders and depot pickups beside deliveries', () => {
  const mixed = (seed: number): GeneratedInstance =>
    generateInstance({ stops: 120, vehicles: 8, seed, pairShare: 0.3, pickupShare: 0.15 });

  for (const seed of SEEDS) {
    it(`plans drivable routes with pairs, skills, windows and capacities, serving every feasible stop (seed ${seed})`, () => {
      const instance = mixed(seed);
      const pairs = instance.stops.filter((stop) => stop.pickup).length;
      assert.ok(pairs >= 20, `the generator makes P2P orders: ${pairs}`);
      assert.ok(instance.stops.some((stop) => stop.kind === 'pickup'));
      const output = solveRoutes({ ...instance, maxIterations: ITERATIONS });
      assertValidPlan(instance, output);
      // Every planned P2P order shows both legs (assertValidPlan checks their order and route).
      const paired = new Set(instance.stops.filter((stop) => stop.pickup).map((stop) => stop.id));
      const legs = output.routes.flatMap((route) =>
        route.stops.filter((stop) => paired.has(stop.stopId)).map((stop) => stop.leg),
      );
      const plannedPairs = paired.size - output.unassigned.filter(({ stopId }) => paired.has(stopId)).length;
      assert.equal(legs.filter((leg) => leg === 'pickup').length, plannedPairs);
      assert.equal(legs.filter((leg) => leg === 'delivery').length, plannedPairs);
      const byId = (a: { stopId: number }, b: { stopId: number }): number => a.stopId - b.stopId;
      assert.deepEqual([...output.unassigned].sort(byId), [...instance.infeasible].sort(byId));
    });
  }

  it('never returns a worse plan for a larger budget with the same seed', () => {
    for (const instance of [mixed(4), generateInstance({ stops: 150, vehicles: 8, seed: 5 })]) {
      let previous: SolverOutput | undefined;
      for (const maxIterations of [0, 300, 1000, 3000, 6000]) {
        const output = solveRoutes({ ...instance, maxIterations, seed: 3 });
        assertValidPlan(instance, output);
        if (previous) {
          assert.ok(output.totals.assigned >= previous.totals.assigned, `${maxIterations}: fewer stops`);
          if (output.totals.assigned === previous.totals.assigned) {
            assert.ok(
              output.totals.distanceMeters <= previous.totals.distanceMeters + 1e-6,
              `${maxIterations} iterations: ${output.totals.distanceMeters} m > ${previous.totals.distanceMeters} m`,
            );
          }
        }
        previous = output;
      }
    }
  });

  it('searches until the time limit on a large day, and reports how long it searched', () => {
    const instance = generateInstance({ stops: 200, vehicles: 10, seed: 1, pairShare: 0.2 });
    const started = performance.now();
    const output = solveRoutes({ ...instance, timeLimitMs: 400 });
    const wall = performance.now() - started;
    assertValidPlan(instance, output);
    // A day this size does not stall in 400 ms, so the search ends at its limit and not before,
    // and reports the time it took (whole milliseconds: rounded up by half a millisecond at most).
    // How many iterations fit in the limit is the machine's business, never asserted: a busy one
    // may spend it all on the first construction.
    assert.ok(
      output.search.elapsedMs >= 400 && output.search.elapsedMs <= wall + 0.5,
      `${output.search.elapsedMs} ms searched, ${wall} ms in all`,
    );
  });

  it('carries a P2P load only between its legs, pickup first', () => {
    // Each P2P load takes 80 % of the van: they cannot be on board together, a depot delivery
    // of 15 % rides along.
    const van = vehicle(10, { capacity: { weightGrams: 100_000, volumeCm3: 1e7, count: 10 } });
    const heavy = { weightGrams: 80_000, volumeCm3: 1000, count: 1 };
    const input = {
      stops: [
        stop(1, at(3), { demand: heavy, pickup: { location: at(1, 1), serviceSeconds: 120 } }),
        stop(2, at(3.2), { demand: heavy, pickup: { location: at(1.2, 1), serviceSeconds: 120 } }),
        stop(3, at(2), { demand: { weightGrams: 15_000, volumeCm3: 1000, count: 1 } }),
      ],
      vehicles: [van],
      maxIterations: 500,
    };
    const output = solveRoutes(input);
    assertValidPlan(input, output);
    assert.equal(output.totals.assigned, 3);
    const legs = output.routes[0]!.stops.map(({ stopId, leg }) => `${leg} ${stopId}`);
    const pickupAt = (id: number) => legs.indexOf(`pickup ${id}`);
    const deliveryAt = (id: number) => legs.indexOf(`delivery ${id}`);
    // One pair completes before the other starts.
    assert.ok(deliveryAt(1) < pickupAt(2) || deliveryAt(2) < pickupAt(1), legs.join(', '));
    assert.equal(output.routes[0]!.load.weightGrams, 95_000);
  });

  it('delivers before it collects when both would not fit at once', () => {
    // A 60 kg delivery from the depot and a 60 kg pickup for it, in a 100 kg van: only in that order.
    const van = vehicle(10, { capacity: { weightGrams: 100_000, volumeCm3: 1e7, count: 10 } });
    const sixty = { weightGrams: 60_000, volumeCm3: 1000, count: 1 };
    const input = {
      stops: [stop(1, at(1), { demand: sixty, kind: 'pickup' as const }), stop(2, at(3), { demand: sixty })],
      vehicles: [van],
    };
    const output = solveRoutes(input);
    assertValidPlan(input, output);
    assert.deepEqual(visitOrder(output), [[2, 1]]);
    assert.equal(output.routes[0]!.load.weightGrams, 60_000);
  });

  it("reports a P2P order whose legs cannot both be made in time as 'time_window'", () => {
    // The pickup opens at 16:00; the delivery closes at 12:00.
    const input = {
      stops: [
        stop(1, at(2), {
          window: { start: 8 * HOUR, end: 12 * HOUR },
          pickup: { location: at(1), serviceSeconds: 60, window: { start: 16 * HOUR, end: 17 * HOUR } },
        }),
      ],
      vehicles: [vehicle(10)],
    };
    const output = solveRoutes(input);
    assert.deepEqual(output.unassigned, [{ stopId: 1, reason: 'time_window' }]);
    assertValidPlan(input, output);
  });
});

describe('solveRoutesAsync', () => {
  it('answers the same plan as solveRoutes for the same iteration budget, in slices', async () => {
    const instance = generateInstance({ stops: 120, vehicles: 8, seed: 6, pairShare: 0.25 });
    const { search: _sync, ...blocking } = solveRoutes({ ...instance, maxIterations: 3000 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const { search, ...sliced } = await solveRoutesAsync({ ...instance, maxIterations: 3000 });
    clearInterval(timer);
    assert.deepEqual(sliced, blocking);
    assert.equal(search.iterations, 3000);
    assert.ok(ticks > 0 || search.elapsedMs < 20, 'the event loop ran between slices');
  });
});

describe('solveRoutes on degenerate days', () => {
  it('plans stops at the depot itself, and stops without demand', () => {
    const depot = at(0);
    const input = {
      stops: [
        stop(1, depot, { demand: { weightGrams: 0, volumeCm3: 0, count: 0 } }),
        stop(2, depot, { demand: { weightGrams: 0, volumeCm3: 0, count: 0 } }),
        stop(3, depot, { pickup: { location: depot, serviceSeconds: 60 } }),
      ],
      vehicles: [vehicle(10)],
      maxIterations: 200,
    };
    const output = solveRoutes(input);
    assertValidPlan(input, output);
    assert.equal(output.totals.assigned, 3);
    assert.equal(output.totals.distanceMeters, 0);
  });
});

describe('solveRoutes on a day with many routes (granular recreate)', () => {
  it('keeps plans valid and every servable stop served with more than 30 routes in use', () => {
    const instance = generateInstance({ stops: 400, vehicles: 60, seed: 8, pairShare: 0.2 });
    const constructed = solveRoutes({ ...instance, localSearch: false });
    const output = solveRoutes({ ...instance, maxIterations: 1500 });
    assert.ok(output.totals.vehiclesUsed > 30, `${output.totals.vehiclesUsed} routes`);
    assertValidPlan(instance, output);
    // Small vans cannot carry some heavy stops at all (assertValidPlan checks each reason given);
    // every stop some van could serve is served.
    assert.deepEqual(
      output.unassigned.filter(({ reason }) => reason === 'fleet_full'),
      [],
    );
    assert.ok(output.totals.distanceMeters < constructed.totals.distanceMeters);
  });
});
