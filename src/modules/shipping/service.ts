import { createHash } from 'node:crypto';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { toMajor } from '../../platform/money.ts';
import type { DocumentsService } from '../documents/index.ts';
import type { OrdersService } from '../orders/index.ts';
import { type OrderView, orderInputSchema } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import type { CarrierAdapter } from './carriers/adapter.ts';
import {
  normalizedCard,
  pricedCard,
  type RateCard,
  type ServiceQuote,
  type Surcharge,
} from './carriers/rate-card.ts';
import { adapterFor } from './carriers/registry.ts';
import type { Shipment } from './carriers/shipment.ts';
import * as repo from './repository.ts';
import type { LabelView, Preference, RateView } from './schemas.ts';

/** The order fields a label-service order may carry beside its shipment. */
export interface LabelOrderFields {
  order_ref?: string;
  customer_id?: number;
  scheduled_date?: string;
  note?: string;
}

/** One service's price for a shipment, with the carrier it comes from. */
interface Quote {
  carrier: repo.StoredCarrier;
  adapter: CarrierAdapter;
  service: string;
  serviceName: string;
  quote: ServiceQuote;
  rateId: string;
}

/** The answer of a rating: quotes, cheapest first, and the services that cannot carry the shipment. */
interface Rating {
  quotes: Quote[];
  unavailable: Array<{ carrier: string; service: string; reason: string }>;
}

/** Carriers behind one adapter interface, their rates, and the labels bought from them. */
export class ShippingService {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly tracking: TrackingService,
    private readonly documents: DocumentsService,
    private readonly events: DomainEvents,
  ) {}

  /** The business's labels with one of these tracking numbers, at most 50 (label reading's matches). */
  labelsByTrackingNumbers(db: Queryable, businessId: number, trackingNumbers: string[]) {
    return repo.labelsByTrackingNumbers(db, businessId, trackingNumbers);
  }

  // ----- carriers -----

  async carriers(ctx: OperationContext) {
    const rows = await repo.carriersOf(ctx.db, businessOf(ctx));
    return rows.map(carrierView);
  }

  /**
   * Creates or replaces a carrier of the business. All of a business's rate-card carriers quote
   * in one currency, so that comparing them is comparing prices.
   */
  async saveCarrier(
    ctx: OperationContext,
    input: { code: string; name: string; active: boolean; rate_card: RateCard },
  ) {
    const businessId = businessOf(ctx);
    pricedCard(input.rate_card); // refuses amounts finer than the currency's minor unit
    const others = (await repo.carriersOf(ctx.db, businessId, { activeOnly: true })).filter(
      (carrier) => carrier.code !== input.code && carrier.rate_card !== null,
    );
    const expected = (others[0]?.rate_card as RateCard | undefined)?.currency;
    if (input.active && expected && expected !== input.rate_card.currency) {
      throw new AppError('CARRIER_CURRENCY_MISMATCH', {
        params: { currency: input.rate_card.currency, expected },
      });
    }
    const row = await repo.upsertCarrier(ctx.db, {
      business_id: businessId,
      code: input.code,
      name: input.name,
      kind: 'rate_card',
      rate_card: normalizedCard(input.rate_card),
      active: input.active,
      now: this.clock.now(),
    });
    return carrierView(row);
  }

  async methods(ctx: OperationContext) {
    const carriers = await this.activeCarriers(ctx.db, businessOf(ctx));
    return carriers.flatMap(({ carrier, adapter }) =>
      adapter.methods().map((method) => ({
        carrier: carrier.code,
        carrier_name: carrier.name,
        service: method.service,
        service_name: method.serviceName,
        zones: method.zones.map((zone) => ({ zone: zone.zone, transit_days: zone.transitDays })),
      })),
    );
  }

  // ----- rating -----

  /** The prices of one carrier's services (or of one service), cheapest first. Creates nothing. */
  async rate(ctx: OperationContext, shipment: Shipment, carrier: string, service?: string) {
    const rating = await this.rating(ctx, shipment, { carrier, service });
    return { rates: rating.quotes.map(rateView), unavailable: rating.unavailable };
  }

  /**
   * Every active carrier's quote for every service, cheapest first, with the cheapest and the
   * fastest marked: the ones quote_and_ship picks for `prefer: cheapest` and `prefer: fastest`.
   */
  async compare(ctx: OperationContext, shipment: Shipment) {
    const { quotes, unavailable } = await this.rating(ctx, shipment, {});
    const cheapest = pick(quotes, 'cheapest');
    const fastest = pick(quotes, 'fastest');
    return {
      rates: quotes.map((quote) => ({
        ...rateView(quote),
        cheapest: quote === cheapest,
        fastest: quote === fastest,
      })),
      cheapest_rate_id: cheapest?.rateId ?? null,
      fastest_rate_id: fastest?.rateId ?? null,
      unavailable,
    };
  }

  private async rating(
    ctx: OperationContext,
    shipment: Shipment,
    only: { carrier?: string; service?: string },
  ): Promise<Rating> {
    let carriers = await this.activeCarriers(ctx.db, businessOf(ctx));
    if (only.carrier !== undefined) {
      carriers = carriers.filter(({ carrier }) => carrier.code === only.carrier);
      if (carriers.length === 0)
        throw new AppError('CARRIER_NOT_FOUND', { params: { carrier: only.carrier } });
      const offered = carriers[0]!.adapter.methods().map((method) => method.service);
      if (only.service !== undefined && !offered.includes(only.service)) {
        throw new AppError('CARRIER_SERVICE_NOT_FOUND', {
          params: { carrier: only.carrier, service: only.service },
        });
      }
    }
    const rating: Rating = { quotes: [], unavailable: [] };
    for (const { carrier, adapter } of carriers) {
      for (const rate of await adapter.rate(shipment)) {
        if (only.service !== undefined && rate.service !== only.service) continue;
        if ('unavailable' in rate) {
          rating.unavailable.push({ carrier: carrier.code, service: rate.service, reason: rate.unavailable });
          continue;
        }
        const rateId = rateIdOf(carrier, rate.service, shipment);
        rating.quotes.push({
          carrier,
          adapter,
          service: rate.service,
          serviceName: rate.serviceName,
          quote: rate.quote,
          rateId,
        });
      }
    }
    rating.quotes.sort(RANKINGS.cheapest);
    return rating;
  }

  private async activeCarriers(db: Queryable, businessId: number) {
    const rows = await repo.carriersOf(db, businessId, { activeOnly: true });
    return rows.map((carrier) => ({ carrier, adapter: adapterFor(carrier) }));
  }

  // ----- labels -----

  /** Buys the label of a named carrier service: a label-service order, one label per package. */
  async createLabel(
    ctx: OperationContext,
    input: Shipment & LabelOrderFields & { carrier: string; service: string; rate_id?: string },
  ) {
    const { quotes, unavailable } = await this.rating(ctx, input, {
      carrier: input.carrier,
      service: input.service,
    });
    const chosen = quotes[0];
    if (!chosen) {
      throw new AppError('RATE_UNAVAILABLE', {
        params: { carrier: input.carrier, service: input.service, reason: unavailable[0]?.reason ?? '' },
        details: { reason: unavailable[0]?.reason },
      });
    }
    if (input.rate_id !== undefined && input.rate_id !== chosen.rateId) {
      throw new AppError('RATE_CHANGED', {
        params: { rate_id: input.rate_id },
        details: { rate: rateView(chosen) },
      });
    }
    return this.ship(ctx, input, chosen);
  }

  /** Picks a service by preference among all carriers (or one) and buys its label. */
  async quoteAndShip(
    ctx: OperationContext,
    input: Shipment & LabelOrderFields & { prefer: Preference; carrier?: string; service?: string },
  ) {
    const { quotes } = await this.rating(ctx, input, { carrier: input.carrier, service: input.service });
    const chosen = pick(quotes, input.prefer);
    if (!chosen) throw new AppError('NO_CARRIER_AVAILABLE');
    return { ...(await this.ship(ctx, input, chosen)), prefer: input.prefer, considered: quotes.length };
  }

  /** Creates the label-service order of the chosen quote, then buys each package's label. */
  private async ship(ctx: OperationContext, input: Shipment & LabelOrderFields, chosen: Quote) {
    const { carrier, quote } = chosen;
    const major = (minor: number) => toMajor(minor, quote.currency);
    const [order] = await this.orders.intake.create(ctx, [
      orderInputSchema.parse({
        family: 'label_service',
        carrier: carrier.code,
        pickup: input.pickup,
        dropoff: input.dropoff,
        packages: input.packages,
        order_ref: input.order_ref,
        customer_id: input.customer_id,
        scheduled_date: input.scheduled_date,
        note: input.note,
        currency: quote.currency,
        shipping_price: major(quote.base),
        surcharges: surchargesView(quote.surcharges, quote.currency),
        tax: major(quote.tax),
      }),
    ]);
    const labels: LabelView[] = [];
    for (const index of order!.packages.keys())
      labels.push(await this.buyLabel(ctx, input, chosen, order!, index));
    return {
      order_id: order!.id,
      order_ref: order!.order_ref,
      tracking_number: order!.packages[0]!.tracking_number,
      rate: rateView(chosen),
      labels,
      order: order!,
    };
  }

  /**
   * One package's label: bought from the carrier, rendered (unless the carrier made its own),
   * issued as a document, stored, and told to the package's tracking timeline.
   */
  private async buyLabel(
    ctx: OperationContext,
    shipment: Shipment,
    chosen: Quote,
    order: OrderView,
    index: number,
  ): Promise<LabelView> {
    const businessId = businessOf(ctx);
    const { carrier, quote } = chosen;
    const pkg = order.packages[index]!;
    const charge = quote.packages[index]!;
    const purchased = await chosen.adapter.createLabel({
      service: chosen.service,
      shipment,
      packageIndex: index,
      trackingNumber: pkg.tracking_number,
    });
    const createdAt = this.clock.now();
    const pdf =
      purchased.pdf ??
      // The renderer's PDF, barcode and image libraries load at the first label, not at every start.
      (await (
        await import('./labels/render.ts')
      ).renderLabelPdf({
        trackingNumber: pkg.tracking_number,
        carrierName: carrier.name,
        serviceName: chosen.serviceName,
        sender: shipment.pickup,
        recipient: shipment.dropoff,
        billableWeightGrams: charge.billableGrams,
        packageNumber: index + 1,
        packageCount: order.packages.length,
        orderRef: order.order_ref,
        trackingUrl: `${this.tracking.baseUrl}/track/${pkg.tracking_number}`,
        createdAt,
      }));
    const document = await this.documents.issue(ctx.db, {
      businessId,
      kind: 'label',
      reference: pkg.tracking_number,
      bytes: pdf,
    });
    const row: repo.LabelRow = {
      business_id: businessId,
      order_id: order.id,
      package_id: pkg.id,
      tracking_number: pkg.tracking_number,
      carrier_id: carrier.id,
      carrier_code: carrier.code,
      carrier_name: carrier.name,
      service_code: chosen.service,
      service_name: chosen.serviceName,
      carrier_reference: purchased.carrierReference,
      rate_id: chosen.rateId,
      zone: quote.zone,
      transit_days: quote.transitDays,
      billable_weight_grams: charge.billableGrams,
      currency: quote.currency,
      price_minor: charge.base,
      surcharges: charge.surcharges,
      tax_minor: charge.tax,
      total_minor: charge.total,
      pdf,
      document_id: String(document.id),
      document_sha256: document.sha256,
      created_at: createdAt,
    };
    const id = await repo.insertLabel(ctx.db, row);
    await this.tracking.appendEvent(
      ctx,
      businessId,
      { id: pkg.id, trackingNumber: pkg.tracking_number },
      {
        status_code: 'information_submitted',
        source: { type: 'carrier', name: carrier.name, reference: purchased.carrierReference },
        description: `Label created: ${carrier.name} ${chosen.serviceName}`,
      },
    );
    await this.events.publish(ctx, {
      kind: 'label.created',
      businessId,
      customerId: order.customer_id,
      data: {
        label_id: id,
        order_id: order.id,
        order_ref: order.order_ref,
        tracking_number: pkg.tracking_number,
        carrier: carrier.code,
        service: chosen.service,
        carrier_reference: purchased.carrierReference,
      },
    });
    return this.labelView({ ...row, id }, false);
  }

  /** A label of the business; a customer reads the labels of its own orders only. */
  async label(ctx: OperationContext, trackingNumber: string, includePdf: boolean) {
    const row = await repo.labelByTrackingNumber(ctx.db, businessOf(ctx), trackingNumber);
    const notFound = new AppError('LABEL_NOT_FOUND', { params: { number: trackingNumber } });
    if (!row) throw notFound;
    if (ctx.caller?.kind === 'customer') {
      // The orders module knows whose order it is; another customer's reads as unknown.
      await this.orders.queries.find(ctx, { tracking_number: trackingNumber }).catch((error: unknown) => {
        throw isAppError(error) && error.code === 'ORDER_NOT_FOUND' ? notFound : error;
      });
    }
    return { view: this.labelView(row, includePdf), pdf: row.pdf };
  }

  private labelView(row: repo.LabelRow & { id: number }, includePdf: boolean): LabelView {
    return {
      id: row.id,
      tracking_number: row.tracking_number,
      order_id: row.order_id,
      carrier: row.carrier_code,
      carrier_name: row.carrier_name,
      service: row.service_code,
      service_name: row.service_name,
      carrier_reference: row.carrier_reference,
      rate_id: row.rate_id,
      zone: row.zone,
      transit_days: row.transit_days,
      billable_weight_grams: row.billable_weight_grams,
      ...pricedView(
        { base: row.price_minor, surcharges: row.surcharges, tax: row.tax_minor, total: row.total_minor },
        row.currency,
      ),
      document: { id: row.document_id, sha256: row.document_sha256 },
      pdf_url: `${this.tracking.baseUrl}/api/v1/labelservice/labels/${row.tracking_number}`,
      ...(includePdf ? { pdf_base64: row.pdf.toString('base64') } : {}),
      created_at: row.created_at.toISOString(),
    };
  }
}

/** How quotes rank: by total then days (cheapest), or days then total (fastest); then by carrier and service code. */
const byCodes = (a: Quote, b: Quote) =>
  compareText(`${a.carrier.code}/${a.service}`, `${b.carrier.code}/${b.service}`);
const RANKINGS: Record<Preference, (a: Quote, b: Quote) => number> = {
  cheapest: (a, b) =>
    a.quote.total - b.quote.total || a.quote.transitDays - b.quote.transitDays || byCodes(a, b),
  fastest: (a, b) =>
    a.quote.transitDays - b.quote.transitDays || a.quote.total - b.quote.total || byCodes(a, b),
};

function pick(quotes: Quote[], prefer: Preference): Quote | undefined {
  return [...quotes].sort(RANKINGS[prefer])[0];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Names a quote: the carrier's card version, the service and what prices the shipment (postal
 * codes, coordinates, residential, packages). Buying with a rate_id is refused once any of them
 * changed, so nobody pays other than what they were quoted.
 */
function rateIdOf(carrier: repo.StoredCarrier, service: string, shipment: Shipment): string {
  const place = (a: Shipment['pickup']) => [a.postal_code ?? null, a.lat ?? null, a.lng ?? null];
  const key = JSON.stringify([
    carrier.id,
    carrier.version,
    service,
    place(shipment.pickup),
    place(shipment.dropoff),
    shipment.residential,
    shipment.packages.map((p) => [p.weight_grams, p.length_mm ?? 0, p.width_mm ?? 0, p.height_mm ?? 0]),
  ]);
  return `rt_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

function rateView(chosen: Quote): RateView {
  const { quote } = chosen;
  return {
    rate_id: chosen.rateId,
    carrier: chosen.carrier.code,
    carrier_name: chosen.carrier.name,
    service: chosen.service,
    service_name: chosen.serviceName,
    zone: quote.zone,
    transit_days: quote.transitDays,
    billable_weight_grams: quote.billableGrams,
    ...pricedView(quote, quote.currency),
    packages: quote.packages.map((charge) => ({
      actual_weight_grams: charge.actualGrams,
      dimensional_weight_grams: charge.dimensionalGrams,
      billable_weight_grams: charge.billableGrams,
      ...pricedView(charge, quote.currency),
    })),
  };
}

/** A charge's money in major units, as every rate, package charge and label shows it. */
function pricedView(
  charge: { base: number; surcharges: Surcharge[]; tax: number; total: number },
  currency: string,
) {
  const major = (minor: number) => toMajor(minor, currency);
  return {
    currency,
    price: major(charge.base),
    surcharges: surchargesView(charge.surcharges, currency),
    tax: major(charge.tax),
    total: major(charge.total),
  };
}

function surchargesView(surcharges: Surcharge[], currency: string) {
  return surcharges.map((s) => ({ code: s.code, amount: toMajor(s.amount, currency) }));
}

function carrierView(row: repo.StoredCarrier) {
  return {
    code: row.code,
    name: row.name,
    kind: row.kind,
    active: row.active,
    version: row.version,
    rate_card: row.rate_card as RateCard | null,
    updated_at: row.updated_at.toISOString(),
  };
}
