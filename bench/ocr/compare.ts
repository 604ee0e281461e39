/**
 * A reading held against the truth, field by field. Comparisons forgive what does not change a
 * value (case, accents, spacing, a postal code's space, a reference's dash) and nothing else.
 */
import type { LabelReading } from '../../src/modules/ocr/reading/types.ts';
import type { LabelTruth } from './truth.ts';

export const FIELDS = [
  'tracking_found',
  'tracking_first',
  'carrier',
  'recipient_postal_code',
  'recipient_city',
  'recipient_country',
  'sender_postal_code',
  'reference',
  'weight',
  'service_level',
] as const;
export type Field = (typeof FIELDS)[number];

export interface Verdict {
  matched: Record<Field, boolean>;
  /** Tracking numbers the reader gave that are neither the truth's nor another number on the label. */
  wrongNumbers: string[];
}

/** Upper case, accents folded, punctuation as spaces, one space between words. */
export const words = (text: string | null | undefined) =>
  (text ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
/** Letters and digits only: "ec1a 1bb" = "EC1A1BB", "PO-48213" = "PO48213". */
export const compact = (text: string | null | undefined) => words(text).replace(/ /g, '');

/** A carrier's name before its service ("UPS GROUND" = "GROUND"): the name is the carrier field's. */
const BRANDS = /^(UPS|FEDEX|USPS|DHL|COLISSIMO|ROYAL MAIL|CANADA POST) /;
const service = (text: string | null | undefined) => words(text).replace(BRANDS, '');

export function compare(truth: LabelTruth, reading: LabelReading | null): Verdict {
  const fields = reading?.fields;
  const numbers = (fields?.tracking_numbers ?? []).map((found) => compact(found.value.number));
  const truthNumber = compact(truth.tracking_number);
  const others = new Set(truth.other_numbers.map(compact));
  const grams = fields?.weight?.value.grams;
  return {
    matched: {
      tracking_found: numbers.includes(truthNumber),
      tracking_first: numbers[0] === truthNumber,
      carrier: (fields?.carrier?.value ?? null) === truth.carrier,
      recipient_postal_code:
        compact(fields?.recipient?.value.postal_code) === compact(truth.recipient.postal_code),
      recipient_city: words(fields?.recipient?.value.city) === words(truth.recipient.city),
      recipient_country: fields?.recipient?.value.country === truth.recipient.country,
      sender_postal_code: compact(fields?.sender?.value.postal_code) === compact(truth.sender.postal_code),
      reference: (fields?.references ?? []).some(
        (found) => compact(found.value) === compact(truth.reference),
      ),
      weight: grams !== undefined && Math.abs(grams - truth.weight.grams) <= 0.01 * truth.weight.grams,
      service_level:
        fields?.service_level != null && service(fields.service_level.value) === service(truth.service_level),
    },
    wrongNumbers: numbers.filter((number) => number !== truthNumber && !others.has(number)),
  };
}

/** Counts over many verdicts: matches per field, labels, wrong numbers accepted. */
export class Tally {
  labels = 0;
  failedReads = 0;
  wrongNumbers = 0;
  matched: Record<Field, number> = Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<
    Field,
    number
  >;

  add(verdict: Verdict, failedRead: boolean): void {
    this.labels++;
    if (failedRead) this.failedReads++;
    this.wrongNumbers += verdict.wrongNumbers.length;
    for (const field of FIELDS) if (verdict.matched[field]) this.matched[field]++;
  }

  rate(field: Field): number {
    return this.labels === 0 ? Number.NaN : this.matched[field] / this.labels;
  }
}
