import { findPostalCode, normalisePostalCode } from '../numbers/index.ts';
import type { TextLine } from './recognise.ts';
import type { Found, LabelAddress, Region } from './types.ts';

/**
 * Addresses on a label: a heading (SHIP TO, FROM, and their words in the languages labels are
 * printed in), then the lines under it in the same column, name first, down to the line with
 * the postal code and city (and a country line after it).
 */
const RECIPIENT_HEADING =
  /^(?:ship\s*to|deliver\s*to|delivery\s*address|to\s*[/|iIl1]{1,2}\s*[aà]|to|recipient|consignee|destinataire|empf(?:ä|a)nger|destinatario|[aà])(?![\p{L}\p{N}])\s*[:.]?\s*/iu;
const SENDER_HEADING =
  /^(?:from\s*[/|]\s*de|from|origin|sender|shipper|ship\s*from|return\s*(?:address|to)|exp(?:é|e)diteur|absender|remitente|mittente|de)(?![\p{L}\p{N}])\s*[:.]?\s*/iu;

/** Words that end an address block: the next part of the label has begun. */
const NOT_ADDRESS =
  /\b(?:weight|poids|gewicht|peso|wt|wgt|actwgt|ref(?:erence)?|order|tracking|dims?|dimensions|package|pkg|date|service|sscc|carrier|track|pieces?|colis)\b/i;

const COUNTRY_NAMES: Record<string, string> = {
  US: 'UNITED STATES|USA|U\\.S\\.A\\.|ETATS-UNIS',
  CA: 'CANADA',
  GB: 'UNITED KINGDOM|UK|GREAT BRITAIN|ENGLAND|SCOTLAND|WALES',
  FR: 'FRANCE',
  DE: 'GERMANY|DEUTSCHLAND|ALLEMAGNE',
  NL: 'NETHERLANDS|NEDERLAND|PAYS-BAS|HOLLAND',
  BE: 'BELGIUM|BELGIQUE|BELGIE',
  ES: 'SPAIN|ESPANA|ESPAÑA|ESPAGNE',
  IT: 'ITALY|ITALIA|ITALIE',
  CH: 'SWITZERLAND|SCHWEIZ|SUISSE',
  AT: 'AUSTRIA|ÖSTERREICH|OSTERREICH',
  AU: 'AUSTRALIA',
  IE: 'IRELAND',
  PT: 'PORTUGAL',
  PL: 'POLAND|POLSKA',
  SE: 'SWEDEN|SVERIGE',
  DK: 'DENMARK|DANMARK',
  JP: 'JAPAN',
};
const COUNTRY_CODES = Object.keys(COUNTRY_NAMES);
/** A country at the end of a line: its name, or its ISO code after a comma or alone. */
const TRAILING_COUNTRY = new RegExp(
  `(?:^|[\\s,])(${Object.values(COUNTRY_NAMES).join('|')}|${COUNTRY_CODES.join('|')})\\.?$`,
  'i',
);
const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';
const CA_PROVINCES = 'AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT';
const US_PLACE = new RegExp(`^(.*?)[,\\s]+(${US_STATES})\\s+(\\d{5}(?:-\\d{4})?)\\b`);
// A Canadian code alternates letters and digits; an O where a digit stands is a misread zero.
const CA_PLACE = new RegExp(
  `^(.*?)[,\\s]+(${CA_PROVINCES})\\s+([A-Z][\\dO][A-Z]\\s?[\\dO][A-Z][\\dO])\\b`,
  'i',
);

export type AddressRole = 'recipient' | 'sender';

/** The sender and recipient blocks of a label, each where a heading announces it. */
export function findAddresses(lines: TextLine[]): Record<AddressRole, Found<LabelAddress> | null> {
  const found: Record<AddressRole, Found<LabelAddress> | null> = { recipient: null, sender: null };
  const used = new Set<TextLine>();
  const unit = lineUnit(lines);
  for (let index = 0; index < lines.length; index++) {
    const text = headingText(lines[index]!.text);
    const role: AddressRole | null = SENDER_HEADING.test(text)
      ? 'sender'
      : RECIPIENT_HEADING.test(text)
        ? 'recipient'
        : null;
    if (!role || found[role]) continue;
    const heading = role === 'sender' ? SENDER_HEADING : RECIPIENT_HEADING;
    const rest = text
      .replace(heading, '')
      .replace(/^[^\p{L}\p{N}]+$/u, '')
      .trim();
    // "TO" is a word of other lines too: a heading only alone or with a colon. "A" and "DE"
    // (French, Spanish) are headings only with their colon.
    if (/^(?:to|[aà]|de)(?![\p{L}\p{N}])/iu.test(text) && !/^(?:to|[aà]|de)\s*[:.]/iu.test(text) && rest)
      continue;
    if (/^(?:[aà]|de)$/iu.test(text)) continue;
    const block = blockUnder(lines, index, rest, unit);
    const address = foundAddress(block);
    if (address) {
      found[role] = address;
      for (const line of block) used.add(line);
      used.add(lines[index]!);
    }
  }
  if (!found.recipient || !found.sender) unheaded(lines, used, found, unit);
  return found;
}

function foundAddress(block: TextLine[]): Found<LabelAddress> | null {
  const address = block.length > 0 ? parseAddress(block.map((line) => line.text)) : null;
  if (!address) return null;
  return {
    value: address,
    confidence: Math.min(...block.map((line) => line.confidence)),
    region: union(block.map((line) => line.region)),
    source: 'text',
  };
}

/**
 * Addresses whose heading was not read (a blurred "SHIP TO"): blocks that end on a place line.
 * The recipient is the one printed larger, as carriers print it; at equal size the lower one.
 */
function unheaded(
  lines: TextLine[],
  used: Set<TextLine>,
  found: Record<AddressRole, Found<LabelAddress> | null>,
  unit: number,
): void {
  const blocks: Array<{ block: TextLine[]; size: number; top: number }> = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (used.has(line) || !readPlace(line.text, null)) continue;
    const block = [line];
    for (let above = index - 1; above >= 0 && block.length < 6; above--) {
      const candidate = lines[above]!;
      const upper = block[0]!;
      const gap = upper.upright.y - (candidate.upright.y + candidate.upright.height);
      const sameColumn = Math.abs(candidate.upright.x - upper.upright.x) < 3 * upper.upright.height;
      if (!sameColumn || used.has(candidate) || gap > 1.5 * Math.max(unit, upper.upright.height)) break;
      if (isHeading(candidate.text) || NOT_ADDRESS.test(candidate.text) || /^[\W_]+$/.test(candidate.text))
        break;
      block.unshift(candidate);
    }
    // The country line under the place line belongs to it.
    const next = lines[index + 1];
    if (next && !used.has(next) && countryOnly(next.text)) block.push(next);
    if (block.length < 2) continue;
    const size = block.reduce((sum, entry) => sum + entry.upright.height, 0) / block.length;
    blocks.push({ block, size, top: block[0]!.upright.y });
    for (const entry of block) used.add(entry);
  }
  blocks.sort((a, b) => b.size - a.size || b.top - a.top);
  for (const role of ['recipient', 'sender'] as const) {
    if (found[role]) continue;
    const next = blocks.shift();
    if (next) found[role] = foundAddress(next.block);
  }
}

/** The height of a line of small print on this label: the median of the lines read with some confidence. */
function lineUnit(lines: TextLine[]): number {
  const heights = lines
    .filter((line) => line.confidence > 0.5)
    .map((line) => line.upright.height)
    .sort((a, b) => a - b);
  return heights.length > 0 ? heights[Math.floor(heights.length / 2)]! : 0;
}

/** A line that opens another block: a heading alone, or a heading and a colon. */
function isHeading(text: string): boolean {
  const clean = headingText(text);
  return [RECIPIENT_HEADING, SENDER_HEADING].some((heading) => {
    const match = heading.exec(clean);
    return match !== null && (match[0].length === clean.length || match[0].includes(':'));
  });
}

/** OCR reads O for 0 and the other way round in headings: "SHIP T0". */
function headingText(text: string): string {
  return text.replace(/^([A-Za-z ]*?)0/, '$1O').trim();
}

/** The lines of the block a heading opens: below it, in its column, without a wide gap. */
function blockUnder(
  lines: TextLine[],
  headingIndex: number,
  restOfHeading: string,
  unit: number,
): TextLine[] {
  const heading = lines[headingIndex]!;
  const block: TextLine[] = restOfHeading ? [{ ...heading, text: restOfHeading }] : [];
  let bottom = heading.upright.y + heading.upright.height;
  const lineHeights: number[] = [];
  for (const line of lines.slice(headingIndex + 1)) {
    if (block.length >= 7) break;
    const text = line.text.trim();
    if (!text) continue;
    const sameColumn =
      line.upright.x < heading.upright.x + Math.max(heading.upright.width, 200) &&
      line.upright.x + line.upright.width > heading.upright.x - 20;
    if (!sameColumn) continue;
    const usual = Math.max(unit, ...lineHeights);
    if (line.upright.y - bottom > 2.2 * usual) break;
    if (isHeading(text)) break;
    if (NOT_ADDRESS.test(text) || /^[\W_]+$/.test(text)) break;
    block.push(line);
    lineHeights.push(line.upright.height);
    // A line that is only a country is the last of an address.
    if (countryOnly(text)) break;
    bottom = line.upright.y + line.upright.height;
  }
  return block;
}

/** Reads the parts of an address's lines: name first, the place line, the country. */
export function parseAddress(rawLines: string[]): LabelAddress | null {
  const lines = rawLines.map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (lines.length < 2) return null;
  let country: string | null = null;
  let placeIndex = -1;
  let postalCode: string | null = null;
  let city: string | null = null;
  // A line that is only a country closes the block.
  const last = lines[lines.length - 1]!;
  const lastCountry = countryOf(last);
  const countryLineAlone = lastCountry && last.replace(TRAILING_COUNTRY, '').replace(/[\s,]/g, '') === '';
  if (countryLineAlone) country = lastCountry;
  for (let index = lines.length - 1 - (countryLineAlone ? 1 : 0); index >= 1; index--) {
    const place = readPlace(lines[index]!, country);
    if (place) {
      ({ postalCode, city, country } = place);
      placeIndex = index;
      break;
    }
  }
  if (placeIndex === -1) return null;
  // The British print the town on its own line above the postcode.
  if (!city && placeIndex >= 2) {
    city = lines[placeIndex - 1]!;
    return address(lines, lines.slice(1, placeIndex - 1), postalCode, city, country);
  }
  return address(lines, lines.slice(1, placeIndex), postalCode, city, country);
}

function address(
  lines: string[],
  street: string[],
  postalCode: string | null,
  city: string | null,
  country: string | null,
): LabelAddress {
  return { lines, name: lines[0]!, street, postal_code: postalCode, city: city?.trim() || null, country };
}

/** A place line: "New York, NY 10001", "75001 Paris, FR", "Ottawa ON K1A 0B1", "SW1A 1AA". */
function readPlace(
  line: string,
  knownCountry: string | null,
): { postalCode: string; city: string | null; country: string | null } | null {
  const trailing = countryOf(line);
  const country = trailing ?? knownCountry;
  const body = zerosRead(trailing ? line.replace(TRAILING_COUNTRY, '').replace(/[\s,]+$/, '') : line);
  if (country === 'US' || !country) {
    const us = US_PLACE.exec(body);
    if (us) return { postalCode: us[3]!, city: cleanCity(us[1]!), country: 'US' };
  }
  if (country === 'CA' || !country) {
    const ca = CA_PLACE.exec(body);
    if (ca) {
      const characters = [...ca[3]!.toUpperCase().replace(/\s/g, '')];
      const code = characters
        .map((character, at) => (at % 2 === 1 && character === 'O' ? '0' : character))
        .join('');
      const postalCode = normalisePostalCode('CA', code);
      if (postalCode) return { postalCode, city: cleanCity(ca[1]!), country: 'CA' };
    }
  }
  // Without a country, a shape that names its own (British, Dutch, ...), else five bare digits
  // as most of Europe writes them, the country left unknown.
  const code = findPostalCode(country, body) ?? (country ? null : findPostalCode('DE', body));
  if (!code) return null;
  const named = country ?? (code.country === 'DE' ? null : code.country);
  const city = cleanCity(body.slice(0, code.start) + body.slice(code.end), named);
  return { postalCode: code.code, city: city || null, country: named };
}

/**
 * A letter O where a postal code wants a digit is a zero the recogniser misread: among digits
 * ("75OO1"), and first in a British inward code ("EH1 OEG"). The code is still checked by its
 * country's shape afterwards.
 */
function zerosRead(line: string): string {
  return line
    .replace(/\b[\dO]{3,}\b/g, (token) => (/\d{2}/.test(token) ? token.replace(/O/g, '0') : token))
    .replace(/\b([A-Z]{1,2}\d[A-Z\d]?\s+)O([A-Z]{2})\b/, '$10$2');
}

/** Australian states and territories, printed between the town and the postcode. */
const AU_STATE = /\s+(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\s*$/i;

/** Italian provinces, two letters after the town ("00153 ROMA RM"). */
const IT_PROVINCE = /\s+[A-Z]{2}$/;

function cleanCity(text: string, country?: string | null): string {
  const town = text.replace(/\b(?:CEDEX)\b.*$/i, '').replace(/[\s,]+$/, '');
  const withoutRegion =
    country === 'AU' ? town.replace(AU_STATE, '') : country === 'IT' ? town.replace(IT_PROVINCE, '') : town;
  return withoutRegion.replace(/^[\s,\-–]+|[\s,\-–]+$/g, '').replace(/\s{2,}/g, ' ');
}

function countryOnly(line: string): boolean {
  const country = countryOf(line);
  return country !== null && line.replace(TRAILING_COUNTRY, '').replace(/[\s,.]/g, '') === '';
}

function countryOf(line: string): string | null {
  const match = TRAILING_COUNTRY.exec(line.trim());
  if (!match) return null;
  const word = match[1]!.toUpperCase();
  if (COUNTRY_CODES.includes(word)) {
    // A bare two-letter code is a country only after a comma or alone (not a US state's "CA").
    const before = line
      .trim()
      .slice(0, line.trim().length - match[0].length + (match[0].length - word.length));
    if (!/,\s*$/.test(before) && before.trim() !== '') return null;
    return word;
  }
  return COUNTRY_CODES.find((code) => new RegExp(`^(?:${COUNTRY_NAMES[code]})$`, 'i').test(word)) ?? null;
}

export function union(regions: Region[]): Region | null {
  if (regions.length === 0) return null;
  const x = Math.min(...regions.map((r) => r.x));
  const y = Math.min(...regions.map((r) => r.y));
  const right = Math.max(...regions.map((r) => r.x + r.width));
  const bottom = Math.max(...regions.map((r) => r.y + r.height));
  return { x, y, width: right - x, height: bottom - y };
}
