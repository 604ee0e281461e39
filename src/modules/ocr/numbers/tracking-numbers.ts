/**
 * Carrier tracking numbers, accepted only when their format and check digit hold, so a misread
 * character is caught rather than stored: one candidate, free text as recognised from a label, or
 * a decoded barcode's payload.
 */
import type { TrackingNumber } from '../reading/types.ts';
import { CARRIERS } from './carriers.ts';
import { gs1Mod10 } from './check-digits.ts';
import { FORMATS, type TrackingFormat } from './formats.ts';
import { looksLikeGs1, parseGs1, withoutSymbologyIdentifier } from './gs1.ts';

export { CARRIERS } from './carriers.ts';
export { completeTrackingNumber } from './formats.ts';
export { gs1Weight, parseGs1 } from './gs1.ts';

export type TrackingMatch = TrackingNumber;

/** Letters a recogniser reads for digits; used only where a format wants a digit. */
const CONFUSIONS: Record<string, string> = { O: '0', I: '1', L: '1', S: '5', B: '8', Z: '2' };
/** More repairs than this in one number and the reading is too poor to trust. */
const MAX_REPAIRS = 2;
/** Printed groups joined into one number at most (a 34-digit payload printed in pairs). */
const MAX_GROUPS = 17;
const MAX_LENGTH = 38;

const normalise = (text: string) => text.replace(/[\s\-.()]/g, '').toUpperCase();

const matchOf = (format: TrackingFormat, n: string): TrackingMatch => {
  const number = format.stored(n);
  return { number, carrier: format.carrier(n), format: format.format };
};

function recognise(n: string, carriersNamed: Set<string> | null, fromBarcode = false): TrackingMatch | null {
  if (!/^[0-9A-Z]+$/.test(n)) return null;
  for (const format of FORMATS) {
    if (format.barcodeOnly && !fromBarcode) continue;
    if (!format.pattern.test(n) || !format.valid(n)) continue;
    const match = matchOf(format, n);
    if (carriersNamed && format.needsCarrierWord && !carriersNamed.has(match.carrier)) return null;
    return match;
  }
  return null;
}

/** One candidate (spaces and dashes tolerated, any case): its match, or null unless a format and its check hold. */
export function recogniseTrackingNumber(text: string): TrackingMatch | null {
  return recognise(normalise(text), null);
}

/**
 * The readings of a candidate with letters in digit positions read as the digits they resemble:
 * kept only when one single number comes out, with its check digit (never itself repaired) holding.
 */
function repaired(n: string, carriersNamed: Set<string>): TrackingMatch | null {
  const found = new Map<string, TrackingMatch>();
  for (const format of FORMATS) {
    if (format.barcodeOnly) continue;
    const positions = format.repairable(n);
    if (positions.length === 0) continue;
    const chars = [...n];
    let repairs = 0;
    // "1Z" read as "IZ" or "lZ": the fixed prefix carries no information to get wrong.
    if (format.format === 'ups_1z' && (chars[0] === 'I' || chars[0] === 'L') && chars[1] === 'Z') {
      chars[0] = '1';
      repairs += 1;
    }
    for (const position of positions) {
      const digit = CONFUSIONS[chars[position]!];
      if (digit) {
        chars[position] = digit;
        repairs += 1;
      }
    }
    if (repairs === 0 || repairs > MAX_REPAIRS) continue;
    const candidate = chars.join('');
    if (!format.pattern.test(candidate) || !format.valid(candidate)) continue;
    const match = matchOf(format, candidate);
    if (format.needsCarrierWord && !carriersNamed.has(match.carrier)) continue;
    found.set(match.number, match);
  }
  return found.size === 1 ? [...found.values()][0]! : null;
}

/** Carriers whose name or label words appear in the text. */
function carriersNamedIn(text: string): Set<string> {
  const named = new Set<string>();
  for (const [code, carrier] of Object.entries(CARRIERS)) {
    for (const keyword of carrier.keywords) {
      const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text)) named.add(code);
    }
  }
  return named;
}

interface Span {
  start: number;
  end: number;
  length: number;
  repaired: boolean;
  match: TrackingMatch;
}

/**
 * Non-overlapping spans, longest first (a real long number beats a short one made of some of its
 * groups), a number read as printed before a repaired one of the same length.
 */
function pickSpans(spans: Span[]): Span[] {
  const chosen: Span[] = [];
  const order = [...spans].sort(
    (a, b) => b.length - a.length || Number(a.repaired) - Number(b.repaired) || a.start - b.start,
  );
  for (const span of order) {
    if (chosen.every((c) => span.end <= c.start || span.start >= c.end)) chosen.push(span);
  }
  return chosen;
}

/** Printed groups of one number are apart by one space or dash at most. */
const JOINABLE_GAP = /^[ -]?$/;

function numbersInLine(line: string, carriersNamed: Set<string>): TrackingMatch[] {
  const tokens = [...line.matchAll(/[A-Za-z0-9]+/g)].map((m) => ({ text: m[0].toUpperCase(), at: m.index }));
  const joined = (i: number) =>
    JOINABLE_GAP.test(line.slice(tokens[i]!.at + tokens[i]!.text.length, tokens[i + 1]!.at));
  // A span whose neighbouring group holds digits is part of a longer number (perhaps misread): not a number itself.
  const bounded = (start: number, end: number) =>
    (start === 0 || !joined(start - 1) || !/\d/.test(tokens[start - 1]!.text)) &&
    (end === tokens.length || !joined(end - 1) || !/\d/.test(tokens[end]!.text));
  const spans: Span[] = [];
  for (let start = 0; start < tokens.length; start += 1) {
    let text = '';
    for (let end = start + 1; end <= Math.min(tokens.length, start + MAX_GROUPS); end += 1) {
      if (end > start + 1 && !joined(end - 2)) break;
      text += tokens[end - 1]!.text;
      if (text.length > MAX_LENGTH) break;
      if (!bounded(start, end)) continue;
      const exact = recognise(text, carriersNamed);
      const match = exact ?? repaired(text, carriersNamed);
      if (match) spans.push({ start, end, length: text.length, repaired: !exact, match });
    }
  }
  // Two repairs over the same printed groups that disagree: neither is trusted.
  const trusted = spans.filter(
    (r) =>
      !r.repaired ||
      spans.every(
        (o) => !o.repaired || o.end <= r.start || o.start >= r.end || o.match.number === r.match.number,
      ),
  );
  return pickSpans(trusted)
    .sort((a, b) => a.start - b.start)
    .map((s) => s.match);
}

/**
 * Tracking numbers in recognised text, each once, in the order found. A number may be printed in
 * groups ("1Z 999 AA1 01 2345 6784"); numbers do not run across lines.
 */
export function findTrackingNumbers(text: string): TrackingMatch[] {
  const carriersNamed = carriersNamedIn(text);
  const found = new Map<string, TrackingMatch>();
  for (const line of text.split(/\r?\n/)) {
    for (const match of numbersInLine(line, carriersNamed)) {
      if (!found.has(match.number)) found.set(match.number, match);
    }
  }
  return [...found.values()];
}

/** Separators of structured payloads (ISO/IEC 15434): group, record, end of transmission. */
const GROUP_SEPARATOR = '\u001d';
const SEPARATORS = [GROUP_SEPARATOR, '\u001e', '\u0004'];

const fieldsOf = (payload: string): string[] =>
  SEPARATORS.reduce((fields, separator) => fields.flatMap((field) => field.split(separator)), [payload]);

/** Symbologies that hold only a product number, never a tracking number. */
const PRODUCT_SYMBOLOGIES = new Set(['EAN-8', 'EAN-13', 'UPC-A', 'UPC-E', 'EAN8', 'EAN13', 'UPCA', 'UPCE']);

/** Numbers in a tracking link: its query values, path segments and fragment (single-page trackers). */
function numbersInUrl(text: string): TrackingMatch[] {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return [];
  }
  const segments = `${url.pathname}/${url.hash.slice(1)}`.split(/[/?&=]/).map(safeDecode);
  const parts = [...url.searchParams.values(), ...segments];
  return parts.flatMap((part) => part.split(/[,;]/)).flatMap((part) => recogniseOrNone(part));
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A barcode's field: its symbology's own check guards every digit, so payload-only forms are read too. */
const recogniseOrNone = (text: string): TrackingMatch[] => {
  const match = recognise(normalise(text), null, true);
  return match ? [match] : [];
};

/** Tracking numbers in GS1 data: the SSCC (00), the GSIN (402), and carrier fields 90-99 (USPS after 420). */
function numbersInGs1(text: string): TrackingMatch[] {
  const found: TrackingMatch[] = [];
  for (const [ai, value] of parseGs1(text)) {
    if (ai === '00') found.push(...recogniseOrNone(`00${value}`));
    else if (ai === '402' && gs1Mod10(value.slice(0, 16)) === value[16]) {
      found.push({ number: value, carrier: 'unknown', format: 'gs1_gsin' });
    } else if (/^9\d$/.test(ai)) found.push(...recogniseOrNone(ai + value));
  }
  return found;
}

/**
 * Tracking numbers in a decoded barcode's payload (ZXing's symbology name and text): a plain
 * number, a USPS "420" + ZIP routing prefix, the FedEx 34-digit payload, GS1 data ((00) SSCC),
 * a structured carrier message ("[)>" RS "01" GS "96" ... as in UPS MaxiCode), or a tracking link.
 */
export function trackingNumbersFromBarcode(format: string, text: string): TrackingMatch[] {
  if (PRODUCT_SYMBOLOGIES.has(format)) return [];
  const payload = withoutSymbologyIdentifier(text.trim());
  const found: TrackingMatch[] = [];
  if (/^https?:\/\//i.test(payload)) {
    found.push(...numbersInUrl(payload));
  } else {
    // GS1 data is read by its application identifiers only: its elements run together would make
    // a number of digits that are no number ("(02)…(37)33" is no USPS number).
    const gs1 = !payload.startsWith('[)>') && looksLikeGs1(text.trim());
    if (gs1) found.push(...numbersInGs1(text.trim()));
    else found.push(...recogniseOrNone(payload.replaceAll(GROUP_SEPARATOR, '')));
    if (payload.startsWith('[)>')) {
      for (const field of fieldsOf(payload)) found.push(...recogniseOrNone(field));
    }
    if (found.length === 0 && !gs1) found.push(...findTrackingNumbers(fieldsOf(payload).join('\n')));
  }
  const unique = new Map<string, TrackingMatch>();
  for (const match of found) if (!unique.has(match.number)) unique.set(match.number, match);
  return [...unique.values()];
}
