/**
 * Seeded, realistic routing instances for tests and benchmarks: one city's day of van deliveries.
 * Equal options give equal instances.
 */

import { mulberry32 } from '../../../platform/random.ts';
import type {
  Load,
  Point,
  SolverInput,
  SolverStop,
  SolverVehicle,
  TimeWindow,
  UnassignedReason,
} from './types.ts';

export interface GenerateOptions {
  stops: number;
  vehicles: number;
  seed: number;
  /** Share of the feasible stops that are P2P orders (collected in town, then delivered); default 0. */
  pairShare?: number;
  /** Share of the feasible stops that are pickups brought back to the depot (P orders); default 0. */
  pickupShare?: number;
}

export interface GeneratedInstance extends SolverInput {
  /** The stops made unservable on purpose, with the reason a correct solver gives for each. */
  infeasible: Array<{ stopId: number; reason: UnassignedReason }>;
}

export { mulberry32 };

const HOUR = 3600;
const CITY_CENTRE: Point = { lat: 48.8566, lng: 2.3522 };
const CITY_RADIUS_METERS = 15_000;
const SHIFT_START = 8 * HOUR;
/** Windows close by 15:00, so any stop in the city is back at the depot before the shortest shift ends. */
const LAST_WINDOW_END = 15 * HOUR;
const METERS_PER_DEGREE_LAT = 111_320;
/** One infeasible stop per this many stops, cycling through the reasons. */
const STOPS_PER_INFEASIBLE = 40;
const INFEASIBLE_REASONS: UnassignedReason[] = ['capacity', 'time_window', 'skills'];
const UNHELD_SKILL = 'hazmat';
/**
 * Share of the fleet's capacity the demand takes, per dimension. Weight binds; every dimension
 * leaves room, so a good solver serves every feasible stop.
 */
const UTILISATION_RANGE: Record<keyof Load, [number, number]> = {
  weightGrams: [0.8, 0.88],
  volumeCm3: [0.65, 0.8],
  count: [0.5, 0.7],
};
const LOAD_KEYS = ['weightGrams', 'volumeCm3', 'count'] as const;
/** Capacities are rounded up to these units: kilograms, litres, parcels. */
const CAPACITY_UNIT: Record<keyof Load, number> = { weightGrams: 1000, volumeCm3: 1000, count: 1 };

export function generateInstance(options: GenerateOptions): GeneratedInstance {
  const random = mulberry32(options.seed);
  const between = (low: number, high: number): number => low + (high - low) * random();
  const integerBetween = (low: number, high: number): number => Math.floor(between(low, high + 1));

  const offset = (from: Point, meters: number, bearing: number): Point => ({
    lat: from.lat + (meters * Math.cos(bearing)) / METERS_PER_DEGREE_LAT,
    lng:
      from.lng +
      (meters * Math.sin(bearing)) / (METERS_PER_DEGREE_LAT * Math.cos((from.lat * Math.PI) / 180)),
  });
  const depot = offset(CITY_CENTRE, between(1000, 3000), between(0, 2 * Math.PI));
  const neighbourhoods = Array.from({ length: 4 }, () =>
    offset(CITY_CENTRE, between(3000, 12_000), between(0, 2 * Math.PI)),
  );
  // Most deliveries crowd into a few neighbourhoods; the rest spread evenly over the city.
  const deliveryPoint = (draw: () => number = random): Point => {
    const neighbourhood = neighbourhoods[Math.floor(draw() * neighbourhoods.length)]!;
    const bearing = () => draw() * 2 * Math.PI;
    if (draw() < 0.6) return offset(neighbourhood, Math.abs(gaussian(draw)) * 1500, bearing());
    return offset(CITY_CENTRE, CITY_RADIUS_METERS * Math.sqrt(draw()), bearing());
  };

  // Parcels weigh 0.3-8 kg and take 1-40 l each; a 'heavy' stop is one or two 60-150 kg items.
  const demandFor = (skill: string | undefined): Load => {
    if (skill === 'heavy') {
      const count = integerBetween(1, 2);
      return {
        weightGrams: Math.round(between(60_000, 150_000)),
        volumeCm3: Math.round(between(1e5, 3e5)),
        count,
      };
    }
    const count = 1 + Math.floor(random() ** 2 * 6); // mostly one or two parcels, up to six
    return {
      weightGrams: Math.round(count * between(300, 8000)),
      volumeCm3: Math.round(count * between(1000, 40_000)),
      count,
    };
  };
  // Half-hour aligned, 2-4 h wide, closing by LAST_WINDOW_END.
  const drawWindow = (): TimeWindow => {
    const width = 2 * HOUR + integerBetween(0, 8) * 15 * 60;
    const start =
      SHIFT_START + integerBetween(0, Math.floor((LAST_WINDOW_END - width - SHIFT_START) / 1800)) * 1800;
    return { start, end: start + width };
  };

  const infeasibleCount = Math.floor(options.stops / STOPS_PER_INFEASIBLE);
  const stops: SolverStop[] = Array.from({ length: options.stops - infeasibleCount }, () => {
    const kind = random();
    const skill = kind < 0.04 ? 'heavy' : kind < 0.1 ? 'refrigerated' : undefined;
    const window = random() < 0.5 ? drawWindow() : undefined;
    return {
      id: 0, // numbered after shuffling
      location: deliveryPoint(),
      demand: demandFor(skill),
      serviceSeconds: integerBetween(180, 360),
      ...(window ? { window } : {}),
      ...(skill ? { requiredSkills: [skill] } : {}),
    };
  });

  // P2P orders and depot pickups draw from their own stream, so the plain days stay as they were.
  const legs = mulberry32(options.seed ^ 0x5bd1e995);
  for (const stop of stops) {
    const draw = legs();
    if (draw < (options.pairShare ?? 0)) {
      // Collected from a shop in town by mid-morning at the latest, in time for the delivery window.
      const collectBy = Math.max(SHIFT_START + 2 * HOUR, (stop.window?.end ?? LAST_WINDOW_END) - 1.5 * HOUR);
      stop.pickup = {
        location: deliveryPoint(legs),
        serviceSeconds: 120 + Math.floor(legs() * 120),
        ...(legs() < 0.5 ? { window: { start: SHIFT_START, end: collectBy } } : {}),
      };
    } else if (draw < (options.pairShare ?? 0) + (options.pickupShare ?? 0)) {
      stop.kind = 'pickup';
    }
  }

  const vehicles: SolverVehicle[] = Array.from({ length: options.vehicles }, (_, index) => {
    const large = index % 2 === 1;
    const skills = [...(index % 3 === 0 ? ['refrigerated'] : []), ...(large ? ['heavy'] : [])];
    return {
      id: 101 + index,
      start: depot,
      capacity: { weightGrams: 0, volumeCm3: 0, count: 0 }, // sized below, once demand is known
      shift: { start: SHIFT_START, end: SHIFT_START + 8 * HOUR + integerBetween(0, 4) * 1800 },
      skills,
    };
  });
  // Large vans carry 1.6 times what small ones do; the fleet is sized to the drawn utilisation.
  const sizes = vehicles.map((_, index) => (index % 2 === 1 ? 1.6 : 1));
  const totalSize = sizes.reduce((sum, size) => sum + size, 0);
  for (const key of LOAD_KEYS) {
    const totalDemand = stops.reduce((sum, stop) => sum + stop.demand[key], 0);
    const utilisation = between(...UTILISATION_RANGE[key]);
    vehicles.forEach((vehicle, index) => {
      const capacity = (totalDemand / utilisation) * (sizes[index]! / totalSize);
      vehicle.capacity[key] = Math.ceil(capacity / CAPACITY_UNIT[key]) * CAPACITY_UNIT[key];
    });
  }

  const largestWeight = Math.max(0, ...vehicles.map((vehicle) => vehicle.capacity.weightGrams));
  const infeasibleStops = Array.from(
    { length: infeasibleCount },
    (_, index): [SolverStop, UnassignedReason] => {
      const reason = INFEASIBLE_REASONS[index % INFEASIBLE_REASONS.length]!;
      const stop: SolverStop = {
        id: 0,
        location: deliveryPoint(),
        demand: { weightGrams: 5000, volumeCm3: 20_000, count: 1 },
        serviceSeconds: 300,
      };
      if (reason === 'capacity') stop.demand.weightGrams = Math.round(largestWeight * between(1.2, 2));
      if (reason === 'skills') stop.requiredSkills = [UNHELD_SKILL];
      if (reason === 'time_window') {
        // At least 8 km out and closing 5 minutes into the shifts: nothing slower than 26 m/s gets there.
        stop.location = offset(depot, between(8000, 12_000), between(0, 2 * Math.PI));
        stop.window = { start: SHIFT_START - 2 * HOUR, end: SHIFT_START + 5 * 60 };
      }
      return [stop, reason];
    },
  );

  const all: Array<[SolverStop, UnassignedReason | undefined]> = [
    ...stops.map((stop): [SolverStop, undefined] => [stop, undefined]),
    ...infeasibleStops,
  ];
  shuffle(all, random);
  all.forEach(([stop], index) => {
    stop.id = index + 1;
  });
  return {
    stops: all.map(([stop]) => stop),
    vehicles,
    seed: options.seed,
    infeasible: all.flatMap(([stop, reason]) => (reason ? [{ stopId: stop.id, reason }] : [])),
  };
}

/** A standard normal draw (Box-Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

/** Seconds from midnight as HH:MM, rounded inwards so a window or shift never grows. */
function minutesOf(seconds: number, round: 'up' | 'down'): string {
  const minutes = round === 'up' ? Math.ceil(seconds / 60) : Math.floor(seconds / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A generated vehicle as the body of a driver profile (PUT /api/v1/client/drivers/{id}/profile). */
export function asDriverProfile(vehicle: SolverVehicle, depotId: number) {
  return {
    depot_id: depotId,
    capacity: {
      weight_grams: vehicle.capacity.weightGrams,
      volume_cm3: vehicle.capacity.volumeCm3,
      count: vehicle.capacity.count,
    },
    shift: { start: minutesOf(vehicle.shift.start, 'up'), end: minutesOf(vehicle.shift.end, 'down') },
    skills: vehicle.skills,
  };
}

/**
 * A generated stop as an order to create, referenced GEN-<stop id>: one package carries the
 * weight and (rounded up) volume as length x 1 m x 1 m, the others make up the parcel count.
 */
export function asOrder(stop: SolverStop, date: string) {
  return {
    order_ref: `GEN-${stop.id}`,
    scheduled_date: date,
    dropoff: { line1: `Stop ${stop.id}`, ...stop.location },
    time_window: stop.window
      ? { start: minutesOf(stop.window.start, 'up'), end: minutesOf(stop.window.end, 'down') }
      : undefined,
    required_skills: stop.requiredSkills,
    packages: Array.from({ length: stop.demand.count }, (_, i) =>
      i === 0
        ? {
            weight_grams: stop.demand.weightGrams,
            length_mm: Math.ceil(stop.demand.volumeCm3 / 1000),
            width_mm: 1000,
            height_mm: 1000,
          }
        : {},
    ),
  };
}
