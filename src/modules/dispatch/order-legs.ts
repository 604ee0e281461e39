import type { OrderView } from '../orders/index.ts';
import type { Point } from './solver/types.ts';

// How an order becomes stops (the points of its legs, the load it puts on a van), and the
// clock times routes are stored in: what planning and plan edits read alike.

/**
 * Where the driver goes for the order: the pickup of a pickup order (P), the drop-off of a
 * delivery (D, the default), both for a P2P order; undefined when a coordinate it needs is missing.
 */
export function legsOf(order: OrderView): { pickup?: Point; delivery?: Point } | undefined {
  const point = (address: OrderView['pickup']): Point | undefined =>
    address?.lat !== undefined && address?.lng !== undefined
      ? { lat: address.lat, lng: address.lng }
      : undefined;
  if (order.type === 'P') {
    const pickup = point(order.pickup);
    return pickup && { pickup };
  }
  const delivery = point(order.dropoff);
  if (order.type === 'P2P') {
    const pickup = point(order.pickup);
    return pickup && delivery && { pickup, delivery };
  }
  return delivery && { delivery };
}

export function demandOf(order: OrderView) {
  return order.packages.reduce(
    (load, pkg) => ({
      weightGrams: load.weightGrams + (pkg.weight_grams ?? 0),
      volumeCm3:
        load.volumeCm3 +
        Math.ceil(((pkg.length_mm ?? 0) * (pkg.width_mm ?? 0) * (pkg.height_mm ?? 0)) / 1000),
      count: load.count + 1,
    }),
    { weightGrams: 0, volumeCm3: 0, count: 0 },
  );
}

/** HH:MM (or HH:MM:SS) to seconds from midnight (whole minutes). */
export function seconds(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 3600 + minutes * 60;
}

/** Seconds from midnight to HH:MM:SS. */
export function clockTime(total: number): string {
  const s = Math.round(total);
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}
