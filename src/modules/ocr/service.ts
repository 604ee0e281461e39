import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, payloadTooLarge } from '../../platform/errors.ts';
import type { FileStorage } from '../../platform/storage/index.ts';
import type { OrderInput, OrdersService, OrderView } from '../orders/index.ts';
import type { ShippingService } from '../shipping/index.ts';
import type { WarehousesService } from '../warehouses/index.ts';
import { draftRefOf, type OrderDraft, orderDraftOf, withoutTakenRef } from './drafts.ts';
import { LabelImages } from './images.ts';
import { MAX_LABEL_BYTES } from './reading/index.ts';
import type { LabelReading } from './reading/types.ts';
import * as repo from './repository.ts';

/** What the service needs of the label reader: one reading at a time per call, refusals as AppErrors. */
export interface LabelReaderPort {
  read(bytes: Buffer, mediaType: string): Promise<LabelReading>;
}

/** A label image as a door hands it over: bytes (REST body) or base64 text (GraphQL, MCP). */
export interface LabelImage {
  bytes?: Buffer;
  base64?: string;
  contentType?: string;
}

/** Most numbers a reading is matched on: a label carries a few, the rest is noise. */
const MAX_CANDIDATES = 20;
/** What a tracking number or a barcode's text may be to be looked up: letters and digits, 6 to 40. */
const CANDIDATE = /^[A-Z0-9]{6,40}$/;

export type LabelMatch =
  | {
      kind: 'order';
      id: number;
      tracking_number: string;
      order_ref: string;
      status: string;
      /** package: one of the order's own packages; label: a carrier number recorded from a label. */
      via: 'package' | 'label';
    }
  | {
      kind: 'shipping_label';
      id: number;
      tracking_number: string;
      order_id: number;
      carrier: string;
      service: string;
    }
  | {
      kind: 'inbound_parcel';
      id: number;
      tracking_number: string;
      order_id: number;
      warehouse_id: number;
      state: string;
    };

export interface LabelParse {
  reading: LabelReading;
  matches: LabelMatch[];
  order_draft: OrderDraft;
}

/**
 * Label reading: an image in, what it says out (fields, barcodes, text), the caller's own things
 * it names, and a create_order input drafted from it. Reading keeps nothing; an order is created
 * only when the caller sends the draft back (createOrder).
 */
export class OcrService {
  /** The images a business chose to keep, and that choice. */
  readonly images: LabelImages;

  constructor(
    private readonly clock: Clock,
    private readonly reader: LabelReaderPort,
    private readonly orders: OrdersService,
    private readonly shipping: ShippingService,
    private readonly warehouses: WarehousesService,
    storage: FileStorage,
  ) {
    this.images = new LabelImages(clock, storage);
  }

  async parse(ctx: OperationContext, image: LabelImage): Promise<LabelParse> {
    const bytes = labelBytes(image);
    const reading = await this.reader.read(bytes, image.contentType ?? '');
    const matches = await this.matches(ctx, candidateNumbers(reading));
    return {
      reading,
      matches,
      order_draft: withoutTakenRef(orderDraftOf(reading), await this.refTaken(ctx, reading, matches)),
    };
  }

  /**
   * Whether the reference the draft would take as its order_ref is an order's already (the label of
   * an order the business has, printed by the service or read before): sent back, the draft would
   * be refused 409 ORDER_REF_TAKEN. Staff, who send drafts, are answered for the whole business; a
   * driver only for the orders their matches show (whether another order exists is not theirs to
   * learn, and they send no draft).
   */
  private async refTaken(ctx: OperationContext, reading: LabelReading, matches: LabelMatch[]) {
    const ref = draftRefOf(reading);
    if (ref === undefined) return false;
    if (matches.some((match) => match.kind === 'order' && match.order_ref === ref)) return true;
    if (callerOf(ctx).kind === 'driver') return false;
    return this.orders.queries.orderRefTaken(ctx.db, businessOf(ctx), ref);
  }

  /**
   * The caller's business's orders, shipping labels and warehouse parcels that carry one of these
   * numbers. A driver sees only orders on a route of theirs: labels and warehouse stock are staff's.
   */
  async matches(ctx: OperationContext, numbers: string[]): Promise<LabelMatch[]> {
    if (numbers.length === 0) return [];
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    const packages = await this.orders.queries.businessPackagesByTrackingNumber(ctx.db, businessId, numbers);
    const recorded = await repo.labelOrdersByTrackingNumbers(ctx.db, businessId, numbers);
    const orderIds = [...new Set([...packages.map((p) => p.order_id), ...recorded.map((r) => r.order_id)])];
    const views = new Map(
      (await this.orders.queries.views(ctx.db, businessId, orderIds)).map((view) => [view.id, view]),
    );
    const visible = (orderId: number) => {
      const view = views.get(orderId);
      return view !== undefined && (caller.kind !== 'driver' || view.driver_id === caller.userId);
    };
    const matches: LabelMatch[] = [];
    const seen = new Set<number>();
    const orderMatch = (view: OrderView, trackingNumber: string, via: 'package' | 'label') => {
      if (seen.has(view.id)) return;
      seen.add(view.id);
      matches.push({
        kind: 'order',
        id: view.id,
        tracking_number: trackingNumber,
        order_ref: view.order_ref,
        status: view.status,
        via,
      });
    };
    for (const pkg of packages) {
      if (visible(pkg.order_id)) orderMatch(views.get(pkg.order_id)!, pkg.tracking_number, 'package');
    }
    for (const row of recorded) {
      if (!visible(row.order_id)) continue;
      const number = row.tracking_numbers.find((n) => numbers.includes(n)) ?? row.tracking_numbers[0]!;
      orderMatch(views.get(row.order_id)!, number, 'label');
    }
    if (caller.kind === 'driver') return matches;
    for (const label of await this.shipping.labelsByTrackingNumbers(ctx.db, businessId, numbers)) {
      matches.push({
        kind: 'shipping_label',
        id: label.id,
        tracking_number: label.tracking_number,
        order_id: label.order_id,
        carrier: label.carrier_code,
        service: label.service_code,
      });
    }
    for (const parcel of await this.warehouses.parcelsByTrackingNumbers(ctx.db, businessId, numbers)) {
      matches.push({
        kind: 'inbound_parcel',
        id: parcel.package_id,
        tracking_number: parcel.tracking_number,
        order_id: parcel.order_id,
        warehouse_id: parcel.warehouse_id,
        state: parcel.state,
      });
    }
    return matches;
  }

  /**
   * Creates the order a label drafted, as create_order would (same checks, same refusals), and
   * records the carrier tracking numbers read so the label matches the order from then on. The
   * same client_id again answers the first order.
   */
  async createOrder(
    ctx: OperationContext,
    input: { order: OrderInput; trackingNumbers: string[]; clientId?: string; image?: LabelImage },
  ): Promise<{
    order: OrderView;
    created: boolean;
    trackingNumbers: string[];
    image: { id: number; expires_at: string } | null;
  }> {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    // A number sent twice is one number.
    const trackingNumbers = [...new Set(input.trackingNumbers)];
    if (input.clientId !== undefined) {
      const known = await repo.orderOfClientId(ctx.db, businessId, input.clientId);
      if (known !== undefined) {
        const [view] = await this.orders.queries.views(ctx.db, businessId, [known.order_id]);
        return { order: view!, created: false, trackingNumbers: known.tracking_numbers, image: null };
      }
    }
    const [order] = await this.orders.intake.create(ctx, [input.order]);
    const recorded = await repo.insertLabelOrder(ctx.db, {
      business_id: businessId,
      order_id: order!.id,
      tracking_numbers: trackingNumbers,
      client_id: input.clientId ?? null,
      created_by: caller.userId,
      created_at: this.clock.now(),
    });
    // Another call with the same client_id committed first: this one's order is rolled back, and
    // sending it again answers that order.
    if (!recorded) throw new AppError('CONCURRENT_UPDATE');
    // Last, so nothing after the file is stored can roll the order back and leave the file behind.
    const image = input.image
      ? await this.images.keep(ctx, order!.id, labelBytes(input.image), input.image.contentType ?? '')
      : null;
    return { order: order!, created: true, trackingNumbers, image };
  }
}

/**
 * The bytes of a label image as a door hands them over. Base64 text is measured before it is
 * decoded, so an oversized text never becomes a buffer; the bytes themselves are checked with the
 * label they are (`checkLabel`), by the reader or by the images kept.
 */
function labelBytes(image: LabelImage): Buffer {
  if (image.bytes) return image.bytes;
  const text = image.base64 ?? '';
  if (text.length > Math.ceil(MAX_LABEL_BYTES / 3) * 4 + 4) throw payloadTooLarge(MAX_LABEL_BYTES);
  return Buffer.from(text, 'base64');
}

/**
 * The numbers a reading is matched on: its tracking numbers (format and check digit hold), then
 * the text of its barcodes (a service's own label carries its package number as Code 128, in no
 * carrier's format), normalised as the reader normalises numbers.
 */
export function candidateNumbers(reading: LabelReading): string[] {
  const found = [
    ...reading.fields.tracking_numbers.map((t) => t.value.number),
    ...reading.barcodes.map((barcode) => barcode.text),
  ]
    .map((text) => text.replace(/\s+/g, '').toUpperCase())
    .filter((text) => CANDIDATE.test(text));
  return [...new Set(found)].slice(0, MAX_CANDIDATES);
}
