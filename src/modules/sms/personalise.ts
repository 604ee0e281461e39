import { invalidField } from '../../platform/errors.ts';
import { measure } from './text.ts';

/**
 * Personalisation fields of a campaign's body: `{first_name}` and `{last_name}` (the subscriber's
 * attributes of those names), `{attribute.KEY}` (any attribute) and `{offer_code}` (the
 * recipient's own code, issued when the message is written). docs/sms-marketing.md, "Campaigns".
 */
const FIELD = /\{([^{}]*)\}/g;
const NAMED = new Set(['first_name', 'last_name']);
export const OFFER_CODE_FIELD = 'offer_code';
/** Longest a filled field is counted for a body's limit, before any audience is known. */
export const PLAUSIBLE_FILL = 20;
/** An offer code's length (offers.ts). */
const CODE_LENGTH = 8;
export const MAX_SEGMENTS = 10;

/** The attribute a field reads, or the offer code. */
export type Field = { kind: 'attribute'; key: string; text: string } | { kind: 'offer_code'; text: string };

/** The fields a body uses; an unknown one is refused, named. */
export function fieldsOf(body: string): Field[] {
  const fields: Field[] = [];
  for (const match of body.matchAll(FIELD)) {
    const name = (match[1] ?? '').trim();
    if (name === OFFER_CODE_FIELD) fields.push({ kind: 'offer_code', text: match[0] });
    else if (NAMED.has(name)) fields.push({ kind: 'attribute', key: name, text: match[0] });
    else if (/^attribute\.[A-Za-z0-9_-]{1,64}$/.test(name))
      fields.push({ kind: 'attribute', key: name.slice('attribute.'.length), text: match[0] });
    else
      throw invalidField(
        'body',
        `Unknown personalisation field {${name}}: use {first_name}, {last_name}, {attribute.KEY} or {offer_code}.`,
      );
  }
  return fields;
}

export function usesOfferCode(body: string): boolean {
  return fieldsOf(body).some((field) => field.kind === 'offer_code');
}

/** The body with each field filled: a missing attribute reads as nothing. */
export function personalise(
  body: string,
  attributes: Record<string, unknown>,
  offerCode: string | undefined,
): string {
  return body.replace(FIELD, (_text, raw: string) => {
    const name = raw.trim();
    if (name === OFFER_CODE_FIELD) return offerCode ?? '';
    const key = name.startsWith('attribute.') ? name.slice('attribute.'.length) : name;
    const value = attributes[key];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** The longest fill of each attribute field and whether any value could need UCS-2. */
export type Fills = Map<string, { length: number; unicode: boolean }>;

/**
 * The body as its longest message would read: each attribute field filled with as many characters
 * as its longest value (a value outside printable ASCII counted as a UCS-2 character, the worst
 * case), the offer code with its 8. Without `fills`, every field is counted as PLAUSIBLE_FILL
 * GSM-7 characters.
 */
export function longestFill(body: string, fills?: Fills) {
  const filled = body.replace(FIELD, (_text, raw: string) => {
    const name = raw.trim();
    if (name === OFFER_CODE_FIELD) return 'X'.repeat(CODE_LENGTH);
    const key = name.startsWith('attribute.') ? name.slice('attribute.'.length) : name;
    const fill = fills
      ? (fills.get(key) ?? { length: 0, unicode: false })
      : { length: PLAUSIBLE_FILL, unicode: false };
    return (fill.unicode ? '中' : 'x').repeat(fill.length);
  });
  return measure(filled);
}

/** A body's checks: known fields only, at most MAX_SEGMENTS segments at its plausible longest. */
export function checkBody(body: string): void {
  fieldsOf(body);
  const measured = longestFill(body);
  if (measured.segments > MAX_SEGMENTS)
    throw invalidField(
      'body',
      `The message takes ${measured.segments} segments (${measured.encoding}) with its fields filled; at most ${MAX_SEGMENTS}.`,
    );
}
