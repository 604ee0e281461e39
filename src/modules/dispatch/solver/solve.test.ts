import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { haversineMeters } from './distance.ts';
import { type GeneratedInstance, generateInstance } from './generate.ts';
import { solveRoutes } from './solve.ts';
import type { Load, Point, SolverInput, SolverOutput, SolverStop, SolverVehicle } from './types.ts';

const SEEDS = [1, 2, 3];
/** Small, to keep the suite fast; the descent settles well within it at 200 stops. */
const TIME_LIMIT_MS = 300;
const HOUR = 3600;
const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;

/**
 * Recomputes every route from the coordinates alone and asserts the plan is one a driver could
 * drive: each stop accounted for once, loads, windows, shifts, skills, distances and totals.
 */
function assertValidPlan(input: SolverInput, output: SolverOutput): void {
  const distance = input.distance ?? haversineMeters;
  const speed = input.speedMetersPerSecond ?? 8.33;
  const travelSeconds = (a: Point, b: Point): number => Math.ceil(distance(a, b) / speed);
  const stopsById = new Map(input.stops.map((stop) => [stop.id, stop]));
  const vehiclesById = new Map(input.vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const accounted = new Set<number>();
  const account = (stopId: number): void => {
    assert.ok(stopsById.has(stopId), `stop ${stopId} is not in the input`);
    assert.ok(!accounted.has(stopId), `stop ${stopId} appears twice`);
    accounted.add(stopId);
  };

  const usedVehicles = new Set<number>();
  let totalMeters = 0;
  for (const route of output.routes) {
    const vehicle = vehiclesById.get(route.vehicleId);
    assert.ok(vehicle, `vehicle ${route.vehicleId} is not in the input`);
    assert.ok(!usedVehicles.has(vehicle.id), `vehicle ${vehicle.id} drives two routes`);
    usedVehicles.add(vehicle.id);
    assert.ok(route.stops.length > 0, 'an empty route is reported');
    assert.ok(route.departure >= vehicle.shift.start, `vehicle ${vehicle.id} leaves before its shift`);

    let position = vehicle.start;
    let clock = route.departure;
    let meters = 0;
    const load: Load = { weightGrams: 0, volumeCm3: 0, count: 0 };
    for (const planned of route.stops) {
      account(planned.stopId);
      const stop = stopsById.get(planned.stopId)!;
      const leg = distance(position, stop.location);
      assert.ok(Math.abs(planned.distanceFromPreviousMeters - leg) <= 1, `leg to stop ${stop.id}`);
      assert.equal(planned.arrival, clock + travelSeconds(position, stop.location), `arrival at ${stop.id}`);
      assert.ok(planned.start >= planned.arrival, `service at ${stop.id} starts before arrival`);
      if (stop.window) {
        assert.ok(planned.arrival <= stop.window.end, `stop ${stop.id} reached after its window`);
        assert.ok(planned.start >= stop.window.start, `stop ${stop.id} served before its window`);
      }
      assert.equal(planned.departure, planned.start + stop.serviceSeconds, `departure from ${stop.id}`);
      for (const skill of stop.requiredSkills ?? []) {
        assert.ok(vehicle.skills.includes(skill), `vehicle ${vehicle.id} lacks ${skill} for stop ${stop.id}`);
      }
      for (const key of LOAD_KEYS) load[key] += stop.demand[key];
      meters += leg;
      position = stop.location;
      clock = planned.departure;
    }
    const end = vehicle.end ?? vehicle.start;
    meters += distance(position, end);
    assert.equal(route.returnTime, clock + travelSeconds(position, end), `return of vehicle ${vehicle.id}`);
    assert.ok(route.returnTime <= vehicle.shift.end, `vehicle ${vehicle.id} is back after its shift`);
    assert.ok(Math.abs(route.distanceMeters - meters) <= 1, `distance of vehicle ${vehicle.id}`);
    assert.deepEqual(route.load, load);
    for (const key of LOAD_KEYS) {
      assert.ok(load[key] <= vehicle.capacity[key], `vehicle ${vehicle.id} overloaded in ${key}`);
    }
    totalMeters += meters;
  }
  for (const { stopId, reason } of output.unassigned) {
    account(stopId);
    const stop = stopsById.get(stopId)!;
    const skilled = input.vehicles.filter((vehicle) =>
      (stop.requiredSkills ?? []).every((skill) => vehicle.skills.includes(skill)),
    );
    const roomy = skilled.filter((vehicle) =>
      LOAD_KEYS.every((key) => stop.demand[key] <= vehicle.capacity[key]),
    );
    const loneTripFits = (vehicle: SolverVehicle): boolean => {
      const arrival = vehicle.shift.start + travelSeconds(vehicle.start, stop.location);
      const leave = Math.max(arrival, stop.window?.start ?? arrival) + stop.serviceSeconds;
      const back = leave + travelSeconds(stop.location, vehicle.end ?? vehicle.start);
      return arrival <= (stop.window?.end ?? arrival) && back <= vehicle.shift.end;
    };
    const servableAlone = roomy.some(loneTripFits);
    const expected = {
      skills: input.vehicles.length > 0 && skilled.length === 0,
      capacity: input.vehicles.length === 0 || (skilled.length > 0 && roomy.length === 0),
      time_window: roomy.length > 0 && !servableAlone,
      fleet_full: servableAlone,
    };
    assert.ok(expected[reason], `stop ${stopId} is unassigned for '${reason}', which does not hold`);
  }
  assert.equal(accounted.size, input.stops.length, 'some stops are neither routed nor unassigned');

  const assigned = output.routes.reduce((sum, route) => sum + route.stops.length, 0);
  assert.ok(Math.abs(output.totals.distanceMeters - totalMeters) <= 1, 'total distance');
  assert.equal(output.totals.assigned, assigned);
  assert.equal(output.totals.unassigned, output.unassigned.length);
  assert.equal(output.totals.vehiclesUsed, output.routes.length);
}

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
      improved: solveRoutes({ ...instance, timeLimitMs: TIME_LIMIT_MS }),
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

  it('shortens the construction with local search, never lengthening it', () => {
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
      `local search saved no kilometre anywhere: ${gains.join(', ')} m`,
    );
  });

  it('keeps routes valid and fits in left-out stops when short shifts, not capacity, bind', () => {
    const instance = generateInstance({ stops: 200, vehicles: 10, seed: 2 });
    for (const vehicle of instance.vehicles) vehicle.shift = { start: 8 * HOUR, end: 11 * HOUR };
    const constructed = solveRoutes({ ...instance, localSearch: false });
    const improved = solveRoutes({ ...instance, timeLimitMs: TIME_LIMIT_MS });
    assertValidPlan(instance, constructed);
    assertValidPlan(instance, improved);
    // Three-hour shifts run the construction out of time (assertValidPlan checks every reason given);
    // shorter routes free time for the stops it left out.
    assert.ok(constructed.unassigned.some(({ reason }) => reason === 'fleet_full'));
    assert.ok(improved.totals.assigned > constructed.totals.assigned);
  });

  it('gives the same plan for the same input and seed', () => {
    // A generous limit, so the descent settling, not the clock, ends both runs.
    const run = () =>
      solveRoutes({ ...generateInstance({ stops: 200, vehicles: 10, seed: 7 }), timeLimitMs: 20_000 });
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

  it('answers an empty plan for no stops', () => {
    assert.deepEqual(solveRoutes({ stops: [], vehicles: [vehicle(10)] }), {
      routes: [],
      unassigned: [],
      totals: { distanceMeters: 0, assigned: 0, unassigned: 0, vehiclesUsed: 0 },
    });
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
