/**
 * A capacitated vehicle routing solver with time windows, pure and synchronous.
 *
 * 1. Stops no vehicle could ever serve are set aside with their reason: no vehicle holds the
 *    skills, none that does can carry the demand, or even a lone round trip misses the window or
 *    the shift.
 * 2. Regret-3 insertion builds the routes: the stop that would lose most by waiting (its best
 *    route beats its next best ones by the widest margin) goes in first, at its cheapest place.
 *    Each route keeps its earliest departures and latest arrivals, so checking an insertion is O(1).
 * 3. A first-improvement descent shortens them: 2-opt and or-opt within a route; relocate, swap
 *    and tail exchange (2-opt*) between routes, applying only feasible moves that cut total
 *    distance. After every round that changed something, stops still left out get another
 *    insertion attempt.
 *
 * Assigning more stops always beats driving less: no move ever drops a stop. Nothing here is
 * random, so `seed` has no effect yet, and equal input gives equal output whenever the descent
 * settles within its time limit (it takes a few tens of milliseconds for 200 stops and 10 vehicles).
 */
import { type DistanceSource, haversineMeters } from './distance.ts';
import type {
  Load,
  PlannedRoute,
  PlannedStop,
  SolverInput,
  SolverOutput,
  SolverStop,
  SolverVehicle,
  UnassignedReason,
} from './types.ts';

const DEFAULT_SPEED_METERS_PER_SECOND = 8.33;
const DEFAULT_TIME_LIMIT_MS = 2000;
/** How many of a stop's cheapest routes its regret compares. */
const REGRET_ROUTES = 3;
/** Gains below this are floating-point noise; accepting them could make the descent cycle. */
const MIN_GAIN_METERS = 1e-6;
/** Or-opt moves runs of up to this many consecutive stops. */
const MAX_SEGMENT_LENGTH = 3;
/** Weight, volume, count: the order of `loadVector`. */
const LOAD_DIMENSIONS = 3;

const loadVector = (load: Load): number[] => [load.weightGrams, load.volumeCm3, load.count];

/**
 * The input compiled for fast lookups. Nodes are the stops (their index in the input), then each
 * vehicle's start and end; distances and travel times between every pair are computed once.
 */
class Problem {
  readonly stops: readonly SolverStop[];
  readonly vehicles: readonly SolverVehicle[];
  private readonly nodeCount: number;
  private readonly metersTable: Float64Array;
  private readonly secondsTable: Float64Array;
  private readonly demands: Float64Array;
  private readonly capacities: Float64Array;
  readonly readyAt: Float64Array;
  readonly dueAt: Float64Array;
  readonly serviceSeconds: Float64Array;
  /** Per stop and vehicle: skills held, demand fits the empty vehicle, a lone round trip is on time. */
  private readonly servable: Uint8Array;

  constructor(input: SolverInput) {
    this.stops = input.stops;
    this.vehicles = input.vehicles;
    const distance: DistanceSource = input.distance ?? haversineMeters;
    const speed = input.speedMetersPerSecond ?? DEFAULT_SPEED_METERS_PER_SECOND;
    const points = [
      ...input.stops.map((stop) => stop.location),
      ...input.vehicles.flatMap((vehicle) => [vehicle.start, vehicle.end ?? vehicle.start]),
    ];
    this.nodeCount = points.length;
    this.metersTable = new Float64Array(this.nodeCount * this.nodeCount);
    this.secondsTable = new Float64Array(this.nodeCount * this.nodeCount);
    points.forEach((from, i) => {
      points.forEach((to, j) => {
        const meters = i === j ? 0 : distance(from, to);
        this.metersTable[i * this.nodeCount + j] = meters;
        this.secondsTable[i * this.nodeCount + j] = Math.ceil(meters / speed);
      });
    });
    this.demands = Float64Array.from(input.stops.flatMap((stop) => loadVector(stop.demand)));
    this.capacities = Float64Array.from(input.vehicles.flatMap((vehicle) => loadVector(vehicle.capacity)));
    this.readyAt = Float64Array.from(input.stops, (stop) => stop.window?.start ?? -Infinity);
    this.dueAt = Float64Array.from(input.stops, (stop) => stop.window?.end ?? Infinity);
    this.serviceSeconds = Float64Array.from(input.stops, (stop) => stop.serviceSeconds);
    this.servable = new Uint8Array(input.stops.length * input.vehicles.length);
    for (let stop = 0; stop < input.stops.length; stop++) {
      for (let vehicle = 0; vehicle < input.vehicles.length; vehicle++) {
        const servable =
          this.hasSkills(stop, vehicle) && this.fitsEmpty(stop, vehicle) && this.isOnTime(vehicle, [stop]);
        this.servable[stop * input.vehicles.length + vehicle] = servable ? 1 : 0;
      }
    }
  }

  meters(from: number, to: number): number {
    return this.metersTable[from * this.nodeCount + to]!;
  }

  seconds(from: number, to: number): number {
    return this.secondsTable[from * this.nodeCount + to]!;
  }

  demand(stop: number, dimension: number): number {
    return this.demands[stop * LOAD_DIMENSIONS + dimension]!;
  }

  capacity(vehicle: number, dimension: number): number {
    return this.capacities[vehicle * LOAD_DIMENSIONS + dimension]!;
  }

  startNode(vehicle: number): number {
    return this.stops.length + 2 * vehicle;
  }

  endNode(vehicle: number): number {
    return this.stops.length + 2 * vehicle + 1;
  }

  shift(vehicle: number): SolverVehicle['shift'] {
    return this.vehicles[vehicle]!.shift;
  }

  hasSkills(stop: number, vehicle: number): boolean {
    const skills = this.vehicles[vehicle]!.skills;
    return (this.stops[stop]!.requiredSkills ?? []).every((skill) => skills.includes(skill));
  }

  fitsEmpty(stop: number, vehicle: number): boolean {
    for (let dimension = 0; dimension < LOAD_DIMENSIONS; dimension++) {
      if (this.demand(stop, dimension) > this.capacity(vehicle, dimension)) return false;
    }
    return true;
  }

  canServe(stop: number, vehicle: number): boolean {
    return this.servable[stop * this.vehicles.length + vehicle] === 1;
  }

  /** Whether `vehicle`, leaving at its shift start, keeps every window and is back by its shift end. */
  isOnTime(vehicle: number, sequence: readonly number[]): boolean {
    let clock = this.shift(vehicle).start;
    let previous = this.startNode(vehicle);
    for (const stop of sequence) {
      const arrival = clock + this.seconds(previous, stop);
      if (arrival > this.dueAt[stop]!) return false;
      clock = Math.max(arrival, this.readyAt[stop]!) + this.serviceSeconds[stop]!;
      previous = stop;
    }
    return clock + this.seconds(previous, this.endNode(vehicle)) <= this.shift(vehicle).end;
  }
}

/** One vehicle's stops, with the running figures that make move checks cheap. */
class Route {
  stops: number[] = [];
  readonly load = new Float64Array(LOAD_DIMENSIONS);
  distance = 0;
  /** departures[k]: the earliest the vehicle can leave stops[k], waiting for windows on the way. */
  private departures: number[] = [];
  /** latestArrivals[k]: the latest arrival at stops[k] that keeps every later window and the shift. */
  private latestArrivals: number[] = [];

  constructor(
    private readonly problem: Problem,
    readonly vehicle: number,
  ) {}

  replaceStops(stops: number[]): void {
    this.stops = stops;
    this.refresh();
  }

  insertAt(stop: number, position: number): void {
    this.stops.splice(position, 0, stop);
    this.refresh();
  }

  /** The node before `position`: the start for 0. */
  nodeBefore(position: number): number {
    return position === 0 ? this.problem.startNode(this.vehicle) : this.stops[position - 1]!;
  }

  /** The node at `position`: the end past the last stop. */
  nodeAt(position: number): number {
    return position === this.stops.length ? this.problem.endNode(this.vehicle) : this.stops[position]!;
  }

  /** Whether the load stays within capacity when `incoming` joins and `outgoing` (if any) leaves. */
  canCarry(incoming: number, outgoing?: number): boolean {
    const { problem } = this;
    for (let dimension = 0; dimension < LOAD_DIMENSIONS; dimension++) {
      const removed = outgoing === undefined ? 0 : problem.demand(outgoing, dimension);
      const load = this.load[dimension]! - removed + problem.demand(incoming, dimension);
      if (load > problem.capacity(this.vehicle, dimension)) return false;
    }
    return true;
  }

  /** Meters added by visiting `stop` just before `position`, or Infinity when a window or the shift breaks. */
  insertionCost(stop: number, position: number): number {
    const { problem } = this;
    const before = this.nodeBefore(position);
    const after = this.nodeAt(position);
    const leaveBefore = position === 0 ? problem.shift(this.vehicle).start : this.departures[position - 1]!;
    const arrival = leaveBefore + problem.seconds(before, stop);
    if (arrival > problem.dueAt[stop]!) return Infinity;
    const leave = Math.max(arrival, problem.readyAt[stop]!) + problem.serviceSeconds[stop]!;
    const latestAfter =
      position === this.stops.length ? problem.shift(this.vehicle).end : this.latestArrivals[position]!;
    if (leave + problem.seconds(stop, after) > latestAfter) return Infinity;
    return problem.meters(before, stop) + problem.meters(stop, after) - problem.meters(before, after);
  }

  /** The cheapest feasible place for `stop`, capacity included; cost Infinity when there is none. */
  bestInsertion(stop: number): { cost: number; position: number } {
    let best = { cost: Infinity, position: -1 };
    if (!this.problem.canServe(stop, this.vehicle) || !this.canCarry(stop)) return best;
    for (let position = 0; position <= this.stops.length; position++) {
      const cost = this.insertionCost(stop, position);
      if (cost < best.cost) best = { cost, position };
    }
    return best;
  }

  /** Meters saved by putting `stop` in place of the stop at `position`. */
  replacementGain(position: number, stop: number): number {
    const { problem } = this;
    const before = this.nodeBefore(position);
    const after = this.nodeAt(position + 1);
    const current = this.stops[position]!;
    return (
      problem.meters(before, current) +
      problem.meters(current, after) -
      problem.meters(before, stop) -
      problem.meters(stop, after)
    );
  }

  private refresh(): void {
    const { problem, vehicle, stops } = this;
    const shift = problem.shift(vehicle);
    this.load.fill(0);
    this.distance = 0;
    this.departures = new Array<number>(stops.length);
    this.latestArrivals = new Array<number>(stops.length);
    let clock = shift.start;
    let previous = problem.startNode(vehicle);
    stops.forEach((stop, k) => {
      for (let dimension = 0; dimension < LOAD_DIMENSIONS; dimension++) {
        this.load[dimension]! += problem.demand(stop, dimension);
      }
      this.distance += problem.meters(previous, stop);
      const arrival = clock + problem.seconds(previous, stop);
      clock = Math.max(arrival, problem.readyAt[stop]!) + problem.serviceSeconds[stop]!;
      this.departures[k] = clock;
      previous = stop;
    });
    this.distance += problem.meters(previous, problem.endNode(vehicle));
    let latestNext = shift.end;
    let next = problem.endNode(vehicle);
    for (let k = stops.length - 1; k >= 0; k--) {
      const stop = stops[k]!;
      // On a feasible route the window opens by this latest start, so an earlier arrival only waits.
      const latestStart = latestNext - problem.seconds(stop, next) - problem.serviceSeconds[stop]!;
      latestNext = Math.min(problem.dueAt[stop]!, latestStart);
      this.latestArrivals[k] = latestNext;
      next = stop;
    }
  }
}

/** Why no vehicle could ever serve `stop`, or undefined when some vehicle could serve it alone. */
function impossibility(problem: Problem, stop: number): UnassignedReason | undefined {
  const vehicles = problem.vehicles.map((_, vehicle) => vehicle);
  // An empty fleet has no capacity at all: 'capacity' says "add vehicles", 'skills' would mislead.
  if (vehicles.length === 0) return 'capacity';
  const skilled = vehicles.filter((vehicle) => problem.hasSkills(stop, vehicle));
  if (skilled.length === 0) return 'skills';
  const roomy = skilled.filter((vehicle) => problem.fitsEmpty(stop, vehicle));
  if (roomy.length === 0) return 'capacity';
  if (!roomy.some((vehicle) => problem.canServe(stop, vehicle))) return 'time_window';
  return undefined;
}

/**
 * Regret insertion: inserts the `pending` stops one at a time, always the one whose cheapest route
 * beats its next REGRET_ROUTES - 1 routes by the most (fewest feasible routes first), at its
 * cheapest place. Returns the stops that fit nowhere.
 */
function insertByRegret(routes: Route[], pending: readonly number[]): number[] {
  const routeCount = routes.length;
  const costs = new Float64Array(pending.length * routeCount);
  const positions = new Int32Array(pending.length * routeCount);
  const evaluate = (index: number, routeIndex: number): void => {
    const best = routes[routeIndex]!.bestInsertion(pending[index]!);
    costs[index * routeCount + routeIndex] = best.cost;
    positions[index * routeCount + routeIndex] = best.position;
  };
  let open = pending.map((_, index) => index);
  for (const index of open) {
    for (let routeIndex = 0; routeIndex < routeCount; routeIndex++) evaluate(index, routeIndex);
  }

  const cheapest = new Float64Array(REGRET_ROUTES);
  for (;;) {
    let chosen:
      | { index: number; routeIndex: number; missing: number; regret: number; cost: number }
      | undefined;
    for (const index of open) {
      cheapest.fill(Infinity);
      let cheapestRoute = -1;
      for (let routeIndex = 0; routeIndex < routeCount; routeIndex++) {
        const cost = costs[index * routeCount + routeIndex]!;
        if (cost >= cheapest[REGRET_ROUTES - 1]!) continue;
        if (cost < cheapest[0]!) cheapestRoute = routeIndex;
        let slot = REGRET_ROUTES - 1;
        for (; slot > 0 && cheapest[slot - 1]! > cost; slot--) cheapest[slot] = cheapest[slot - 1]!;
        cheapest[slot] = cost;
      }
      if (cheapestRoute === -1) continue;
      let missing = 0;
      let regret = 0;
      for (let k = 1; k < REGRET_ROUTES; k++) {
        if (cheapest[k] === Infinity) missing++;
        else regret += cheapest[k]! - cheapest[0]!;
      }
      // Fewer options first, then the larger regret; on a tie the costlier stop, which is the hardest to place later.
      const better =
        chosen === undefined ||
        missing > chosen.missing ||
        (missing === chosen.missing &&
          (regret > chosen.regret || (regret === chosen.regret && cheapest[0]! > chosen.cost)));
      if (better) chosen = { index, routeIndex: cheapestRoute, missing, regret, cost: cheapest[0]! };
    }
    if (chosen === undefined) break;
    const { index, routeIndex } = chosen;
    routes[routeIndex]!.insertAt(pending[index]!, positions[index * routeCount + routeIndex]!);
    open = open.filter((other) => other !== index);
    // Only the route that grew has new costs.
    for (const other of open) evaluate(other, routeIndex);
  }
  return open.map((index) => pending[index]!);
}

/** Intra-route 2-opt: reverses the first stretch whose reversal is shorter and on time. */
function applyTwoOpt(problem: Problem, route: Route): boolean {
  const { stops } = route;
  const path = [route.nodeBefore(0), ...stops, route.nodeAt(stops.length)];
  // Prefix sums along the path, driven forwards and backwards, price a reversed stretch in O(1)
  // even when the distance source is not symmetric.
  const forward = [0];
  const backward = [0];
  for (let k = 1; k < path.length; k++) {
    forward.push(forward[k - 1]! + problem.meters(path[k - 1]!, path[k]!));
    backward.push(backward[k - 1]! + problem.meters(path[k]!, path[k - 1]!));
  }
  for (let first = 1; first < stops.length; first++) {
    for (let last = first + 1; last <= stops.length; last++) {
      const before = path[first - 1]!;
      const after = path[last + 1]!;
      const gain =
        problem.meters(before, path[first]!) +
        problem.meters(path[last]!, after) +
        (forward[last]! - forward[first]!) -
        problem.meters(before, path[last]!) -
        problem.meters(path[first]!, after) -
        (backward[last]! - backward[first]!);
      if (gain <= MIN_GAIN_METERS) continue;
      // Path index k holds stops[k - 1].
      const candidate = [
        ...stops.slice(0, first - 1),
        ...stops.slice(first - 1, last).reverse(),
        ...stops.slice(last),
      ];
      if (problem.isOnTime(route.vehicle, candidate)) {
        route.replaceStops(candidate);
        return true;
      }
    }
  }
  return false;
}

/** Or-opt: moves the first run of 1 to MAX_SEGMENT_LENGTH stops whose move elsewhere in the route pays. */
function applyOrOpt(problem: Problem, route: Route): boolean {
  const { stops } = route;
  for (let length = 1; length <= Math.min(MAX_SEGMENT_LENGTH, stops.length - 1); length++) {
    for (let first = 0; first + length <= stops.length; first++) {
      const last = first + length - 1;
      const head = stops[first]!;
      const tail = stops[last]!;
      const before = route.nodeBefore(first);
      const after = route.nodeAt(last + 1);
      const removalGain =
        problem.meters(before, head) + problem.meters(tail, after) - problem.meters(before, after);
      // Gap g lies between nodeBefore(g) and nodeAt(g); gaps touching the run are not moves.
      for (let gap = 0; gap <= stops.length; gap++) {
        if (gap >= first && gap <= last + 1) continue;
        const left = route.nodeBefore(gap);
        const right = route.nodeAt(gap);
        const insertionCost =
          problem.meters(left, head) + problem.meters(tail, right) - problem.meters(left, right);
        if (removalGain - insertionCost <= MIN_GAIN_METERS) continue;
        const segment = stops.slice(first, last + 1);
        const rest = [...stops.slice(0, first), ...stops.slice(last + 1)];
        const at = gap < first ? gap : gap - length;
        const candidate = [...rest.slice(0, at), ...segment, ...rest.slice(at)];
        if (problem.isOnTime(route.vehicle, candidate)) {
          route.replaceStops(candidate);
          return true;
        }
      }
    }
  }
  return false;
}

function improveWithinRoute(problem: Problem, route: Route, deadline: number): boolean {
  let improved = false;
  while (performance.now() < deadline && (applyTwoOpt(problem, route) || applyOrOpt(problem, route))) {
    improved = true;
  }
  return improved;
}

/** Relocate: moves each stop to its cheapest feasible place in another route when that saves distance. */
function relocateBetweenRoutes(problem: Problem, routes: Route[], deadline: number): boolean {
  let improved = false;
  for (const from of routes) {
    for (let position = 0; position < from.stops.length; position++) {
      if (performance.now() >= deadline) return improved;
      const stop = from.stops[position]!;
      const removalGain =
        problem.meters(from.nodeBefore(position), stop) +
        problem.meters(stop, from.nodeAt(position + 1)) -
        problem.meters(from.nodeBefore(position), from.nodeAt(position + 1));
      let best: { route: Route; position: number } | undefined;
      let bestCost = removalGain - MIN_GAIN_METERS; // anything dearer saves nothing
      for (const to of routes) {
        if (to === from) continue;
        const insertion = to.bestInsertion(stop);
        if (insertion.cost < bestCost) {
          bestCost = insertion.cost;
          best = { route: to, position: insertion.position };
        }
      }
      if (best === undefined) continue;
      const remaining = from.stops.filter((_, k) => k !== position);
      // Dropping a stop only shortens the day when travel times obey the triangle inequality,
      // which a custom distance source need not.
      if (!problem.isOnTime(from.vehicle, remaining)) continue;
      from.replaceStops(remaining);
      best.route.insertAt(stop, best.position);
      improved = true;
      position--; // the next stop now sits at this position
    }
  }
  return improved;
}

/** Swap: exchanges two stops of different routes, each taking the other's place, when that saves distance. */
function swapBetweenRoutes(problem: Problem, routes: Route[], deadline: number): boolean {
  let improved = false;
  for (const [firstIndex, first] of routes.entries()) {
    for (const second of routes.slice(firstIndex + 1)) {
      if (performance.now() >= deadline) return improved;
      for (let i = 0; i < first.stops.length; i++) {
        for (let j = 0; j < second.stops.length; j++) {
          const mine = first.stops[i]!;
          const theirs = second.stops[j]!;
          if (!problem.canServe(theirs, first.vehicle) || !problem.canServe(mine, second.vehicle)) continue;
          const gain = first.replacementGain(i, theirs) + second.replacementGain(j, mine);
          if (gain <= MIN_GAIN_METERS) continue;
          if (!first.canCarry(theirs, mine) || !second.canCarry(mine, theirs)) continue;
          const firstStops = first.stops.with(i, theirs);
          const secondStops = second.stops.with(j, mine);
          const onTime =
            problem.isOnTime(first.vehicle, firstStops) && problem.isOnTime(second.vehicle, secondStops);
          if (!onTime) continue;
          first.replaceStops(firstStops);
          second.replaceStops(secondStops);
          improved = true;
        }
      }
    }
  }
  return improved;
}

/** A route with prefix sums of meters and load, to price and check tail exchanges in O(1). */
interface RouteProfile {
  route: Route;
  /** metersTo[k]: meters from the start to the k-th stop (k = 1..n), or to the end (k = n + 1). */
  metersTo: number[];
  /** loadOf[k * LOAD_DIMENSIONS + d]: dimension d of the load of the first k stops. */
  loadOf: Float64Array;
}

function profile(problem: Problem, route: Route): RouteProfile {
  const metersTo = [0];
  const loadOf = new Float64Array((route.stops.length + 1) * LOAD_DIMENSIONS);
  for (let position = 0; position <= route.stops.length; position++) {
    metersTo.push(metersTo[position]! + problem.meters(route.nodeBefore(position), route.nodeAt(position)));
  }
  route.stops.forEach((stop, k) => {
    for (let dimension = 0; dimension < LOAD_DIMENSIONS; dimension++) {
      loadOf[(k + 1) * LOAD_DIMENSIONS + dimension] =
        loadOf[k * LOAD_DIMENSIONS + dimension]! + problem.demand(stop, dimension);
    }
  });
  return { route, metersTo, loadOf };
}

/** Meters of `head`'s vehicle driving its first `cut` stops, then `tail`'s stops from `from` on, home to its own end. */
function joinedMeters(
  problem: Problem,
  head: RouteProfile,
  cut: number,
  tail: RouteProfile,
  from: number,
): number {
  const last = head.route.nodeBefore(cut);
  const end = problem.endNode(head.route.vehicle);
  const tailStops = tail.route.stops;
  if (from === tailStops.length) return head.metersTo[cut]! + problem.meters(last, end);
  const tailInside = tail.metersTo[tailStops.length]! - tail.metersTo[from + 1]!;
  return (
    head.metersTo[cut]! +
    problem.meters(last, tailStops[from]!) +
    tailInside +
    problem.meters(tailStops.at(-1)!, end)
  );
}

/** Whether `head`'s vehicle can carry its first `cut` stops plus `tail`'s stops from `from` on. */
function joinedFits(
  problem: Problem,
  head: RouteProfile,
  cut: number,
  tail: RouteProfile,
  from: number,
): boolean {
  const tailLength = tail.route.stops.length;
  for (let dimension = 0; dimension < LOAD_DIMENSIONS; dimension++) {
    const headLoad = head.loadOf[cut * LOAD_DIMENSIONS + dimension]!;
    const tailLoad =
      tail.loadOf[tailLength * LOAD_DIMENSIONS + dimension]! -
      tail.loadOf[from * LOAD_DIMENSIONS + dimension]!;
    if (headLoad + tailLoad > problem.capacity(head.route.vehicle, dimension)) return false;
  }
  return true;
}

/**
 * 2-opt*: cuts two routes and exchanges their tails (each tail then ends at its new vehicle's end).
 * It untangles crossing routes, which relocate and swap, moving one stop at a time, rarely can.
 */
function exchangeTails(problem: Problem, firstRoute: Route, secondRoute: Route): boolean {
  const first = profile(problem, firstRoute);
  const second = profile(problem, secondRoute);
  const before = firstRoute.distance + secondRoute.distance;
  for (let i = 0; i <= firstRoute.stops.length; i++) {
    for (let j = 0; j <= secondRoute.stops.length; j++) {
      const after = joinedMeters(problem, first, i, second, j) + joinedMeters(problem, second, j, first, i);
      if (before - after <= MIN_GAIN_METERS) continue;
      if (!joinedFits(problem, first, i, second, j) || !joinedFits(problem, second, j, first, i)) continue;
      const firstTail = firstRoute.stops.slice(i);
      const secondTail = secondRoute.stops.slice(j);
      if (!secondTail.every((stop) => problem.canServe(stop, firstRoute.vehicle))) continue;
      if (!firstTail.every((stop) => problem.canServe(stop, secondRoute.vehicle))) continue;
      const firstStops = [...firstRoute.stops.slice(0, i), ...secondTail];
      const secondStops = [...secondRoute.stops.slice(0, j), ...firstTail];
      const onTime =
        problem.isOnTime(firstRoute.vehicle, firstStops) &&
        problem.isOnTime(secondRoute.vehicle, secondStops);
      if (!onTime) continue;
      firstRoute.replaceStops(firstStops);
      secondRoute.replaceStops(secondStops);
      return true;
    }
  }
  return false;
}

function exchangeTailsBetweenRoutes(problem: Problem, routes: Route[], deadline: number): boolean {
  let improved = false;
  for (const [firstIndex, first] of routes.entries()) {
    for (const second of routes.slice(firstIndex + 1)) {
      while (performance.now() < deadline && exchangeTails(problem, first, second)) improved = true;
    }
  }
  return improved;
}

/** Descends until a round finds nothing or time runs out; returns the stops still left out. */
function improve(problem: Problem, routes: Route[], leftOut: number[], deadline: number): number[] {
  let remaining = leftOut;
  let changed = true;
  while (changed && performance.now() < deadline) {
    changed = false;
    for (const route of routes) {
      if (improveWithinRoute(problem, route, deadline)) changed = true;
    }
    if (relocateBetweenRoutes(problem, routes, deadline)) changed = true;
    if (swapBetweenRoutes(problem, routes, deadline)) changed = true;
    if (exchangeTailsBetweenRoutes(problem, routes, deadline)) changed = true;
    // Shorter routes may have freed the time or room a left-out stop needed.
    if (changed && remaining.length > 0) remaining = insertByRegret(routes, remaining);
  }
  return remaining;
}

function planRoute(problem: Problem, route: Route): PlannedRoute {
  const { vehicle, stops } = route;
  const start = problem.startNode(vehicle);
  const firstStop = stops[0]!;
  const shift = problem.shift(vehicle);
  // Leave as late as still starting the first service at the same time: the same day, without
  // idling at the first door for its window to open.
  const firstServiceStart = Math.max(
    shift.start + problem.seconds(start, firstStop),
    problem.readyAt[firstStop]!,
  );
  const departure = firstServiceStart - problem.seconds(start, firstStop);
  let clock = departure;
  let previous = start;
  let distanceMeters = 0;
  const planned = stops.map((stop): PlannedStop => {
    const distanceFromPreviousMeters = problem.meters(previous, stop);
    const arrival = clock + problem.seconds(previous, stop);
    const serviceStart = Math.max(arrival, problem.readyAt[stop]!);
    clock = serviceStart + problem.serviceSeconds[stop]!;
    distanceMeters += distanceFromPreviousMeters;
    previous = stop;
    return {
      stopId: problem.stops[stop]!.id,
      arrival,
      start: serviceStart,
      departure: clock,
      distanceFromPreviousMeters,
    };
  });
  const end = problem.endNode(vehicle);
  distanceMeters += problem.meters(previous, end);
  const [weightGrams = 0, volumeCm3 = 0, count = 0] = route.load;
  return {
    vehicleId: problem.vehicles[vehicle]!.id,
    stops: planned,
    distanceMeters,
    departure,
    returnTime: clock + problem.seconds(previous, end),
    load: { weightGrams, volumeCm3, count },
  };
}

export function solveRoutes(input: SolverInput): SolverOutput {
  const problem = new Problem(input);
  const reasons = new Map<number, UnassignedReason>();
  const routable: number[] = [];
  input.stops.forEach((_, stop) => {
    const reason = impossibility(problem, stop);
    if (reason === undefined) routable.push(stop);
    else reasons.set(stop, reason);
  });

  const routes = input.vehicles.map((_, vehicle) => new Route(problem, vehicle));
  let leftOut = insertByRegret(routes, routable);
  if (input.localSearch !== false) {
    // A monotonic budget, not a reading of the business clock.
    const deadline = performance.now() + (input.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
    leftOut = improve(problem, routes, leftOut, deadline);
  }
  for (const stop of leftOut) reasons.set(stop, 'fleet_full');

  const planned = routes.filter((route) => route.stops.length > 0).map((route) => planRoute(problem, route));
  const unassigned = input.stops.flatMap((stop, index) => {
    const reason = reasons.get(index);
    return reason === undefined ? [] : [{ stopId: stop.id, reason }];
  });
  return {
    routes: planned,
    unassigned,
    totals: {
      distanceMeters: planned.reduce((sum, route) => sum + route.distanceMeters, 0),
      assigned: input.stops.length - unassigned.length,
      unassigned: unassigned.length,
      vehiclesUsed: planned.length,
    },
  };
}
