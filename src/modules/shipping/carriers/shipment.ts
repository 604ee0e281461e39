import type { Address } from '../../orders/index.ts';

export interface ShipmentPackage {
  weight_grams: number;
  length_mm?: number;
  width_mm?: number;
  height_mm?: number;
  description?: string;
}

/** What is shipped: from the sender (pickup) to the recipient (dropoff), one or more packages. */
export interface Shipment {
  pickup: Address;
  dropoff: Address;
  /** Delivered to a home rather than a business address. */
  residential: boolean;
  packages: ShipmentPackage[];
}

export const UNAVAILABLE_REASONS = [
  /** No zone of the card holds the recipient (postal code or distance). */
  'out_of_area',
  /** The card zones by distance and an address has no lat/lng. */
  'missing_coordinates',
  /** The service does not carry to the shipment's zone. */
  'zone_not_served',
  /** A package is heavier than the last weight break and the service has no extra-kg price. */
  'too_heavy',
] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];
