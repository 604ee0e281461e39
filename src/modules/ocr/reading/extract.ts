import {
  CARRIERS,
  findTrackingNumbers,
  gs1Weight,
  parseGs1,
  trackingNumbersFromBarcode,
} from '../numbers/index.ts';
import { findAddresses } from './addresses.ts';
import type { TextLine } from './recognise.ts';
import type { DecodedBarcode, Dimensions, Found, LabelFields, TrackingNumber, Weight } from './types.ts';

/**
 * What a label's barcodes and text mean. Barcodes first: a decoded symbol is exact, and a number
 * in it counts only where its format and check digit hold. Printed text second, for what the
 * barcodes do not carry and for numbers whose barcode could not be read; a printed number too
 * counts only with a valid check digit, so a misread digit is left out rather than stored.
 */
export function extractFields(
  barcodes: DecodedBarcode[],
  lines: TextLine[],
  ownTrackingUrl?: string,
): LabelFields {
  const trackingNumbers = trackingNumbersOf(barcodes, lines, ownTrackingUrl);
  const { recipient, sender } = findAddresses(lines);
  return {
    tracking_numbers: trackingNumbers,
    carrier: carrierOf(trackingNumbers, lines),
    sender,
    recipient,
    references: referencesOf(lines),
    weight: weightOf(barcodes, lines),
    dimensions: dimensionsOf(lines),
    service_level: serviceLevelOf(lines),
  };
}

function trackingNumbersOf(
  barcodes: DecodedBarcode[],
  lines: TextLine[],
  ownTrackingUrl: string | undefined,
): Found<TrackingNumber>[] {
  const found = new Map<string, Found<TrackingNumber>>();
  const add = (entry: Found<TrackingNumber>) => {
    if (!found.has(entry.value.number)) found.set(entry.value.number, entry);
  };
  for (const barcode of barcodes) {
    const own = ownTrackingUrl && ownNumberOf(barcode.text, ownTrackingUrl);
    if (own) add({ value: own, confidence: 1, region: barcode.region, source: 'barcode' });
    for (const value of trackingNumbersFromBarcode(barcode.format, barcode.text)) {
      add({ value, confidence: 1, region: barcode.region, source: 'barcode' });
    }
  }
  // The whole text at once: some numbers count only where the label names their carrier.
  for (const value of findTrackingNumbers(lines.map((line) => line.text).join('\n'))) {
    const line = lines.find((candidate) => compact(candidate.text).includes(value.number)) ?? null;
    add({ value, confidence: line?.confidence ?? 0.5, region: line?.region ?? null, source: 'text' });
  }
  // Own numbers carry no check digit: they count only from the service's own tracking link.
  return [...found.values()];
}

const compact = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

/** The service's own tracking link (`{base}/track/{number}`), as its labels' QR code holds it. */
function ownNumberOf(text: string, ownTrackingUrl: string): TrackingNumber | null {
  const prefix = `${ownTrackingUrl.replace(/\/$/, '')}/`;
  if (!text.startsWith(prefix)) return null;
  const number = text.slice(prefix.length);
  return /^[0-9A-Z]{4,40}$/.test(number) ? { number, carrier: 'tms', format: 'tms' } : null;
}

function carrierOf(numbers: Found<TrackingNumber>[], lines: TextLine[]): Found<string> | null {
  // The number's format names the carrier (an SSCC names none); the printed name is the fallback.
  const first = numbers.find((found) => found.value.carrier !== 'unknown');
  if (first)
    return {
      value: first.value.carrier,
      confidence: first.confidence,
      region: first.region,
      source: first.source,
    };
  for (const line of lines) {
    for (const [code, carrier] of Object.entries(CARRIERS)) {
      if (carrier.keywords.some((keyword) => wordIn(line.text, keyword))) {
        return { value: code, confidence: line.confidence, region: line.region, source: 'text' };
      }
    }
  }
  return null;
}

function wordIn(text: string, word: string): boolean {
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${literal(word)}(?:$|[^\\p{L}\\p{N}])`, 'iu').test(text);
}
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Ref: X", "Reference No.1: X", "PO Number: X", "Your ref: X", "Référence : X", "Order # X". */
const REFERENCE =
  /\b(?:ref(?:erence)?|r[ée]f[ée]rence|order|po|invoice|commande|bestellung|pedido|customer\s*ref)\.?\s*(?:(?:no|number|num|nr)\.?\s*\d?|#)?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-/]{2,30})/gi;

function referencesOf(lines: TextLine[]): Found<string>[] {
  const found: Found<string>[] = [];
  for (const line of lines) {
    for (const match of line.text.matchAll(REFERENCE)) {
      const value = match[1]!.replace(/[-/]+$/, '');
      if (/\d/.test(value) && !found.some((entry) => entry.value === value)) {
        found.push({ value, confidence: line.confidence, region: line.region, source: 'text' });
      }
    }
  }
  return found;
}

const GRAMS_PER: Record<Weight['unit'], number> = { kg: 1000, g: 1, lb: 453.59237, oz: 28.349523125 };
const WEIGHT = /(\d+(?:[.,]\d+)?)\s*(kgs?|lbs?|g|oz)\b/i;
const WEIGHT_WORD = /\b(?:weight|wt|poids|gewicht|peso|gross)\b/i;

function weightOf(barcodes: DecodedBarcode[], lines: TextLine[]): Found<Weight> | null {
  // A GS1 barcode's gross or net weight (AI 330n/310n in kg, 340n/320n in lb) is exact.
  for (const barcode of barcodes) {
    if (barcode.format !== 'GS1-128' && !barcode.text.startsWith('(')) continue;
    const read = gs1Weight(parseGs1(barcode.text));
    if (read)
      return {
        value: weight(read.value, read.unit),
        confidence: 1,
        region: barcode.region,
        source: 'barcode',
      };
  }
  const candidates = lines.filter((line) => WEIGHT.test(line.text));
  const line = candidates.find((candidate) => WEIGHT_WORD.test(candidate.text)) ?? candidates[0];
  if (!line) return null;
  const match = WEIGHT.exec(line.text)!;
  const unit = match[2]!.toLowerCase().replace(/s$/, '') as Weight['unit'];
  return {
    value: weight(Number(match[1]!.replace(',', '.')), unit),
    confidence: line.confidence,
    region: line.region,
    source: 'text',
  };
}

function weight(value: number, unit: Weight['unit']): Weight {
  return { value, unit, grams: Math.round(value * GRAMS_PER[unit]) };
}

const DIMENSIONS =
  /(\d+(?:[.,]\d+)?)\s*[x×*]\s*(\d+(?:[.,]\d+)?)\s*[x×*]\s*(\d+(?:[.,]\d+)?)\s*(cm|mm|in|")?/i;

function dimensionsOf(lines: TextLine[]): Found<Dimensions> | null {
  for (const line of lines) {
    const match = DIMENSIONS.exec(line.text);
    if (!match) continue;
    const [length, width, height] = [match[1], match[2], match[3]].map((n) => Number(n!.replace(',', '.')));
    const unit = (match[4] === '"' ? 'in' : (match[4]?.toLowerCase() ?? 'cm')) as Dimensions['unit'];
    return {
      value: { length: length!, width: width!, height: height!, unit },
      confidence: line.confidence,
      region: line.region,
      source: 'text',
    };
  }
  return null;
}

/**
 * Words that name a service level in the carriers' own names for them. The service level is the
 * short piece of print holding one, as printed ("UPS WORLDWIDE SAVER", "COLISSIMO POINT RETRAIT").
 */
const SERVICE_WORDS =
  /\b(?:express|priority|ground|economy|standard|overnight|next\s*day|same\s*day|2nd\s*day|2\s*day|3\s*day|saver|tracked|signed|special\s*delivery|xpresspost|expedited|regular\s*parcel|domicile|retrait|relais|worldwide|first[-\s]class|select|pallet|home\s*delivery|advantage|premium|eco|international)\b/i;

/** A carrier's own name as printed ("FedEx Express", "DHL Express"): a brand, not its service. */
const BRAND_NAMES = new Set(
  Object.values(CARRIERS).flatMap((carrier) => carrier.keywords.map((k) => k.toUpperCase())),
);

/**
 * The service level: of the short lines naming a service, one that is not merely a carrier's
 * name, then the one with the most service words ("EXPRESS WORLDWIDE" over "DHL EXPRESS"),
 * then the first.
 */
function serviceLevelOf(lines: TextLine[]): Found<string> | null {
  const candidates = lines.filter(
    (candidate) =>
      SERVICE_WORDS.test(candidate.text) &&
      candidate.text.split(' ').length <= 6 &&
      !/:/.test(candidate.text.replace(/\d{1,2}:\d{2}/, '')) &&
      !/\d{4,}/.test(candidate.text),
  );
  const rank = (line: TextLine) =>
    (BRAND_NAMES.has(line.text.replace(/\s+/g, ' ').trim().toUpperCase()) ? 0 : 100) +
    (line.text.match(new RegExp(SERVICE_WORDS.source, 'gi'))?.length ?? 0);
  const line = candidates.reduce<TextLine | undefined>(
    (best, candidate) => (best === undefined || rank(candidate) > rank(best) ? candidate : best),
    undefined,
  );
  if (!line) return null;
  return {
    value: line.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''),
    confidence: line.confidence,
    region: line.region,
    source: 'text',
  };
}
