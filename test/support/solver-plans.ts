/**
 * The route solver's plans checked from the input alone, for the solver's tests.
 */
import assert from 'node:assert/strict';
import { haversineMeters } from '../../src/modules/dispatch/solver/distance.ts';
import type {
  Load,
  PlannedStop,
  Point,
  SolverInput,
  SolverOutput,
  SolverStop,
  SolverVehicle,
} from '../../src/modules/dispatch/solver/types.ts';

const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;

/**
 * Recomputes every route from the coordinates alone and asserts the plan is one a driver could
 * drive: each stop accounted for once (a P2P stop by its two legs, pickup first, on one route),
 * the load on board along the route, windows, shifts, skills, distances and totals.
 */
export function assertValidPlan(input: SolverInput, output: SolverOutput): void {
  const distance = input.distance ?? haversineMeters;
  const speed = input.speedMetersPerSecond ?? 8.33;
  // Benchmark days keep exact times; the service rounds each leg up to whole seconds.
  const exact = input.roundTravelTimes === false;
  const travelSeconds = (a: Point, b: Point): number =>
    exact ? distance(a, b) / speed : Math.ceil(distance(a, b) / speed);
  const EPSILON = exact ? 1e-6 : 0;
  const same = (actual: number, expected: number, what: string): void =>
    assert.ok(Math.abs(actual - expected) <= EPSILON, `${what}: ${actual}, not ${expected}`);
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
  let assigned = 0;
  for (const route of output.routes) {
    const vehicle = vehiclesById.get(route.vehicleId);
    assert.ok(vehicle, `vehicle ${route.vehicleId} is not in the input`);
    assert.ok(!usedVehicles.has(vehicle.id), `vehicle ${vehicle.id} drives two routes`);
    usedVehicles.add(vehicle.id);
    assert.ok(route.stops.length > 0, 'an empty route is reported');
    assert.ok(route.departure >= vehicle.shift.start, `vehicle ${vehicle.id} leaves before its shift`);

    // Deliveries from the depot are on board from the start; pickups and P2P loads join on the way.
    const onBoard: Load = { weightGrams: 0, volumeCm3: 0, count: 0 };
    const peak: Load = { weightGrams: 0, volumeCm3: 0, count: 0 };
    const legsOf = (stop: SolverStop): Array<PlannedStop['leg']> =>
      stop.pickup ? ['pickup', 'delivery'] : [stop.kind === 'pickup' ? 'pickup' : 'delivery'];
    for (const planned of route.stops) {
      const stop = stopsById.get(planned.stopId);
      assert.ok(stop, `stop ${planned.stopId} is not in the input`);
      assert.ok(legsOf(stop).includes(planned.leg), `stop ${stop.id} has no ${planned.leg} leg`);
      if (!stop.pickup && stop.kind !== 'pickup')
        for (const key of LOAD_KEYS) onBoard[key] += stop.demand[key];
    }
    const pickedUp = new Set<number>();
    const checkLoad = (): void => {
      for (const key of LOAD_KEYS) {
        assert.ok(onBoard[key] <= vehicle.capacity[key], `vehicle ${vehicle.id} overloaded in ${key}`);
        peak[key] = Math.max(peak[key], onBoard[key]);
      }
    };
    checkLoad();

    let position = vehicle.start;
    let clock = route.departure;
    let meters = 0;
    for (const planned of route.stops) {
      const stop = stopsById.get(planned.stopId)!;
      const isPickupLeg = stop.pickup !== undefined && planned.leg === 'pickup';
      if (stop.pickup === undefined || isPickupLeg) {
        assigned++;
        account(planned.stopId);
      } else {
        assert.ok(pickedUp.has(stop.id), `stop ${stop.id} delivered before its pickup on this route`);
        pickedUp.delete(stop.id);
      }
      const place = isPickupLeg ? stop.pickup!.location : stop.location;
      const window = isPickupLeg ? stop.pickup!.window : stop.window;
      const service = isPickupLeg ? stop.pickup!.serviceSeconds : stop.serviceSeconds;
      const leg = distance(position, place);
      assert.ok(Math.abs(planned.distanceFromPreviousMeters - leg) <= 1, `leg to stop ${stop.id}`);
      same(planned.arrival, clock + travelSeconds(position, place), `arrival at ${stop.id}`);
      assert.ok(planned.start >= planned.arrival, `service at ${stop.id} starts before arrival`);
      if (window) {
        assert.ok(planned.arrival <= window.end + EPSILON, `stop ${stop.id} reached after its window`);
        assert.ok(planned.start >= window.start, `stop ${stop.id} served before its window`);
      }
      same(planned.departure, planned.start + service, `departure from ${stop.id}`);
      for (const skill of stop.requiredSkills ?? []) {
        assert.ok(vehicle.skills.includes(skill), `vehicle ${vehicle.id} lacks ${skill} for stop ${stop.id}`);
      }
      const sign = isPickupLeg || stop.kind === 'pickup' ? 1 : -1;
      if (isPickupLeg) pickedUp.add(stop.id);
      for (const key of LOAD_KEYS) onBoard[key] += sign * stop.demand[key];
      checkLoad();
      meters += leg;
      position = place;
      clock = planned.departure;
    }
    assert.equal(pickedUp.size, 0, `vehicle ${vehicle.id} ends with P2P loads still on board`);
    const end = vehicle.end ?? vehicle.start;
    meters += distance(position, end);
    same(route.returnTime, clock + travelSeconds(position, end), `return of vehicle ${vehicle.id}`);
    assert.ok(
      route.returnTime <= vehicle.shift.end + EPSILON,
      `vehicle ${vehicle.id} is back after its shift`,
    );
    assert.ok(Math.abs(route.distanceMeters - meters) <= 1, `distance of vehicle ${vehicle.id}`);
    assert.deepEqual(route.load, peak);
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
      const legs = [...(stop.pickup ? [stop.pickup] : []), stop];
      let clock = vehicle.shift.start;
      let position = vehicle.start;
      for (const leg of legs) {
        const arrival = clock + travelSeconds(position, leg.location);
        if (arrival > (leg.window?.end ?? arrival) + EPSILON) return false;
        clock = Math.max(arrival, leg.window?.start ?? arrival) + leg.serviceSeconds;
        position = leg.location;
      }
      return clock + travelSeconds(position, vehicle.end ?? vehicle.start) <= vehicle.shift.end + EPSILON;
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

  assert.ok(Math.abs(output.totals.distanceMeters - totalMeters) <= 1, 'total distance');
  assert.equal(output.totals.assigned, assigned);
  assert.equal(output.totals.unassigned, output.unassigned.length);
  assert.equal(output.totals.vehiclesUsed, output.routes.length);
}
