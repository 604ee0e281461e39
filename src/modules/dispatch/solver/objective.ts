/** The objectives' prices beside distance (see Objective in types.ts). */

/**
 * The balanced objective's price of unevenness: each second between the longest and the shortest
 * route weighs as this many metres of driving (a minute as a kilometre).
 */
export const BALANCE_METERS_PER_SECOND = 1000 / 60;

/** The parts of the compiled problem the vehicle cost is measured on. */
interface Places {
  locationCount: number;
  visitCount: number;
  meters: Float64Array;
  visitLocation: Int32Array;
  startLocation: Int32Array;
  endLocation: Int32Array;
}

/**
 * fewest_vehicles' price of a vehicle used: one more than the sum, over visits, of each visit's
 * longest round trip from a vehicle's start to its end. That bounds any plan's distance on roads
 * obeying the triangle inequality, so one route fewer always beats any saving in distance.
 */
export function roundTripBound(places: Places): number {
  const L = places.locationCount;
  const pairs = new Set(Array.from(places.startLocation, (start, k) => start * L + places.endLocation[k]!));
  const ends = [...pairs].map((pair) => [Math.floor(pair / L), pair % L] as const);
  let bound = 1;
  for (let v = 0; v < places.visitCount; v++) {
    const at = places.visitLocation[v]!;
    let farthest = 0;
    for (const [start, end] of ends) {
      farthest = Math.max(farthest, places.meters[start * L + at]! + places.meters[at * L + end]!);
    }
    bound += farthest;
  }
  return bound;
}
