import type { Address } from '../../orders/tables.ts';
import type { ServiceQuote } from './rate-card.ts';

/**
 * The one interface every carrier is reached through. The built-in rate-card carrier implements
 * it from a business's rate card; an adapter for a carrier's own API implements the same five
 * methods and registers its kind in `registry.ts` — callers never change (docs/shipping.md).
 * Methods are async because a real carrier answers over the network.
 */
export interface CarrierAdapter {
  readonly code: string;
  readonly name: string;
  /** The services the carrier offers, without prices. */
  methods(): ShippingMethod[];
  /** Each service's price for the shipment, or why it cannot carry it. */
  rate(shipment: Shipment): Promise<ServiceRate[]>;
  /** Buys the label of one package of a shipment from the carrier. */
  createLabel(request: LabelRequest): Promise<PurchasedLabel>;
  /** Cancels a label bought earlier. */
  voidLabel(label: LabelReference): Promise<void>;
  /** The carrier's own events for a package, in time order. */
  track(label: LabelReference): Promise<CarrierEvent[]>;
}

export interface ShippingMethod {
  service: string;
  serviceName: string;
  /** Transit days per zone served. */
  zones: Array<{ zone: string; transitDays: number }>;
}

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

export type ServiceRate =
  | { service: string; serviceName: string; quote: ServiceQuote }
  | { service: string; serviceName: string; unavailable: UnavailableReason };

export interface LabelRequest {
  service: string;
  shipment: Shipment;
  /** Which package of the shipment (0-based). */
  packageIndex: number;
  /** The tracking number the service gave the package. */
  trackingNumber: string;
}

/** A label bought earlier: the package's tracking number and the carrier's own reference. */
export interface LabelReference {
  trackingNumber: string;
  carrierReference: string;
}

export interface PurchasedLabel {
  /** The carrier's own number for the label (the package's tracking number for built-in carriers). */
  carrierReference: string;
  /** The carrier's own label document, when it makes one; otherwise the service renders it. */
  pdf?: Buffer;
}

export interface CarrierEvent {
  occurredAt: string;
  statusCode: string;
  description?: string;
}
