import type {
  CarrierAdapter,
  CarrierEvent,
  LabelReference,
  LabelRequest,
  PurchasedLabel,
  ServiceRate,
  ShippingMethod,
} from './adapter.ts';
import { type PricedCard, pricedCard, quoteService, type RateCard } from './rate-card.ts';
import type { Shipment } from './shipment.ts';

/**
 * The built-in carrier: prices come from the business's rate card, the label is the package's
 * own tracking number (the service renders the PDF), and its tracking events are the ones the
 * service records itself, so it has none of its own to report.
 */
export class RateCardCarrier implements CarrierAdapter {
  private readonly card: PricedCard;

  constructor(
    readonly code: string,
    readonly name: string,
    card: RateCard,
  ) {
    this.card = pricedCard(card);
  }

  methods(): ShippingMethod[] {
    return this.card.services.map((service) => ({
      service: service.code,
      serviceName: service.name,
      zones: [...service.zones].map(([zone, rates]) => ({ zone, transitDays: rates.transitDays })),
    }));
  }

  async rate(shipment: Shipment): Promise<ServiceRate[]> {
    return this.card.services.map((service) => ({
      service: service.code,
      serviceName: service.name,
      ...quoteService(this.card, service, shipment),
    }));
  }

  async createLabel(request: LabelRequest): Promise<PurchasedLabel> {
    return { carrierReference: request.trackingNumber };
  }

  async voidLabel(_label: LabelReference): Promise<void> {
    // Nothing was bought from anyone: the label is simply no longer used.
  }

  async track(_label: LabelReference): Promise<CarrierEvent[]> {
    return [];
  }
}
