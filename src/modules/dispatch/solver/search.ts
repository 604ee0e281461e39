/**
 * Construction (regret insertion) and the improvement search (SISR: slack induction by string
 * removals, after Christiaens and Vanden Berghe, Transportation Science 2020), on a `Solution`.
 *
 * Each SISR iteration ruins the current solution by removing a few strings of consecutive visits
 * from routes near a random seed visit, recreates it by inserting the removed requests one by one,
 * in a random order of several kinds, at their cheapest feasible places (skipping each place with
 * a small "blink" probability), and accepts the result by simulated annealing. More requests
 * served always beats a lower cost; among equals, the objective's cost decides (the distance, plus
 * a price per vehicle or of unevenness: see Objective). The best solution seen is kept.
 *
 * While some requests are left out (a tight fleet, or a route eliminated for fewest_vehicles), the
 * search repairs instead of annealing: see Improvement.absent and Improvement.eliminate.
 *
 * The annealing runs in epochs of doubling length (in iterations), each cooling from a high to a
 * low temperature and starting from the best solution so far. The walk through the first N
 * iterations therefore never depends on the budget: a larger budget (in iterations, or in time on
 * the same machine) replays the same walk further and never answers a worse plan. The search
 * ends early once a long epoch finds nothing better (see STALL_ITERATIONS_PER_REQUEST).
 */
import { type Insertion, type Model, noInsertion, type Solution } from './model.ts';

/** How many of a request's cheapest routes its regret compares. */
const REGRET_ROUTES = 3;

/**
 * Regret insertion: inserts the `pending` requests one at a time, always the one whose cheapest
 * route beats its next REGRET_ROUTES - 1 routes by the most (fewest feasible routes first), at
 * its cheapest place. Returns the requests that fit nowhere.
 */
export function insertByRegret(solution: Solution, pending: readonly number[]): number[] {
  const m = solution.model;
  const K = m.vehicleCount;
  const costs = new Float64Array(pending.length * K);
  const firsts = new Int32Array(pending.length * K);
  const seconds = new Int32Array(pending.length * K);
  const scratch = noInsertion();
  const never = () => 1;
  const evaluate = (index: number, k: number): void => {
    const request = pending[index]!;
    scratch.cost = Infinity;
    if (m.servable[request * K + k]) solution.bestInsertionInRoute(request, k, scratch, 0, never);
    costs[index * K + k] = scratch.cost;
    firsts[index * K + k] = scratch.first;
    seconds[index * K + k] = scratch.second;
  };
  let open = pending.map((_, index) => index);
  for (const index of open) {
    for (let k = 0; k < K; k++) evaluate(index, k);
  }

  const cheapest = new Float64Array(REGRET_ROUTES);
  for (;;) {
    let chosen = -1;
    let chosenRoute = -1;
    let chosenMissing = -1;
    let chosenRegret = -1;
    let chosenCost = -1;
    for (const index of open) {
      cheapest.fill(Infinity);
      let cheapestRoute = -1;
      for (let k = 0; k < K; k++) {
        const cost = costs[index * K + k]!;
        if (cost >= cheapest[REGRET_ROUTES - 1]!) continue;
        if (cost < cheapest[0]!) cheapestRoute = k;
        let slot = REGRET_ROUTES - 1;
        for (; slot > 0 && cheapest[slot - 1]! > cost; slot--) cheapest[slot] = cheapest[slot - 1]!;
        cheapest[slot] = cost;
      }
      if (cheapestRoute === -1) continue;
      let missing = 0;
      let regret = 0;
      for (let r = 1; r < REGRET_ROUTES; r++) {
        if (cheapest[r] === Infinity) missing++;
        else regret += cheapest[r]! - cheapest[0]!;
      }
      // Fewer options first, then the larger regret; on a tie the costlier request, the hardest to place later.
      const better =
        chosen === -1 ||
        missing > chosenMissing ||
        (missing === chosenMissing &&
          (regret > chosenRegret || (regret === chosenRegret && cheapest[0]! > chosenCost)));
      if (better) {
        chosen = index;
        chosenRoute = cheapestRoute;
        chosenMissing = missing;
        chosenRegret = regret;
        chosenCost = cheapest[0]!;
      }
    }
    if (chosen === -1) break;
    const at = chosen * K + chosenRoute;
    solution.insert(pending[chosen]!, {
      cost: costs[at]!,
      route: chosenRoute,
      first: firsts[at]!,
      second: seconds[at]!,
    });
    open = open.filter((other) => other !== chosen);
    // Only the route that grew has new costs.
    for (const other of open) evaluate(other, chosenRoute);
  }
  return open.map((index) => pending[index]!);
}

/** SISR's parameters, as published, except the temperatures, which scale with the instance. */
const AVERAGE_REMOVED = 10; // c-bar: visits removed per ruin, on average
const MAX_STRING_LENGTH = 10; // L-max
const SPLIT_RATE = 0.5; // alpha: share of split-string removals
const SPLIT_DEPTH = 0.01; // beta: how rarely a split string's kept part stops growing
const BLINK_RATE = 0.01;
/**
 * Temperatures relative to the mean length of a leg in the construction, so that they suit
 * metres and benchmark units alike. Chosen on Solomon's instances at 150,000 iterations (start 3
 * or 10, end 0.01 or 0.003, first epoch 2,000 or 8,000 gave mean gaps within 0.25-0.30 %).
 */
const START_TEMPERATURE = 3;
const FINAL_TEMPERATURE = 0.01;
/** The first epoch's length; each next one is twice as long. */
const FIRST_EPOCH_ITERATIONS = 2000;
/** Neighbours of a seed visit that ruin walks through (SISR's adjacency list, truncated). */
const NEIGHBOURS = 100;
/**
 * The search stops once a whole epoch at least this many iterations per request long finds nothing
 * better: small days settle in milliseconds instead of spending the whole budget. Like the rest of
 * the walk, this never depends on the budget.
 */
const STALL_ITERATIONS_PER_REQUEST = 2000;
/**
 * Granular recreate for large days: with more routes in use than GRANULAR_ROUTES, a request is
 * first tried only on the routes holding one of the GRANULAR_NEIGHBOURS nearest visits to it (and
 * on empty vehicles), the others only if none of those can take it. Up to 30 routes (the public
 * 100-customer benchmarks, a city day of a few hundred stops) every route is tried, as in SISR.
 */
const GRANULAR_ROUTES = 30;
const GRANULAR_NEIGHBOURS = 40;
/**
 * With fewest_vehicles or balanced, the share of ruins that empty a whole route instead of removing
 * strings: a random route (fewest_vehicles: its stops fit elsewhere or it comes back), or the
 * longest one (balanced: its stops spread over the shorter ones).
 */
const ROUTE_RUIN_RATE = 0.2;
/** How often (in iterations) the clock is read. */
const CLOCK_EVERY = 32;

/** Sort orders for recreate, with their weights (random, demand, far, close, tight window). */
const ORDER_WEIGHTS = [4, 4, 2, 1, 2];

class Sisr {
  private readonly m: Model;
  private readonly neighbours: Int32Array[];
  /** Per request: distance of its farthest visit from the nearest start (for far/close orders). */
  private readonly remoteness: Float64Array;
  /** Per request: its tightest window (for the tight-window order). */
  private readonly tightness: Float64Array;
  private readonly removed: Uint8Array;
  private readonly touched: Int32Array;
  private readonly backup: Int32Array[];
  private readonly backupLength: Int32Array;
  private readonly ruined: Int32Array;
  private readonly classSeen: Int32Array;
  private readonly near: Int32Array;
  /** Vehicles recreate may not use: while a route elimination tries to do with one route fewer. */
  private readonly closed: Uint8Array;
  private nearStamp = 0;
  private stamp = 0;
  private classStamp = 0;
  unassigned: number[];
  /** Set while some stops wait for a place: how long each has waited, the longest placed first half the time. */
  absence: Int32Array | undefined;
  private readonly insertion: Insertion = noInsertion();

  constructor(
    private readonly solution: Solution,
    unassigned: number[],
    private readonly random: () => number,
  ) {
    const m = solution.model;
    this.m = m;
    this.unassigned = unassigned;
    const V = m.visitCount;
    const L = m.locationCount;
    const K = m.vehicleCount;
    const limit = Math.min(NEIGHBOURS, V - 1);
    const order = Array.from({ length: V }, (_, v) => v);
    this.neighbours = order.map((v) => {
      const at = m.visitLocation[v]!;
      const by = (w: number) =>
        m.meters[at * L + m.visitLocation[w]!]! + m.meters[m.visitLocation[w]! * L + at]!;
      const others = order.filter((w) => w !== v);
      others.sort((a, b) => by(a) - by(b) || a - b);
      return Int32Array.from(others.slice(0, limit));
    });
    const starts = [...new Set(Array.from(m.startLocation))];
    this.remoteness = new Float64Array(m.requestCount);
    this.tightness = new Float64Array(m.requestCount);
    for (let r = 0; r < m.requestCount; r++) {
      const visits = [m.firstVisit[r]!, m.secondVisit[r]!].filter((v) => v >= 0);
      let far = 0;
      let tight = Infinity;
      for (const v of visits) {
        let near = Infinity;
        for (const s of starts) near = Math.min(near, m.meters[s * L + m.visitLocation[v]!]!);
        far = Math.max(far, near === Infinity ? 0 : near);
        tight = Math.min(tight, m.due[v]! - m.ready[v]!);
      }
      this.remoteness[r] = far;
      this.tightness[r] = tight;
    }
    this.removed = new Uint8Array(m.requestCount);
    this.touched = new Int32Array(K).fill(-1);
    this.backup = Array.from({ length: K }, () => new Int32Array(V));
    this.backupLength = new Int32Array(K);
    this.ruined = new Int32Array(K).fill(-1);
    this.classSeen = new Int32Array(m.classCount).fill(-1);
    this.near = new Int32Array(K).fill(-1);
    this.closed = new Uint8Array(K);
  }

  /** Keeps a copy of route k's visits the first time this iteration changes it. */
  private touch(k: number): void {
    if (this.touched[k] === this.stamp) return;
    this.touched[k] = this.stamp;
    const route = this.solution.routes[k]!;
    this.backup[k]!.set(route.visits.subarray(0, route.n));
    this.backupLength[k] = route.n;
  }

  /** Undoes this iteration's changes. */
  restore(touchedList: number[], unassigned: number[]): void {
    const { solution } = this;
    for (const k of touchedList) {
      const route = solution.routes[k]!;
      for (let i = 0; i < route.n; i++) {
        solution.routeOf[route.visits[i]!] = -1;
        solution.positionOf[route.visits[i]!] = -1;
      }
    }
    for (const k of touchedList) solution.setVisits(k, this.backup[k]!, this.backupLength[k]!);
    this.unassigned = unassigned;
  }

  /** One ruin and recreate; returns the routes it changed. */
  step(): number[] {
    this.stamp++;
    const touchedList: number[] = [];
    const removedRequests = this.ruin(touchedList);
    this.recreate(removedRequests, touchedList);
    return touchedList;
  }

  private ruin(touchedList: number[]): number[] {
    const { m, solution, random } = this;
    const routes = solution.routes;
    let visitsOnRoutes = 0;
    let used = 0;
    for (const route of routes) {
      if (route.n > 0) {
        visitsOnRoutes += route.n;
        used++;
      }
    }
    const requests: number[] = [];
    if (visitsOnRoutes === 0) return requests;
    if (m.objective !== 'least_distance' && random() < ROUTE_RUIN_RATE) {
      return this.ruinRoute(this.routeToEmpty(used), touchedList);
    }
    const maxLength = Math.min(MAX_STRING_LENGTH, visitsOnRoutes / used);
    const maxStrings = (4 * AVERAGE_REMOVED) / (1 + maxLength) - 1;
    const strings = Math.floor(random() * maxStrings) + 1;
    // A random visit on a route.
    let seed = Math.floor(random() * m.visitCount);
    while (solution.routeOf[seed]! < 0) seed = (seed + 1) % m.visitCount;
    const neighbours = this.neighbours[seed]!;
    let ruinedRoutes = 0;
    for (let index = -1; index < neighbours.length && ruinedRoutes < strings; index++) {
      const visit = index < 0 ? seed : neighbours[index]!;
      const k = solution.routeOf[visit]!;
      if (k < 0 || this.ruined[k] === this.stamp) continue;
      this.ruined[k] = this.stamp;
      ruinedRoutes++;
      const route = routes[k]!;
      const n = route.n;
      const length = Math.floor(random() * Math.min(n, maxLength)) + 1;
      const at = solution.positionOf[visit]! - 1; // index in route.visits
      const markFrom = (from: number, count: number, keepFrom: number, keepCount: number): void => {
        for (let i = from; i < from + count; i++) {
          if (i >= keepFrom && i < keepFrom + keepCount) continue;
          const request = m.visitRequest[route.visits[i]!]!;
          if (!this.removed[request]) {
            this.removed[request] = 1;
            requests.push(request);
          }
        }
      };
      if (length === n || random() >= SPLIT_RATE) {
        const lowest = Math.max(0, at - length + 1);
        const highest = Math.min(at, n - length);
        const from = lowest + Math.floor(random() * (highest - lowest + 1));
        markFrom(from, length, 0, 0);
      } else {
        // Split string: a string of length + kept visits, of which a run of `kept` stays.
        let kept = 1;
        while (length + kept < n && random() > SPLIT_DEPTH) kept++;
        const span = length + kept;
        const lowest = Math.max(0, at - span + 1);
        const highest = Math.min(at, n - span);
        const from = lowest + Math.floor(random() * (highest - lowest + 1));
        const keepFrom = from + Math.floor(random() * (length + 1));
        markFrom(from, span, keepFrom, kept);
      }
    }
    // Take the marked requests off their routes (a P2P partner may sit on an unruined stretch).
    for (const request of requests) {
      const k = solution.routeOf[m.firstVisit[request]!]!;
      if (k >= 0 && this.touched[k] !== this.stamp) {
        this.touch(k);
        touchedList.push(k);
      }
    }
    for (const k of touchedList) solution.removeMarked(k, this.removed);
    for (const request of requests) this.removed[request] = 0;
    return requests;
  }

  /** The route a route ruin empties: a random used one, or for balanced the longest. */
  private routeToEmpty(used: number): number {
    const { m, solution, random } = this;
    const routes = solution.routes;
    if (m.objective === 'balanced') {
      let longest = -1;
      routes.forEach((route, k) => {
        if (route.n > 0 && (longest < 0 || route.duration > routes[longest]!.duration)) longest = k;
      });
      return longest;
    }
    let pick = Math.floor(random() * used);
    for (let k = 0; k < routes.length; k++) {
      if (routes[k]!.n > 0 && pick-- === 0) return k;
    }
    return -1;
  }

  /**
   * Route elimination: takes every visit off the shortest used route (fewest visits) and closes
   * every vehicle left empty, so the plan must serve its stops with one route fewer.
   */
  dropRoute(): void {
    const routes = this.solution.routes;
    let shortest = -1;
    routes.forEach((route, k) => {
      if (route.n > 0 && (shortest < 0 || route.n < routes[shortest]!.n)) shortest = k;
    });
    this.stamp++;
    this.unassigned = this.unassigned.concat(this.ruinRoute(shortest, []));
    routes.forEach((route, k) => {
      this.closed[k] = route.n === 0 ? 1 : 0;
    });
  }

  /** Every vehicle usable again. */
  reopen(): void {
    this.closed.fill(0);
  }

  /** Takes every visit off route k. */
  private ruinRoute(k: number, touchedList: number[]): number[] {
    const { m, solution } = this;
    const route = solution.routes[k]!;
    const requests: number[] = [];
    for (let i = 0; i < route.n; i++) {
      const request = m.visitRequest[route.visits[i]!]!;
      if (!this.removed[request]) {
        this.removed[request] = 1;
        requests.push(request);
      }
    }
    this.touch(k);
    touchedList.push(k);
    solution.removeMarked(k, this.removed);
    for (const request of requests) this.removed[request] = 0;
    return requests;
  }

  private recreate(removed: number[], touchedList: number[]): void {
    const { solution } = this;
    const pending = removed.concat(this.unassigned);
    this.sort(pending);
    const best = this.insertion;
    const unassigned: number[] = [];
    let used = 0;
    for (const route of solution.routes) if (route.n > 0) used++;
    const granular = used > GRANULAR_ROUTES;
    for (const request of pending) {
      best.cost = Infinity;
      best.route = -1;
      if (granular) {
        // Only the routes near the request first; all of them if none of those can take it.
        this.markNearRoutes(request);
        this.tryRoutes(request, true);
      }
      if (best.route < 0) this.tryRoutes(request, false);
      if (best.route < 0) {
        unassigned.push(request);
        continue;
      }
      if (this.touched[best.route] !== this.stamp) {
        this.touch(best.route);
        touchedList.push(best.route);
      }
      solution.insert(request, best);
    }
    this.unassigned = unassigned;
  }

  /** Improves this.insertion with the request's best place in each route (near ones only if asked). */
  private tryRoutes(request: number, nearOnly: boolean): void {
    const { m, solution, random } = this;
    const K = m.vehicleCount;
    this.classStamp++;
    for (let k = 0; k < K; k++) {
      if (!m.servable[request * K + k] || this.closed[k]) continue;
      if (solution.routes[k]!.n === 0) {
        // One empty vehicle of each kind is enough to try.
        const cls = m.vehicleClass[k]!;
        if (this.classSeen[cls] === this.classStamp) continue;
        this.classSeen[cls] = this.classStamp;
      } else if (nearOnly && this.near[k] !== this.nearStamp) {
        continue;
      }
      solution.bestInsertionInRoute(request, k, this.insertion, BLINK_RATE, random);
    }
  }

  /** Marks the routes holding one of the GRANULAR_NEIGHBOURS nearest visits of the request's visits. */
  private markNearRoutes(request: number): void {
    const { m, solution } = this;
    this.nearStamp++;
    for (const v of [m.firstVisit[request]!, m.secondVisit[request]!]) {
      if (v < 0) continue;
      const neighbours = this.neighbours[v]!;
      const count = Math.min(GRANULAR_NEIGHBOURS, neighbours.length);
      for (let i = 0; i < count; i++) {
        const k = solution.routeOf[neighbours[i]!]!;
        if (k >= 0) this.near[k] = this.nearStamp;
      }
    }
  }

  private sort(pending: number[]): void {
    const { random } = this;
    // Shuffle first: ties, and the random order itself.
    for (let i = pending.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const swap = pending[i]!;
      pending[i] = pending[j]!;
      pending[j] = swap;
    }
    const total = ORDER_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
    let pick = random() * total;
    let order = 0;
    while (pick >= ORDER_WEIGHTS[order]!) {
      pick -= ORDER_WEIGHTS[order]!;
      order++;
    }
    const { m, remoteness, tightness, absence } = this;
    if (absence !== undefined && random() < 0.5) pending.sort((a, b) => absence[b]! - absence[a]!);
    else if (order === 1) pending.sort((a, b) => m.size[b]! - m.size[a]!);
    else if (order === 2) pending.sort((a, b) => remoteness[b]! - remoteness[a]!);
    else if (order === 3) pending.sort((a, b) => remoteness[a]! - remoteness[b]!);
    else if (order === 4) pending.sort((a, b) => tightness[a]! - tightness[b]!);
  }
}

/** Copies of every route's visits, to keep the best solution. */
function snapshot(solution: Solution): Int32Array[] {
  return solution.routes.map((route) => route.visits.slice(0, route.n));
}

function load(solution: Solution, routes: Int32Array[]): void {
  solution.routeOf.fill(-1);
  solution.positionOf.fill(-1);
  routes.forEach((visits, k) => {
    solution.setVisits(k, visits, visits.length);
  });
}

/**
 * Improves a solution in place by SISR, in slices (`run`) so that a caller may yield between them;
 * `finish` leaves the best solution found in it. The walk depends only on the solution, the seed
 * and the iteration count, never on how the work is sliced.
 */
export class Improvement {
  private readonly sisr: Sisr | undefined;
  private readonly hot: number;
  private readonly cold: number;
  private currentCost: number;
  private currentMissing: number;
  private best: Int32Array[];
  private bestCost: number;
  private bestUnassigned: number[];
  iterations = 0;
  private epochStart = 0;
  private epochLength = FIRST_EPOCH_ITERATIONS;
  private improvedInEpoch = false;
  /** Per request: the iterations it has spent unserved while the search repaired (see `absent`). */
  private readonly absence: Int32Array;
  /** A route elimination is under way (see `eliminate`). */
  private eliminating = false;
  /** The best plan left out fewer stops during this epoch (see run: a repair that stalls). */
  private fewerMissingInEpoch = false;
  /** The repair stalled: the stops still left out stay out, and distance is annealed. */
  private repairGivenUp = false;
  done = false;

  constructor(
    private readonly solution: Solution,
    leftOut: number[],
    private readonly random: () => number,
  ) {
    let routesOn = 0;
    let visitsOn = 0;
    for (const route of solution.routes) {
      if (route.n > 0) {
        routesOn++;
        visitsOn += route.n;
      }
    }
    // Positive even when every stop is at the depot's door, so the temperatures stay numbers.
    const meanLeg = Math.max(visitsOn > 0 ? solution.distance() / (visitsOn + routesOn) : 1, 1e-6);
    this.hot = START_TEMPERATURE * meanLeg;
    this.cold = FINAL_TEMPERATURE * meanLeg;
    // Nothing on a route and nothing to place: nothing to search.
    this.sisr = visitsOn === 0 && leftOut.length === 0 ? undefined : new Sisr(solution, [...leftOut], random);
    this.done = this.sisr === undefined;
    this.currentCost = solution.cost();
    this.currentMissing = leftOut.length;
    this.best = snapshot(solution);
    this.bestCost = this.currentCost;
    this.bestUnassigned = [...leftOut];
    this.absence = new Int32Array(solution.model.requestCount);
  }

  /** fewest_vehicles: one route fewer tried at the start of each epoch, while every stop is served. */
  private eliminate(): void {
    const { sisr, solution } = this;
    let used = 0;
    for (const route of solution.routes) if (route.n > 0) used++;
    if (sisr === undefined || used < 2) return;
    sisr.dropRoute();
    this.eliminating = true;
    this.currentCost = solution.cost();
    this.currentMissing = sisr.unassigned.length;
  }

  /**
   * How long these requests have waited unserved, summed. While some stops are left out (a fleet
   * too tight for the construction), a plan is accepted when it leaves fewer out or leaves out
   * ones that waited less, whatever its distance: the stops that keep failing are tried first
   * until every stop fits (SISR's fleet minimisation, Christiaens and Vanden Berghe 2020, section
   * 6, after the ejection search of Nagata and Bräysy 2009). Then distance is annealed as usual;
   * so it is too when a long epoch of repair serves no more stops (an overbooked day).
   */
  private absent(requests: readonly number[]): number {
    let sum = 0;
    for (const request of requests) sum += this.absence[request]!;
    return sum;
  }

  /**
   * At the end of an epoch: stops the search when it has settled (answers true), else starts the
   * next epoch, giving up a stalled repair or a failed route elimination on the way.
   */
  private endEpoch(sisr: Sisr, requests: number): boolean {
    const { solution } = this;
    const long = this.epochLength >= STALL_ITERATIONS_PER_REQUEST * requests;
    // Settled, unless some stops still wait for a place and the repair still tries.
    if (!this.improvedInEpoch && long && (this.bestUnassigned.length === 0 || this.repairGivenUp)) {
      this.done = true;
      return true;
    }
    // A repair that served no more stops in a whole long epoch gives up for good: the plan
    // serves as many as it found, and its distance (which the repair ignored) is annealed.
    const repairStalls =
      this.currentMissing > 0 &&
      !this.eliminating &&
      !this.repairGivenUp &&
      !this.fewerMissingInEpoch &&
      long;
    this.improvedInEpoch = false;
    this.fewerMissingInEpoch = false;
    // A new, twice longer epoch, from the best solution so far (a repair walks on where it is).
    this.epochStart = this.iterations;
    this.epochLength = repairStalls ? FIRST_EPOCH_ITERATIONS : this.epochLength * 2;
    if (repairStalls) this.repairGivenUp = true;
    // A route elimination that could not serve everyone within its epoch gives up.
    const givingUp = this.eliminating && this.currentMissing > 0;
    if (givingUp) {
      this.eliminating = false;
      sisr.reopen();
    }
    if (this.currentMissing === 0 || givingUp || repairStalls) {
      load(solution, this.best);
      sisr.unassigned = [...this.bestUnassigned];
      this.currentCost = this.bestCost;
      this.currentMissing = this.bestUnassigned.length;
    }
    if (solution.model.objective === 'fewest_vehicles' && this.currentMissing === 0 && !givingUp) {
      this.eliminate();
    }
    return false;
  }

  /** Searches until the deadline (a performance.now() value), the iteration budget, or a stall. */
  run(deadline: number, maxIterations: number): void {
    const { sisr, solution, random } = this;
    if (sisr === undefined || this.done) return;
    const requests = solution.model.requestCount;
    while (this.iterations < maxIterations) {
      if (this.iterations % CLOCK_EVERY === 0 && performance.now() >= deadline) return;
      if (this.iterations - this.epochStart >= this.epochLength && this.endEpoch(sisr, requests)) return;
      const progress = (this.iterations - this.epochStart) / this.epochLength;
      const temperature = this.hot * (this.cold / this.hot) ** progress;
      const unassignedBefore = sisr.unassigned;
      const repairing = this.currentMissing > 0 && !this.repairGivenUp;
      sisr.absence = repairing ? this.absence : undefined;
      const touched = sisr.step();
      this.iterations++;
      // Summed afresh (O(vehicles)), so rounding never drifts.
      const cost = solution.cost();
      const missing = sisr.unassigned.length;
      const accept = repairing
        ? missing < this.currentMissing || this.absent(sisr.unassigned) < this.absent(unassignedBefore)
        : missing < this.currentMissing ||
          (missing === this.currentMissing && cost < this.currentCost - temperature * Math.log(random()));
      if (repairing)
        for (const request of accept ? sisr.unassigned : unassignedBefore) this.absence[request]!++;
      if (!accept) {
        sisr.restore(touched, unassignedBefore);
        continue;
      }
      if (repairing && missing === 0) {
        // Every stop served: the distance is annealed afresh from here, from the high temperature.
        this.epochStart = this.iterations;
        this.epochLength = FIRST_EPOCH_ITERATIONS;
        this.eliminating = false;
        sisr.reopen();
      }
      this.currentCost = cost;
      this.currentMissing = missing;
      const bestMissing = this.bestUnassigned.length;
      if (missing < bestMissing || (missing === bestMissing && cost < this.bestCost - 1e-9)) {
        if (missing < bestMissing) this.fewerMissingInEpoch = true;
        this.best = snapshot(solution);
        this.improvedInEpoch = true;
        this.bestCost = cost;
        this.bestUnassigned = [...sisr.unassigned];
      }
    }
    this.done = true;
  }

  /** Leaves the best solution found in place; returns the requests it leaves out. */
  finish(): number[] {
    if (this.sisr !== undefined) load(this.solution, this.best);
    return this.bestUnassigned;
  }
}
