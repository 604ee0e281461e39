import type { ServiceQuote } from './rate-card.ts';
import type { Shipment, UnavailableReason } from './shipment.ts';

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
