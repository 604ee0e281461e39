import type { Point } from './types.ts';

/** Meters between two points; the solver's road-distance stand-in unless the input brings its own. */
export type DistanceSource = (a: Point, b: Point) => number;

/** The mean Earth radius (IUGG), which keeps great-circle errors under 0.5 %. */
const EARTH_RADIUS_METERS = 6_371_008.8;

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in meters. */
export function haversineMeters(a: Point, b: Point): number {
  const deltaLat = toRadians(b.lat - a.lat);
  const deltaLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(deltaLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(deltaLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The one key of a place, so that the same place is one row of a travel table wherever it is built. */
export const pointKey = (point: Point): string => `${point.lat},${point.lng}`;
