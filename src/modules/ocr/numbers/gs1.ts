/**
 * GS1 application identifiers (AIs) as they appear on transport labels, and a parser of GS1-128 /
 * GS1 DataMatrix payloads: "(00)123...(420)12345" as printed, or the decoded form where
 * variable-length fields end at a group separator (FNC1, \u001d), optionally after a symbology
 * identifier (]C1, ]d2, ]Q3, ]e0).
 */

const GROUP_SEPARATOR = '\u001d';

/** Length of an AI's data: fixed, or variable up to max (ended by a separator or the payload's end). */
type DataLength = { fixed: number } | { max: number };

const fixed = (n: number): DataLength => ({ fixed: n });
const upTo = (n: number): DataLength => ({ max: n });

/** Two- and three-digit AIs; the four-digit measure AIs (31nn-36nn, 7nnn, 8nnn) are looked up below. */
const AIS: Record<string, DataLength> = {
  '00': fixed(18),
  '01': fixed(14),
  '02': fixed(14),
  '10': upTo(20),
  '11': fixed(6),
  '12': fixed(6),
  '13': fixed(6),
  '15': fixed(6),
  '16': fixed(6),
  '17': fixed(6),
  '20': fixed(2),
  '21': upTo(20),
  '22': upTo(20),
  '30': upTo(8),
  '37': upTo(8),
  '240': upTo(30),
  '241': upTo(30),
  '250': upTo(30),
  '251': upTo(30),
  '253': upTo(30),
  '400': upTo(30),
  '401': upTo(30),
  '402': fixed(17),
  '403': upTo(30),
  '410': fixed(13),
  '411': fixed(13),
  '412': fixed(13),
  '413': fixed(13),
  '414': fixed(13),
  '415': fixed(13),
  '416': fixed(13),
  '417': fixed(13),
  '420': upTo(20),
  '421': upTo(12),
  '422': fixed(3),
  '423': upTo(15),
  '424': fixed(3),
  '425': upTo(15),
  '426': fixed(3),
  '90': upTo(30),
  '91': upTo(90),
  '92': upTo(90),
  '93': upTo(90),
  '94': upTo(90),
  '95': upTo(90),
  '96': upTo(90),
  '97': upTo(90),
  '98': upTo(90),
  '99': upTo(90),
};

const FOUR_DIGIT_AIS: Record<string, DataLength> = {
  '7001': fixed(13),
  '7002': upTo(30),
  '7003': fixed(10),
  '8004': upTo(30),
  '8018': fixed(18),
  '8020': upTo(25),
};

function lengthOf(ai: string): DataLength | undefined {
  if (ai.length === 4) {
    // 31nn-36nn: trade measures (weight, length, volume), six digits, the last AI digit gives the decimals.
    if (/^3[1-6]\d[0-9]$/.test(ai)) return fixed(6);
    return FOUR_DIGIT_AIS[ai];
  }
  return AIS[ai];
}

/** A payload with its symbology identifier removed (ZXing puts ]C1 before a GS1-128 payload). */
export function withoutSymbologyIdentifier(text: string): string {
  return text.replace(/^\][A-Za-z][0-9]/, '');
}

/** Whether a payload is GS1 data: a GS1 symbology identifier, a separator, or the printed "(AI)" form. */
export function looksLikeGs1(text: string): boolean {
  return /^\](C1|d2|Q3|e0|J1)/.test(text) || /^\(\d{2,4}\)/.test(text) || text.includes(GROUP_SEPARATOR);
}

/**
 * The AIs of a GS1 payload and their data, in order. Parsing stops at the first unknown AI or
 * malformed field: what came before it is kept.
 */
export function parseGs1(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  const payload = withoutSymbologyIdentifier(text.trim());
  if (payload.startsWith('(')) {
    for (const m of payload.matchAll(/\((\d{2,4})\)([^(]*)/g)) {
      const ai = m[1]!;
      const value = m[2]!.replaceAll(GROUP_SEPARATOR, '').replace(/\s+/g, '');
      const length = lengthOf(ai);
      if (!length) break;
      if ('fixed' in length ? value.length !== length.fixed : value.length === 0 || value.length > length.max)
        break;
      fields.set(ai, value);
    }
    return fields;
  }
  let at = 0;
  while (at < payload.length) {
    if (payload[at] === GROUP_SEPARATOR) {
      at += 1;
      continue;
    }
    const ai = [2, 3, 4].map((n) => payload.slice(at, at + n)).find((candidate) => lengthOf(candidate));
    if (!ai || !/^\d+$/.test(ai)) break;
    const length = lengthOf(ai)!;
    const start = at + ai.length;
    let end: number;
    if ('fixed' in length) {
      end = start + length.fixed;
      if (end > payload.length) break;
    } else {
      const separator = payload.indexOf(GROUP_SEPARATOR, start);
      end = separator === -1 ? payload.length : separator;
      if (end - start > length.max || end === start) break;
    }
    const value = payload.slice(start, end);
    if (value.includes(GROUP_SEPARATOR)) break;
    fields.set(ai, value);
    at = end;
  }
  return fields;
}

/** The weight a GS1 payload carries: gross (330n, 340n) before net (310n, 320n); n is the decimals. */
export function gs1Weight(fields: Map<string, string>): { value: number; unit: 'kg' | 'lb' } | null {
  for (const [prefix, unit] of [
    ['330', 'kg'],
    ['340', 'lb'],
    ['310', 'kg'],
    ['320', 'lb'],
  ] as const) {
    for (const [ai, data] of fields) {
      if (ai.length === 4 && ai.startsWith(prefix) && /^\d{6}$/.test(data)) {
        const decimals = Number(ai[3]);
        if (decimals > 5) continue;
        return { value: Number(data) / 10 ** decimals, unit };
      }
    }
  }
  return null;
}
