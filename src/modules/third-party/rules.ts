import type { ProviderOrder } from './port.ts';
import type { AcceptRules } from './schemas.ts';

export type Decision = { decision: 'accept' } | { decision: 'reject' | 'manual'; reason: string };

const EARTH_RADIUS_KM = 6371;

/**
 * The business's rules on one provider order: accept when every rule set holds; when one fails,
 * reject or leave it to a dispatcher (`otherwise`). Pure: the caller gives the local time the order
 * arrived at (HH:MM in the business's zone) and how many orders the day already accepted.
 */
export function decide(
  rules: AcceptRules,
  order: ProviderOrder,
  context: { localTime: string; acceptedToday: number },
): Decision {
  const failed = failedRule(rules, order, context);
  if (!failed) return { decision: 'accept' };
  return { decision: rules.otherwise, reason: failed };
}

function failedRule(
  rules: AcceptRules,
  order: ProviderOrder,
  context: { localTime: string; acceptedToday: number },
): string | undefined {
  if (rules.area) {
    const { lat, lng } = order.dropoff;
    if (lat === undefined || lng === undefined) return 'outside_area: the drop-off has no coordinates';
    if (!inArea(rules.area, lat, lng)) return 'outside_area';
  }
  if (rules.hours) {
    const { start, end } = rules.hours;
    const within = order.window
      ? order.window.start >= start && order.window.end <= end
      : context.localTime >= start && context.localTime < end;
    if (!within) return 'outside_hours';
  }
  if (rules.daily_capacity !== undefined && context.acceptedToday >= rules.daily_capacity)
    return 'daily_capacity_reached';
  return undefined;
}

function inArea(area: NonNullable<AcceptRules['area']>, lat: number, lng: number): boolean {
  if ('bbox' in area) {
    const box = area.bbox;
    return lat >= box.min_lat && lat <= box.max_lat && lng >= box.min_lng && lng <= box.max_lng;
  }
  return haversineKm(area.center.lat, area.center.lng, lat, lng) <= area.radius_km;
}

function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}
