import { haversineMeters } from './solver/distance.ts';
import type { Point } from './solver/types.ts';

/**
 * Distances and driving times between places, for planning and for checking an edited plan:
 * `meters[i][j]` and `seconds[i][j]` from `points[i]` to `points[j]`, and where they came from.
 */
export interface TravelMatrix {
  points: readonly Point[];
  meters: number[][];
  seconds: number[][];
  /** 'straight_line', or the routing engine that answered ('osrm'). */
  source: string;
}

/** The routing-engine port: a business's travel matrix for a day (a day: road speeds differ by date). */
export interface RoadNetwork {
  matrix(request: { businessId: number; date: string; points: readonly Point[] }): Promise<TravelMatrix>;
}

/** How straight lines stand in for roads: how much longer a road is, and how fast one drives it. */
export interface StraightLineSettings {
  /** Road distance over straight-line distance (1.3 is typical of a city grid). */
  circuity: number;
  speedMetersPerSecond: number;
}

/** Straight-line distance times the circuity factor, driven at the average speed; whole seconds. */
export function straightLineMatrix(points: readonly Point[], settings: StraightLineSettings): TravelMatrix {
  const meters = points.map((a) =>
    points.map((b) => (a === b ? 0 : haversineMeters(a, b) * settings.circuity)),
  );
  return {
    points,
    meters,
    seconds: meters.map((row) => row.map((m) => Math.ceil(m / settings.speedMetersPerSecond))),
    source: 'straight_line',
  };
}
