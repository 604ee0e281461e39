import { type Address, type OrderInput, packageInputSchema } from '../orders/index.ts';
import type { Dimensions, LabelAddress, LabelReading } from './reading/types.ts';

/**
 * A create_order input drafted from a reading, for the caller to correct and send to
 * create_order_from_label: nothing is created from a reading alone.
 */
export interface OrderDraft {
  /** create_order's input, with what the label said. */
  order: Partial<OrderInput> & Pick<OrderInput, 'family'>;
  /** The carrier tracking numbers read (create_order has no place for them): kept with the order. */
  tracking_numbers: string[];
  /** The carrier the label names, if read. */
  carrier: string | null;
  /** create_order's fields the label did not fill and the order needs (`dropoff`, `pickup`). */
  missing: string[];
}

const MM_PER: Record<Dimensions['unit'], number> = { mm: 1, cm: 10, in: 25.4 };
/** create_order's own bounds of a package: a value read beyond them is left out, not clipped. */
const { weight_grams: weightGrams, length_mm: sideMm } = packageInputSchema.shape;

export function orderDraftOf(reading: LabelReading): OrderDraft {
  const { fields } = reading;
  const dropoff = addressOf(fields.recipient?.value);
  const pickup = addressOf(fields.sender?.value);
  const trackingNumbers = [...new Set(fields.tracking_numbers.map((found) => found.value.number))];
  const carrier = fields.carrier?.value ?? fields.tracking_numbers[0]?.value.carrier ?? null;
  const order: OrderDraft['order'] = {
    family: 'local_delivery',
    // Both ends read: picked up from the sender and delivered to the recipient; else a delivery.
    type: dropoff && pickup ? 'P2P' : 'D',
    ...(dropoff ? { dropoff } : {}),
    ...(dropoff && pickup ? { pickup } : {}),
  };
  const reference = draftRefOf(reading);
  if (reference !== undefined) order.order_ref = reference;
  const note = [
    carrier ? `Carrier: ${carrier}` : null,
    trackingNumbers.length > 0 ? `Tracking: ${trackingNumbers.join(', ')}` : null,
    fields.service_level ? `Service: ${fields.service_level.value}` : null,
  ].filter((part) => part !== null);
  if (note.length > 0) order.note = note.join('. ').slice(0, 2000);
  const pkg = packageOf(reading);
  if (pkg) order.packages = [pkg];
  return {
    order,
    tracking_numbers: trackingNumbers,
    carrier,
    missing: dropoff ? [] : ['dropoff'],
  };
}

/** The reference the draft takes as its order_ref: the first one printed, if it fits one. */
export function draftRefOf(reading: LabelReading): string | undefined {
  const reference = reading.fields.references[0]?.value.trim();
  return reference && reference.length <= 64 ? reference : undefined;
}

/**
 * The draft without its order_ref when that reference is an order's already: create_order then
 * numbers the new order itself, and the note keeps the reference the label printed. Sent back as
 * it is, such a draft is created, not refused 409 ORDER_REF_TAKEN.
 */
export function withoutTakenRef(draft: OrderDraft, taken: boolean): OrderDraft {
  if (!taken || draft.order.order_ref === undefined) return draft;
  const { order_ref: reference, ...order } = draft.order;
  const note = [`Label reference: ${reference} (an existing order's)`, order.note].filter(Boolean).join('. ');
  return { ...draft, order: { ...order, note: note.slice(0, 2000) } };
}

function addressOf(read: LabelAddress | undefined): Address | undefined {
  const line1 = read?.street[0]?.trim();
  if (!read || !line1) return undefined;
  const address: Address = { line1: line1.slice(0, 200) };
  const line2 = read.street.slice(1).join(', ').trim();
  if (line2) address.line2 = line2.slice(0, 200);
  if (read.name) address.name = read.name.slice(0, 200);
  if (read.postal_code && read.postal_code.length <= 20) address.postal_code = read.postal_code;
  if (read.city) address.city = read.city.slice(0, 100);
  if (read.country && /^[A-Z]{2}$/.test(read.country)) address.country = read.country;
  return address;
}

function packageOf(reading: LabelReading): NonNullable<OrderInput['packages']>[number] | undefined {
  const pkg: NonNullable<OrderInput['packages']>[number] = {};
  const grams = reading.fields.weight ? Math.round(reading.fields.weight.value.grams) : undefined;
  if (grams !== undefined && weightGrams.safeParse(grams).success) pkg.weight_grams = grams;
  const dimensions = reading.fields.dimensions?.value;
  if (dimensions) {
    const mm = (value: number) => Math.round(value * MM_PER[dimensions.unit]);
    const sides = [mm(dimensions.length), mm(dimensions.width), mm(dimensions.height)];
    if (sides.every((side) => sideMm.safeParse(side).success)) {
      [pkg.length_mm, pkg.width_mm, pkg.height_mm] = sides as [number, number, number];
    }
  }
  return Object.keys(pkg).length > 0 ? pkg : undefined;
}
