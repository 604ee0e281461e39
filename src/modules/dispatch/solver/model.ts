/**
 * The solver's compiled problem and its working solution, in flat typed arrays so that the search's
 * inner loops allocate nothing.
 *
 * A request is one input stop: one visit, or two for a pickup-and-delivery (P2P) order, its
 * pickup visit then its delivery visit. Each route keeps, per position, the earliest departure
 * (forward), the latest arrival that keeps the rest of the route on time (backward), the load on
 * board and its running maxima from either end, so that checking an insertion is O(1) per place
 * (per pair of places for a P2P order, scanning the deliveries after each pickup incrementally).
 */
import { haversineMeters, pointKey } from './distance.ts';
import { BALANCE_METERS_PER_SECOND, roundTripBound } from './objective.ts';
import type { Load, Objective, Point, SolverInput } from './types.ts';

/** A delivery loaded at the depot: on board from the start until its visit. */
export const DEPOT_DELIVERY = 0;
/** A pickup brought back to the depot: on board from its visit to the end. */
export const DEPOT_PICKUP = 1;
/** The pickup leg of a P2P order: on board from here to its delivery leg. */
export const PAIR_PICKUP = 2;
/** The delivery leg of a P2P order. */
export const PAIR_DELIVERY = 3;

const DEFAULT_SPEED_METERS_PER_SECOND = 8.33;
const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;

/** Why a request can never be served, or undefined when some vehicle could serve it alone. */
export type Impossibility = 'capacity' | 'skills' | 'time_window' | undefined;

export class Model {
  readonly requestCount: number;
  readonly vehicleCount: number;
  readonly visitCount: number;
  /** The load dimensions some demand uses (indices into LOAD_KEYS); the others are never checked. */
  readonly dimensions: number[];
  readonly dimensionCount: number;
  readonly locationCount: number;
  /** meters[a * locationCount + b], seconds likewise: between unique locations. */
  readonly meters: Float64Array;
  readonly seconds: Float64Array;

  readonly visitLocation: Int32Array;
  readonly visitRequest: Int32Array;
  readonly visitKind: Uint8Array;
  /** The other visit of a P2P order, or -1. */
  readonly partner: Int32Array;
  readonly ready: Float64Array;
  readonly due: Float64Array;
  readonly service: Float64Array;
  /** Per visit and dimension: added to the load at the start (depot deliveries). */
  readonly startLoad: Float64Array;
  /** Per visit and dimension: the change of the load on board when the visit is done. */
  readonly change: Float64Array;

  readonly firstVisit: Int32Array;
  /** The delivery visit of a P2P request, or -1. */
  readonly secondVisit: Int32Array;
  /** Sum over dimensions of the demand relative to the largest capacity: for ordering insertions. */
  readonly size: Float64Array;

  readonly startLocation: Int32Array;
  readonly endLocation: Int32Array;
  readonly shiftStart: Float64Array;
  readonly shiftEnd: Float64Array;
  readonly capacity: Float64Array;
  /** Vehicles alike in every respect share a class: the search tries one empty vehicle per class. */
  readonly vehicleClass: Int32Array;
  readonly classCount: number;
  /** servable[request * vehicleCount + vehicle]: skills held, fits, and a lone trip is on time. */
  readonly servable: Uint8Array;
  readonly impossibility: Impossibility[];
  readonly objective: Objective;
  /** Per request: the service time of its visits (what it adds to a route besides driving). */
  readonly requestService: Float64Array;
  /** fewest_vehicles' price of a vehicle used (see roundTripBound); 0 otherwise. */
  readonly vehicleCost: number;

  constructor(readonly input: SolverInput) {
    const { stops, vehicles } = input;
    const distance = input.distance ?? haversineMeters;
    const speed = input.speedMetersPerSecond ?? DEFAULT_SPEED_METERS_PER_SECOND;
    const round = input.roundTravelTimes !== false;
    this.objective = input.objective ?? 'least_distance';
    this.requestCount = stops.length;
    this.vehicleCount = vehicles.length;
    this.dimensions = LOAD_KEYS.flatMap((key, index) =>
      stops.some((stop) => stop.demand[key] > 0) ? [index] : [],
    );
    const D = this.dimensions.length;
    this.dimensionCount = D;

    // Unique locations, so that vehicles sharing a depot and stops sharing a door share a row.
    const points: Point[] = [];
    const locationIndex = new Map<string, number>();
    const locate = (point: Point): number => {
      const key = pointKey(point);
      let index = locationIndex.get(key);
      if (index === undefined) {
        index = points.length;
        points.push(point);
        locationIndex.set(key, index);
      }
      return index;
    };

    this.visitCount = stops.reduce((sum, stop) => sum + (stop.pickup ? 2 : 1), 0);
    const V = this.visitCount;
    this.visitLocation = new Int32Array(V);
    this.visitRequest = new Int32Array(V);
    this.visitKind = new Uint8Array(V);
    this.partner = new Int32Array(V).fill(-1);
    this.ready = new Float64Array(V);
    this.due = new Float64Array(V);
    this.service = new Float64Array(V);
    this.startLoad = new Float64Array(V * D);
    this.change = new Float64Array(V * D);
    this.firstVisit = new Int32Array(stops.length);
    this.secondVisit = new Int32Array(stops.length).fill(-1);
    this.size = new Float64Array(stops.length);

    let visit = 0;
    const addVisit = (
      request: number,
      kind: number,
      location: Point,
      serviceSeconds: number,
      window: { start: number; end: number } | undefined,
      demand: Load,
    ): number => {
      this.visitLocation[visit] = locate(location);
      this.visitRequest[visit] = request;
      this.visitKind[visit] = kind;
      this.ready[visit] = window?.start ?? -Infinity;
      this.due[visit] = window?.end ?? Infinity;
      this.service[visit] = serviceSeconds;
      this.dimensions.forEach((dimension, d) => {
        const amount = demand[LOAD_KEYS[dimension]!];
        if (kind === DEPOT_DELIVERY) this.startLoad[visit * D + d] = amount;
        this.change[visit * D + d] = kind === DEPOT_DELIVERY || kind === PAIR_DELIVERY ? -amount : amount;
      });
      return visit++;
    };
    stops.forEach((stop, request) => {
      if (stop.pickup) {
        const pickup = addVisit(
          request,
          PAIR_PICKUP,
          stop.pickup.location,
          stop.pickup.serviceSeconds,
          stop.pickup.window,
          stop.demand,
        );
        const delivery = addVisit(
          request,
          PAIR_DELIVERY,
          stop.location,
          stop.serviceSeconds,
          stop.window,
          stop.demand,
        );
        this.partner[pickup] = delivery;
        this.partner[delivery] = pickup;
        this.firstVisit[request] = pickup;
        this.secondVisit[request] = delivery;
      } else {
        const kind = stop.kind === 'pickup' ? DEPOT_PICKUP : DEPOT_DELIVERY;
        this.firstVisit[request] = addVisit(
          request,
          kind,
          stop.location,
          stop.serviceSeconds,
          stop.window,
          stop.demand,
        );
      }
    });

    const K = vehicles.length;
    this.startLocation = new Int32Array(K);
    this.endLocation = new Int32Array(K);
    this.shiftStart = new Float64Array(K);
    this.shiftEnd = new Float64Array(K);
    this.capacity = new Float64Array(K * D);
    this.vehicleClass = new Int32Array(K);
    const classes = new Map<string, number>();
    vehicles.forEach((vehicle, k) => {
      this.startLocation[k] = locate(vehicle.start);
      this.endLocation[k] = locate(vehicle.end ?? vehicle.start);
      this.shiftStart[k] = vehicle.shift.start;
      this.shiftEnd[k] = vehicle.shift.end;
      this.dimensions.forEach((dimension, d) => {
        this.capacity[k * D + d] = vehicle.capacity[LOAD_KEYS[dimension]!];
      });
      const key = JSON.stringify([
        this.startLocation[k],
        this.endLocation[k],
        vehicle.shift,
        vehicle.capacity,
        [...vehicle.skills].sort(),
      ]);
      let cls = classes.get(key);
      if (cls === undefined) {
        cls = classes.size;
        classes.set(key, cls);
      }
      this.vehicleClass[k] = cls;
    });
    this.classCount = classes.size;

    const L = points.length;
    this.locationCount = L;
    this.meters = new Float64Array(L * L);
    this.seconds = new Float64Array(L * L);
    if (input.travel) {
      const { travel } = input;
      const rows = new Map(travel.points.map((point, index) => [pointKey(point), index]));
      const row = points.map((point) => {
        const index = rows.get(pointKey(point));
        if (index === undefined) throw new Error(`The travel table has no row for ${pointKey(point)}`);
        return index;
      });
      for (let a = 0; a < L; a++) {
        for (let b = 0; b < L; b++) {
          if (a === b) continue;
          this.meters[a * L + b] = travel.meters[row[a]!]![row[b]!]!;
          this.seconds[a * L + b] = travel.seconds[row[a]!]![row[b]!]!;
        }
      }
    } else {
      for (let a = 0; a < L; a++) {
        for (let b = 0; b < L; b++) {
          const meters = a === b ? 0 : distance(points[a]!, points[b]!);
          this.meters[a * L + b] = meters;
          this.seconds[a * L + b] = round ? Math.ceil(meters / speed) : meters / speed;
        }
      }
    }
    this.requestService = new Float64Array(stops.length);
    for (let v = 0; v < V; v++) this.requestService[this.visitRequest[v]!]! += this.service[v]!;
    this.vehicleCost = this.objective === 'fewest_vehicles' ? roundTripBound(this) : 0;

    const largest = this.dimensions.map((_, d) => {
      let most = 0;
      for (let k = 0; k < K; k++) most = Math.max(most, this.capacity[k * D + d]!);
      return most;
    });
    stops.forEach((stop, request) => {
      this.size[request] = this.dimensions.reduce(
        (sum, dimension, d) => sum + (largest[d]! > 0 ? stop.demand[LOAD_KEYS[dimension]!] / largest[d]! : 0),
        0,
      );
    });

    this.servable = new Uint8Array(stops.length * K);
    this.impossibility = stops.map((stop, request) => {
      // An empty fleet has no capacity at all: 'capacity' says "add vehicles", 'skills' would mislead.
      if (K === 0) return 'capacity';
      let skilled = false;
      let roomy = false;
      let onTime = false;
      vehicles.forEach((vehicle, k) => {
        if (!(stop.requiredSkills ?? []).every((skill) => vehicle.skills.includes(skill))) return;
        skilled = true;
        if (!LOAD_KEYS.every((key) => stop.demand[key] <= vehicle.capacity[key])) return;
        roomy = true;
        if (!this.loneTripOnTime(request, k)) return;
        onTime = true;
        this.servable[request * K + k] = 1;
      });
      if (!skilled) return 'skills';
      if (!roomy) return 'capacity';
      return onTime ? undefined : 'time_window';
    });
  }

  /** Whether vehicle `k`, leaving at its shift start, serves the request alone within windows and shift. */
  private loneTripOnTime(request: number, k: number): boolean {
    const L = this.locationCount;
    let clock = this.shiftStart[k]!;
    let at = this.startLocation[k]!;
    const visits = [this.firstVisit[request]!, this.secondVisit[request]!].filter((v) => v >= 0);
    for (const v of visits) {
      const arrival = clock + this.seconds[at * L + this.visitLocation[v]!]!;
      if (arrival > this.due[v]!) return false;
      clock = Math.max(arrival, this.ready[v]!) + this.service[v]!;
      at = this.visitLocation[v]!;
    }
    return clock + this.seconds[at * L + this.endLocation[k]!]! <= this.shiftEnd[k]!;
  }
}

/** One vehicle's visits with the running figures that make insertion checks O(1). */
export class RouteState {
  n = 0;
  readonly visits: Int32Array;
  /** Locations by position: 0 the start, 1..n the visits, n + 1 the end. */
  readonly nodes: Int32Array;
  /** dep[p]: earliest departure from position p (dep[n + 1]: arrival at the end). */
  readonly dep: Float64Array;
  /** latest[p]: the latest arrival at position p that keeps every later window and the shift. */
  readonly latest: Float64Array;
  /** load[p * D + d]: on board leaving position p (p = 0: leaving the start). */
  readonly load: Float64Array;
  /** Running maxima of `load` over positions 0..p (prefix) and p..n (suffix). */
  readonly prefix: Float64Array;
  readonly suffix: Float64Array;
  distance = 0;
  /** From the planned departure (as late as the first window allows) to the return; 0 when empty. */
  duration = 0;

  constructor(
    private readonly model: Model,
    readonly vehicle: number,
  ) {
    const V = model.visitCount;
    const D = model.dimensionCount;
    this.visits = new Int32Array(V);
    this.nodes = new Int32Array(V + 2);
    this.dep = new Float64Array(V + 2);
    this.latest = new Float64Array(V + 2);
    this.load = new Float64Array((V + 1) * D);
    this.prefix = new Float64Array((V + 1) * D);
    this.suffix = new Float64Array((V + 1) * D);
  }

  /** Recomputes every running figure after the visits changed; records where each visit is. */
  refresh(routeOf: Int32Array, positionOf: Int32Array): void {
    const m = this.model;
    const L = m.locationCount;
    const D = m.dimensionCount;
    const { n, visits, nodes, dep, latest, load, prefix, suffix } = this;
    const k = this.vehicle;
    nodes[0] = m.startLocation[k]!;
    dep[0] = m.shiftStart[k]!;
    for (let d = 0; d < D; d++) load[d] = 0;
    let distance = 0;
    for (let p = 1; p <= n; p++) {
      const v = visits[p - 1]!;
      routeOf[v] = k;
      positionOf[v] = p;
      const at = m.visitLocation[v]!;
      nodes[p] = at;
      const from = nodes[p - 1]!;
      distance += m.meters[from * L + at]!;
      const arrival = dep[p - 1]! + m.seconds[from * L + at]!;
      const ready = m.ready[v]!;
      dep[p] = (arrival > ready ? arrival : ready) + m.service[v]!;
      for (let d = 0; d < D; d++) load[d]! += m.startLoad[v * D + d]!;
    }
    const end = m.endLocation[k]!;
    nodes[n + 1] = end;
    distance += m.meters[nodes[n]! * L + end]!;
    dep[n + 1] = dep[n]! + m.seconds[nodes[n]! * L + end]!;
    this.distance = distance;
    latest[n + 1] = m.shiftEnd[k]!;
    for (let p = n; p >= 1; p--) {
      const v = visits[p - 1]!;
      const latestStart = latest[p + 1]! - m.seconds[nodes[p]! * L + nodes[p + 1]!]! - m.service[v]!;
      const due = m.due[v]!;
      latest[p] = due < latestStart ? due : latestStart;
    }
    latest[0] = latest[1]! - m.seconds[nodes[0]! * L + nodes[1]!]!;
    if (n === 0) {
      this.duration = 0;
    } else {
      const firstLeg = m.seconds[nodes[0]! * L + nodes[1]!]!;
      const departure = Math.max(dep[0]!, m.ready[visits[0]!]! - firstLeg);
      this.duration = dep[n + 1]! - departure;
    }
    for (let p = 1; p <= n; p++) {
      const v = visits[p - 1]!;
      for (let d = 0; d < D; d++) load[p * D + d] = load[(p - 1) * D + d]! + m.change[v * D + d]!;
    }
    for (let d = 0; d < D; d++) {
      prefix[d] = load[d]!;
      for (let p = 1; p <= n; p++) {
        const value = load[p * D + d]!;
        const before = prefix[(p - 1) * D + d]!;
        prefix[p * D + d] = value > before ? value : before;
      }
      suffix[n * D + d] = load[n * D + d]!;
      for (let p = n - 1; p >= 0; p--) {
        const value = load[p * D + d]!;
        const after = suffix[(p + 1) * D + d]!;
        suffix[p * D + d] = value > after ? value : after;
      }
    }
  }
}

/** Where a request goes best: its cost and the places (gaps) of its visits; cost Infinity if nowhere. */
export interface Insertion {
  cost: number;
  route: number;
  /** The first visit goes after position `first`; a P2P delivery after position `second` >= first. */
  first: number;
  second: number;
}

export const noInsertion = (): Insertion => ({ cost: Infinity, route: -1, first: -1, second: -1 });

/** A set of routes, one per vehicle, and the requests on none. */
export class Solution {
  readonly routes: RouteState[];
  readonly routeOf: Int32Array;
  readonly positionOf: Int32Array;

  constructor(readonly model: Model) {
    this.routes = Array.from({ length: model.vehicleCount }, (_, k) => new RouteState(model, k));
    this.routeOf = new Int32Array(model.visitCount).fill(-1);
    this.positionOf = new Int32Array(model.visitCount).fill(-1);
    for (const route of this.routes) route.refresh(this.routeOf, this.positionOf);
  }

  distance(): number {
    let sum = 0;
    for (const route of this.routes) sum += route.distance;
    return sum;
  }

  /** What the objective minimises (see Objective): the distance, plus its price of vehicles or of unevenness. */
  cost(): number {
    const m = this.model;
    if (m.objective === 'least_distance') return this.distance();
    let distance = 0;
    let used = 0;
    let longest = 0;
    let shortest = Infinity;
    for (const route of this.routes) {
      distance += route.distance;
      if (route.n > 0) used++;
      if (route.duration > longest) longest = route.duration;
      if (route.duration < shortest) shortest = route.duration;
    }
    if (m.objective === 'fewest_vehicles') return distance + m.vehicleCost * used;
    return distance + BALANCE_METERS_PER_SECOND * (used > 0 ? longest - shortest : 0);
  }

  /** Bumped by every change of a route, so that figures over all routes are summed once per change. */
  private version = 0;
  private meanVersion = -1;
  private mean = 0;

  /** The mean route duration over all vehicles, an idle one counting 0. */
  private meanDuration(): number {
    if (this.meanVersion !== this.version) {
      let sum = 0;
      for (const route of this.routes) sum += route.duration;
      this.mean = sum / this.routes.length;
      this.meanVersion = this.version;
    }
    return this.mean;
  }

  /**
   * What an objective adds to the price of putting `request` on route k, besides the distance:
   * fewest_vehicles, the vehicle's cost when the route is empty; balanced, the unevenness price of
   * the time the route would then run beyond the fleet's mean (the request's service, and for an
   * empty route the round trip to it too). Steers recreate; the acceptance weighs the true cost.
   */
  private insertionExtra(request: number, k: number): number {
    const m = this.model;
    const route = this.routes[k]!;
    if (m.objective === 'fewest_vehicles') return route.n === 0 ? m.vehicleCost : 0;
    const L = m.locationCount;
    const added = m.requestService[request]!;
    let after = route.duration + added;
    if (route.n === 0) {
      const at = m.visitLocation[m.firstVisit[request]!]!;
      after += m.seconds[m.startLocation[k]! * L + at]! + m.seconds[at * L + m.endLocation[k]!]!;
    }
    const target = this.meanDuration() + added / this.routes.length;
    return after > target ? BALANCE_METERS_PER_SECOND * (after - target) : 0;
  }

  /** Sets a route's visits and refreshes it. */
  setVisits(k: number, visits: ArrayLike<number>, length: number): void {
    this.version++;
    const route = this.routes[k]!;
    for (let i = 0; i < length; i++) route.visits[i] = visits[i]!;
    route.n = length;
    route.refresh(this.routeOf, this.positionOf);
  }

  /** Puts a request where `insertion` says. */
  insert(request: number, insertion: Insertion): void {
    this.version++;
    const m = this.model;
    const route = this.routes[insertion.route]!;
    const { visits } = route;
    const first = m.firstVisit[request]!;
    const second = m.secondVisit[request]!;
    if (second >= 0) {
      // The delivery first, at its index in the route as it was; the pickup then lands before it.
      visits.copyWithin(insertion.second + 1, insertion.second, route.n);
      visits[insertion.second] = second;
      route.n++;
    }
    visits.copyWithin(insertion.first + 1, insertion.first, route.n);
    visits[insertion.first] = first;
    route.n++;
    route.refresh(this.routeOf, this.positionOf);
  }

  /** Takes visits marked in `removed` (by request) out of route k. */
  removeMarked(k: number, removed: Uint8Array): void {
    this.version++;
    const m = this.model;
    const route = this.routes[k]!;
    let kept = 0;
    for (let i = 0; i < route.n; i++) {
      const v = route.visits[i]!;
      if (removed[m.visitRequest[v]!]) {
        this.routeOf[v] = -1;
        this.positionOf[v] = -1;
      } else {
        route.visits[kept++] = v;
      }
    }
    route.n = kept;
    route.refresh(this.routeOf, this.positionOf);
  }

  /**
   * The cheapest feasible place for `request` in route `k`, improving on `best` in place. With
   * `blink` > 0 each place is skipped with that probability (SISR's blinks).
   */
  bestInsertionInRoute(
    request: number,
    k: number,
    best: Insertion,
    blink: number,
    random: () => number,
  ): void {
    const m = this.model;
    const route = this.routes[k]!;
    // A place must beat the best so far by the objective's extra: compare its distance with what is left.
    const extra = m.objective === 'least_distance' ? 0 : this.insertionExtra(request, k);
    best.cost -= extra;
    if (m.secondVisit[request]! >= 0) this.pairInsertion(request, route, best, blink, random);
    else this.singleInsertion(m.firstVisit[request]!, route, best, blink, random);
    best.cost += extra;
  }

  private singleInsertion(
    v: number,
    route: RouteState,
    best: Insertion,
    blink: number,
    random: () => number,
  ): void {
    const m = this.model;
    const L = m.locationCount;
    const D = m.dimensionCount;
    const { n, nodes, dep, latest, prefix, suffix } = route;
    const k = route.vehicle;
    const at = m.visitLocation[v]!;
    const due = m.due[v]!;
    const ready = m.ready[v]!;
    const service = m.service[v]!;
    const kind = m.visitKind[v]!;
    for (let g = 0; g <= n; g++) {
      const leaveBefore = dep[g]!;
      if (leaveBefore > due) break;
      if (D > 0) {
        let fits = true;
        if (kind === DEPOT_DELIVERY) {
          // On board from the start to here: every load before this place grows.
          for (let d = 0; d < D; d++) {
            if (prefix[g * D + d]! + m.startLoad[v * D + d]! > m.capacity[k * D + d]!) fits = false;
          }
          if (!fits) break; // the prefix maximum only grows further on
        } else {
          for (let d = 0; d < D; d++) {
            if (suffix[g * D + d]! + m.change[v * D + d]! > m.capacity[k * D + d]!) fits = false;
          }
          if (!fits) continue; // the suffix maximum only shrinks further on
        }
      }
      const before = nodes[g]!;
      const after = nodes[g + 1]!;
      // The price first: most places cost more than the best so far, and it is as cheap to read.
      const cost = m.meters[before * L + at]! + m.meters[at * L + after]! - m.meters[before * L + after]!;
      if (cost >= best.cost) continue;
      const arrival = leaveBefore + m.seconds[before * L + at]!;
      if (arrival > due) continue;
      const leave = (arrival > ready ? arrival : ready) + service;
      if (leave + m.seconds[at * L + after]! > latest[g + 1]!) continue;
      if (blink > 0 && random() < blink) continue;
      best.cost = cost;
      best.route = k;
      best.first = g;
      best.second = g;
    }
  }

  private pairInsertion(
    request: number,
    route: RouteState,
    best: Insertion,
    blink: number,
    random: () => number,
  ): void {
    const m = this.model;
    const L = m.locationCount;
    const D = m.dimensionCount;
    const { n, nodes, dep, latest, load, visits } = route;
    const k = route.vehicle;
    const p = m.firstVisit[request]!;
    const q = m.secondVisit[request]!;
    const atP = m.visitLocation[p]!;
    const atQ = m.visitLocation[q]!;
    const dueP = m.due[p]!;
    const readyP = m.ready[p]!;
    const dueQ = m.due[q]!;
    const readyQ = m.ready[q]!;
    const serviceP = m.service[p]!;
    const serviceQ = m.service[q]!;
    const pq = m.meters[atP * L + atQ]!;
    const pqSeconds = m.seconds[atP * L + atQ]!;
    for (let i = 0; i <= n; i++) {
      const leaveBefore = dep[i]!;
      if (leaveBefore > dueP) break;
      // The load on board leaving the pickup, and later every place up to the delivery.
      let fits = true;
      for (let d = 0; d < D; d++) {
        if (load[i * D + d]! + m.change[p * D + d]! > m.capacity[k * D + d]!) fits = false;
      }
      if (!fits) continue;
      const before = nodes[i]!;
      const after = nodes[i + 1]!;
      const arrivalP = leaveBefore + m.seconds[before * L + atP]!;
      if (arrivalP > dueP) continue;
      const leaveP = (arrivalP > readyP ? arrivalP : readyP) + serviceP;
      // The delivery straight after the pickup.
      const arrivalQ = leaveP + pqSeconds;
      if (arrivalQ <= dueQ) {
        const leaveQ = (arrivalQ > readyQ ? arrivalQ : readyQ) + serviceQ;
        if (leaveQ + m.seconds[atQ * L + after]! <= latest[i + 1]!) {
          const cost =
            m.meters[before * L + atP]! + pq + m.meters[atQ * L + after]! - m.meters[before * L + after]!;
          if (cost < best.cost && !(blink > 0 && random() < blink)) {
            best.cost = cost;
            best.route = k;
            best.first = i;
            best.second = i;
          }
        }
      }
      if (i === n) continue;
      const pickupCost =
        m.meters[before * L + atP]! + m.meters[atP * L + after]! - m.meters[before * L + after]!;
      // With distances obeying the triangle inequality a delivery further on only adds.
      if (pickupCost >= best.cost) continue;
      // Walk the route past the pickup, delaying each visit by the detour, delivery after position j.
      let clock = leaveP;
      let from = atP;
      for (let j = i + 1; j <= n; j++) {
        const here = nodes[j]!;
        const arrival = clock + m.seconds[from * L + here]!;
        if (arrival > latest[j]!) break; // too late here, so for every later delivery too
        const v = visits[j - 1]!;
        const ready = m.ready[v]!;
        clock = (arrival > ready ? arrival : ready) + m.service[v]!;
        from = here;
        let room = true;
        for (let d = 0; d < D; d++) {
          if (load[j * D + d]! + m.change[p * D + d]! > m.capacity[k * D + d]!) room = false;
        }
        if (!room) break; // the request would be on board through here for every later delivery
        if (clock > dueQ) break;
        const next = nodes[j + 1]!;
        const cost =
          pickupCost + m.meters[here * L + atQ]! + m.meters[atQ * L + next]! - m.meters[here * L + next]!;
        if (cost >= best.cost) continue;
        const arrivalAtQ = clock + m.seconds[here * L + atQ]!;
        if (arrivalAtQ > dueQ) continue;
        const leaveQ = (arrivalAtQ > readyQ ? arrivalAtQ : readyQ) + serviceQ;
        if (leaveQ + m.seconds[atQ * L + next]! > latest[j + 1]!) continue;
        if (blink > 0 && random() < blink) continue;
        best.cost = cost;
        best.route = k;
        best.first = i;
        best.second = j;
      }
    }
  }
}
