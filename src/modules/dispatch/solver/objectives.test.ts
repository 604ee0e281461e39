import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { haversineMeters } from './distance.ts';
import { generateInstance } from './generate.ts';
import { solveRoutes } from './solve.ts';
import type { Objective, Point, SolverInput, SolverOutput, SolverStop, SolverVehicle } from './types.ts';

/** Iteration-bound, so results do not depend on the machine. */
const ITERATIONS = 3000;
const HOUR = 3600;
const DEPOT: Point = { lat: 48.8566, lng: 2.3522 };

function at(eastKm: number, northKm = 0, from: Point = DEPOT): Point {
  return {
    lat: from.lat + northKm / 111.32,
    lng: from.lng + eastKm / (111.32 * Math.cos((from.lat * Math.PI) / 180)),
  };
}

function vehicle(id: number, overrides: Partial<SolverVehicle> = {}): SolverVehicle {
  return {
    id,
    start: DEPOT,
    capacity: { weightGrams: 1_000_000, volumeCm3: 100_000_000, count: 100 },
    shift: { start: 8 * HOUR, end: 18 * HOUR },
    skills: [],
    ...overrides,
  };
}

function stop(id: number, location: Point): SolverStop {
  return {
    id,
    location,
    demand: { weightGrams: 1000, volumeCm3: 1000, count: 1 },
    serviceSeconds: 300,
  };
}

const solve = (input: SolverInput, objective: Objective): SolverOutput =>
  solveRoutes({ ...input, objective, maxIterations: ITERATIONS });

/** Every stop once, on a route or left out; every route within its vehicle's shift and capacity. */
function assertSound(input: SolverInput, output: SolverOutput): void {
  const seen = new Set<number>();
  for (const route of output.routes) {
    const vehicle = input.vehicles.find((v) => v.id === route.vehicleId)!;
    assert.ok(route.departure >= vehicle.shift.start && route.returnTime <= vehicle.shift.end);
    assert.ok(route.load.weightGrams <= vehicle.capacity.weightGrams);
    for (const planned of route.stops) {
      const stopOf = input.stops.find((s) => s.id === planned.stopId)!;
      if (!stopOf.pickup || planned.leg === 'pickup') {
        assert.ok(!seen.has(planned.stopId), `stop ${planned.stopId} twice`);
        seen.add(planned.stopId);
      }
    }
  }
  for (const { stopId } of output.unassigned) seen.add(stopId);
  assert.equal(seen.size, input.stops.length);
}

/** Longest minus shortest route duration over every vehicle given, an idle one lasting 0. */
function spread(input: SolverInput, output: SolverOutput): number {
  const durations = input.vehicles.map((v) => {
    const route = output.routes.find((r) => r.vehicleId === v.id);
    return route ? route.returnTime - route.departure : 0;
  });
  return Math.max(...durations) - Math.min(...durations);
}

describe('solveRoutes objectives', () => {
  it('least_distance is the default: the same plan with or without saying so', () => {
    const instance = generateInstance({ stops: 60, vehicles: 4, seed: 5 });
    const implicit = solveRoutes({ ...instance, maxIterations: 500 });
    const explicit = solveRoutes({ ...instance, objective: 'least_distance', maxIterations: 500 });
    assert.deepEqual(explicit.routes, implicit.routes);
  });

  it('fewest_vehicles uses no more vehicles than least_distance on a generated day, serving as many', () => {
    for (const seed of [1, 2]) {
      const instance = generateInstance({ stops: 120, vehicles: 8, seed });
      const shortest = solve(instance, 'least_distance');
      const fewest = solve(instance, 'fewest_vehicles');
      assertSound(instance, fewest);
      assert.equal(fewest.totals.assigned, shortest.totals.assigned, `seed ${seed}`);
      assert.ok(
        fewest.totals.vehiclesUsed <= shortest.totals.vehiclesUsed,
        `seed ${seed}: ${fewest.totals.vehiclesUsed} > ${shortest.totals.vehiclesUsed}`,
      );
    }
  });

  it('fewest_vehicles serves a loose day with fewer vehicles than least_distance', () => {
    // Three depots, each beside its own cluster: the shortest plan drives from all three; one
    // van has room and time for every stop.
    const depots = [DEPOT, at(12, 0), at(0, 12)];
    const vehicles = depots.map((start, index) => vehicle(index + 1, { start }));
    const stops = depots.flatMap((depot, d) =>
      [0, 1, 2, 3].map((n) => stop(d * 10 + n, at(0.5 * n, 0.5, depot))),
    );
    const input: SolverInput = { stops, vehicles };
    const shortest = solve(input, 'least_distance');
    const fewest = solve(input, 'fewest_vehicles');
    assertSound(input, fewest);
    assert.equal(shortest.totals.vehiclesUsed, 3);
    assert.equal(fewest.totals.vehiclesUsed, 1);
    assert.equal(fewest.totals.assigned, 12);
    assert.ok(fewest.totals.distanceMeters > shortest.totals.distanceMeters);
  });

  it('balanced evens out route durations where least_distance loads one van', () => {
    // Thirteen doors around the corner from the depot: one van visits them all most shortly.
    const stops = Array.from({ length: 13 }, (_, n) => stop(n + 1, at(1 + (n % 4) * 0.3, 1 + n * 0.1)));
    const input: SolverInput = { stops, vehicles: [vehicle(1), vehicle(2), vehicle(3)] };
    const shortest = solve(input, 'least_distance');
    const balanced = solve(input, 'balanced');
    assertSound(input, balanced);
    assert.equal(shortest.totals.vehiclesUsed, 1, 'least_distance loads one van');
    assert.equal(balanced.totals.assigned, 13);
    assert.equal(balanced.totals.vehiclesUsed, 3);
    assert.ok(
      spread(input, balanced) < spread(input, shortest) / 3,
      `spread ${spread(input, balanced)} s against ${spread(input, shortest)} s`,
    );
  });

  it('plans on a travel table instead of straight lines when given one', () => {
    // Straight lines put A and B side by side; the table says the way between them is long.
    const a = at(1, 0);
    const b = at(1.2, 0);
    const c = at(0, 1);
    const points = [DEPOT, a, b, c];
    const meters = points.map((p) => points.map((q) => (p === q ? 0 : haversineMeters(p, q))));
    const far = 50_000;
    meters[1]![2] = far;
    meters[2]![1] = far;
    const seconds = meters.map((row) => row.map((m) => Math.ceil(m / 10)));
    const input: SolverInput = {
      stops: [stop(1, a), stop(2, b), stop(3, c)],
      vehicles: [vehicle(1)],
      travel: { points, meters, seconds },
    };
    const [route] = solve(input, 'least_distance').routes;
    const order = route!.stops.map((s) => s.stopId);
    assert.notEqual(Math.abs(order.indexOf(1) - order.indexOf(2)), 1, `A and B apart: ${order}`);
    const legs = route!.stops.map((s) => s.distanceFromPreviousMeters);
    assert.ok(legs.every((leg) => leg < far));
    // Stop n is points[n]: the first leg takes the table's time, not the straight line's.
    const first = route!.stops[0]!;
    assert.equal(first.arrival - route!.departure, seconds[0]![first.stopId]);
  });
});
