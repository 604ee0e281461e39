import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidPlan } from '../../../../test/support/solver-plans.ts';
import { solveRoutes } from './solve.ts';
import type { Point, SolverInput } from './types.ts';

/**
 * The depot (first) and the first 50 customers of Solomon's R1 instances (M. M. Solomon,
 * Operations Research 35(2), 1987): x, y, demand. Every customer takes 10 to serve, a vehicle
 * carries 200, the depot is open from 0 to 230; travel is Euclidean, a unit of time a unit of length.
 */
const R1_PLACES = [
  [35, 35, 0],
  [41, 49, 10],
  [35, 17, 7],
  [55, 45, 13],
  [55, 20, 19],
  [15, 30, 26],
  [25, 30, 3],
  [20, 50, 5],
  [10, 43, 9],
  [55, 60, 16],
  [30, 60, 16],
  [20, 65, 12],
  [50, 35, 19],
  [30, 25, 23],
  [15, 10, 20],
  [30, 5, 8],
  [10, 20, 19],
  [5, 30, 2],
  [20, 40, 12],
  [15, 60, 17],
  [45, 65, 9],
  [45, 20, 11],
  [45, 10, 18],
  [55, 5, 29],
  [65, 35, 3],
  [65, 20, 6],
  [45, 30, 17],
  [35, 40, 16],
  [41, 37, 16],
  [64, 42, 9],
  [40, 60, 21],
  [31, 52, 27],
  [35, 69, 23],
  [53, 52, 11],
  [65, 55, 14],
  [63, 65, 8],
  [2, 60, 5],
  [20, 20, 8],
  [5, 5, 16],
  [60, 12, 31],
  [40, 25, 9],
  [42, 7, 5],
  [24, 12, 5],
  [23, 3, 7],
  [11, 14, 18],
  [6, 38, 16],
  [2, 48, 1],
  [8, 56, 27],
  [13, 52, 36],
  [6, 68, 30],
  [47, 47, 13],
];
/** Their windows (ready, due) in R110 and in R101. */
const R110_WINDOWS = [
  [0, 230],
  [130, 201],
  [20, 89],
  [106, 135],
  [71, 195],
  [20, 107],
  [54, 153],
  [66, 105],
  [61, 138],
  [53, 150],
  [101, 156],
  [33, 152],
  [38, 97],
  [70, 208],
  [32, 137],
  [30, 154],
  [54, 105],
  [51, 189],
  [77, 106],
  [53, 108],
  [109, 152],
  [37, 96],
  [59, 144],
  [36, 155],
  [118, 190],
  [47, 186],
  [117, 156],
  [5, 156],
  [8, 79],
  [37, 98],
  [28, 123],
  [24, 85],
  [116, 175],
  [24, 179],
  [100, 143],
  [50, 178],
  [41, 178],
  [117, 160],
  [42, 145],
  [33, 186],
  [51, 128],
  [44, 159],
  [25, 172],
  [115, 158],
  [31, 138],
  [29, 189],
  [93, 150],
  [34, 116],
  [125, 192],
  [93, 132],
  [105, 152],
];
const R101_WINDOWS = [
  [0, 230],
  [161, 171],
  [50, 60],
  [116, 126],
  [149, 159],
  [34, 44],
  [99, 109],
  [81, 91],
  [95, 105],
  [97, 107],
  [124, 134],
  [67, 77],
  [63, 73],
  [159, 169],
  [32, 42],
  [61, 71],
  [75, 85],
  [157, 167],
  [87, 97],
  [76, 86],
  [126, 136],
  [62, 72],
  [97, 107],
  [68, 78],
  [153, 163],
  [172, 182],
  [132, 142],
  [37, 47],
  [39, 49],
  [63, 73],
  [71, 81],
  [50, 60],
  [141, 151],
  [37, 47],
  [117, 127],
  [143, 153],
  [41, 51],
  [134, 144],
  [83, 93],
  [44, 54],
  [85, 95],
  [97, 107],
  [31, 41],
  [132, 142],
  [69, 79],
  [32, 42],
  [117, 127],
  [51, 61],
  [165, 175],
  [108, 118],
  [124, 134],
];

const euclidean = (a: Point, b: Point): number => Math.hypot(a.lat - b.lat, a.lng - b.lng);

function r1Day(windows: number[][], vehicles: number): SolverInput {
  const point = (row: number): Point => ({ lat: R1_PLACES[row]![0]!, lng: R1_PLACES[row]![1]! });
  return {
    stops: R1_PLACES.slice(1).map((place, index) => ({
      id: index + 1,
      location: point(index + 1),
      demand: { weightGrams: place[2]!, volumeCm3: 0, count: 0 },
      serviceSeconds: 10,
      window: { start: windows[index + 1]![0]!, end: windows[index + 1]![1]! },
    })),
    vehicles: Array.from({ length: vehicles }, (_, index) => ({
      id: index + 1,
      start: point(0),
      capacity: { weightGrams: 200, volumeCm3: 0, count: 0 },
      shift: { start: 0, end: 230 },
      skills: [],
    })),
    distance: euclidean,
    speedMetersPerSecond: 1,
    roundTravelTimes: false,
  };
}

describe('solveRoutes with a fleet too tight for the construction', () => {
  it('finds a place for every stop that regret insertion left out (R110, 50 customers, 6 vehicles)', () => {
    const input = r1Day(R110_WINDOWS, 6);
    const constructed = solveRoutes({ ...input, localSearch: false });
    assert.ok(constructed.totals.unassigned > 0, 'the construction alone serves everyone: no repair to test');
    // Both seeds left one customer out before the search repaired on the waiting times.
    for (const seed of [1, 4]) {
      const plan = solveRoutes({ ...input, seed, maxIterations: 30_000 });
      assertValidPlan(input, plan);
      assert.deepEqual(plan.unassigned, [], `seed ${seed}`);
      assert.equal(plan.totals.vehiclesUsed, 6);
    }
  });

  it('keeps the reasons of the stops that truly cannot be served', () => {
    const input = r1Day(R110_WINDOWS, 6);
    // One stop beyond any vehicle's capacity, one too far for the day: both stay out, and only they.
    input.stops.push({ ...input.stops[0]!, id: 900, demand: { weightGrams: 201, volumeCm3: 0, count: 0 } });
    input.stops.push({ ...input.stops[1]!, id: 901, location: { lat: 200, lng: 200 } });
    const plan = solveRoutes({ ...input, seed: 1, maxIterations: 30_000 });
    assertValidPlan(input, plan);
    assert.deepEqual(
      plan.unassigned.sort((a, b) => a.stopId - b.stopId),
      [
        { stopId: 900, reason: 'capacity' },
        { stopId: 901, reason: 'time_window' },
      ],
    );
  });
});

describe('solveRoutes on an overbooked day', () => {
  it('serves as many as its repair can, then gives up on the rest and settles before its budget', () => {
    // Four vans for what takes six: no search serves everyone.
    const input = r1Day(R110_WINDOWS, 4);
    const constructed = solveRoutes({ ...input, localSearch: false });
    const budget = 2_000_000;
    const plan = solveRoutes({ ...input, seed: 1, maxIterations: budget });
    assertValidPlan(input, plan);
    assert.ok(plan.totals.unassigned < constructed.totals.unassigned, 'the repair placed some');
    assert.ok(plan.unassigned.every(({ reason }) => reason === 'fleet_full'));
    // A repair that never stopped would search the whole budget for stops that cannot fit.
    assert.ok(plan.search.iterations < budget, `${plan.search.iterations} rounds`);
    assert.ok(
      plan.totals.distanceMeters / plan.totals.assigned <
        constructed.totals.distanceMeters / constructed.totals.assigned,
    );
  });
});

describe('solveRoutes for the fewest vehicles', () => {
  it('eliminates routes until the day needs one fewer (R101, 50 customers: 11 routes, not 12)', () => {
    const input: SolverInput = { ...r1Day(R101_WINDOWS, 25), objective: 'fewest_vehicles' };
    const plan = solveRoutes({ ...input, seed: 1, maxIterations: 30_000 });
    assertValidPlan(input, plan);
    assert.deepEqual(plan.unassigned, []);
    // Emptying one route at a time into the others, without the elimination, settles at 12.
    assert.ok(plan.totals.vehiclesUsed <= 11, `${plan.totals.vehiclesUsed} routes`);
  });
});
