/**
 * Postal codes of the countries labels are read for: whether a code has its country's shape,
 * its written form, and where it sits in an address line. A code of the wrong shape is a misread
 * (or another number), never stored as a postal code.
 */

interface PostalRule {
  /** The code without spaces or dashes, upper case. */
  compact: RegExp;
  /** The written form from the compact one. */
  written(compact: string): string;
  /** The code as printed in a line (case-insensitive), before checking its compact form. */
  printed: string;
  /** Old European country prefixes written before the code ("D-10115", "F-75008"). */
  prefixes?: string[];
  /** Whether the code comes before the town on the line (else after it, with state or county). */
  beforeTown: boolean;
}

const same = (compact: string) => compact;
const splitAt = (at: number, separator: string) => (compact: string) =>
  `${compact.slice(0, at)}${separator}${compact.slice(at)}`;

/** Letters Canada Post uses (not D F I O Q U; W and Z not first). */
const CA_FIRST = 'ABCEGHJKLMNPRSTVXY';
const CA_OTHER = 'ABCEGHJKLMNPRSTVWXYZ';
/** Eircode letters. */
const EIR = 'ACDEFHKNPRTVWXY';

const RULES: Record<string, PostalRule> = {
  US: {
    compact: /^\d{5}(\d{4})?$/,
    written: (c) => (c.length === 9 ? splitAt(5, '-')(c) : c),
    printed: '\\d{5}(?:-\\d{4})?',
    beforeTown: false,
  },
  CA: {
    compact: new RegExp(`^[${CA_FIRST}]\\d[${CA_OTHER}]\\d[${CA_OTHER}]\\d$`),
    written: splitAt(3, ' '),
    printed: '[A-Z]\\d[A-Z] ?\\d[A-Z]\\d',
    beforeTown: false,
  },
  GB: {
    // Outward code (area, district, optional sub-district letter), inward code (sector digit and
    // two unit letters, never C I K M O V); GIR 0AA is Girobank's.
    compact:
      /^(GIR0AA|([A-PR-UWYZ]\d[\dA-HJKPSTUW]?|[A-PR-UWYZ][A-HK-Y]\d[\dABEHMNPRV-Y]?)\d[ABD-HJLNP-UW-Z]{2})$/,
    written: (c) => `${c.slice(0, -3)} ${c.slice(-3)}`,
    printed: '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}',
    beforeTown: false,
  },
  FR: {
    compact: /^(0[1-9]|[1-8]\d|9[0-8])\d{3}$/,
    written: same,
    printed: '\\d{2} ?\\d{3}',
    prefixes: ['F'],
    beforeTown: true,
  },
  DE: {
    compact: /^(0[1-9]|[1-9]\d)\d{3}$/,
    written: same,
    printed: '\\d{5}',
    prefixes: ['D'],
    beforeTown: true,
  },
  NL: {
    compact: /^[1-9]\d{3}(?!SA|SD|SS)[A-Z]{2}$/,
    written: splitAt(4, ' '),
    printed: '\\d{4} ?[A-Z]{2}',
    prefixes: ['NL'],
    beforeTown: true,
  },
  BE: { compact: /^[1-9]\d{3}$/, written: same, printed: '\\d{4}', prefixes: ['B'], beforeTown: true },
  ES: {
    compact: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/,
    written: same,
    printed: '\\d{5}',
    prefixes: ['E'],
    beforeTown: true,
  },
  IT: { compact: /^\d{5}$/, written: same, printed: '\\d{5}', prefixes: ['I'], beforeTown: true },
  CH: { compact: /^[1-9]\d{3}$/, written: same, printed: '\\d{4}', prefixes: ['CH'], beforeTown: true },
  AT: { compact: /^[1-9]\d{3}$/, written: same, printed: '\\d{4}', prefixes: ['A'], beforeTown: true },
  PL: {
    compact: /^\d{5}$/,
    written: splitAt(2, '-'),
    printed: '\\d{2}-\\d{3}',
    prefixes: ['PL'],
    beforeTown: true,
  },
  SE: {
    compact: /^[1-9]\d{4}$/,
    written: splitAt(3, ' '),
    printed: '\\d{3} ?\\d{2}',
    prefixes: ['SE', 'S'],
    beforeTown: true,
  },
  DK: { compact: /^\d{4}$/, written: same, printed: '\\d{4}', prefixes: ['DK'], beforeTown: true },
  IE: {
    // Eircode: routing key (a letter and two digits, or D6W) and a four-character unique identifier.
    compact: new RegExp(`^([${EIR}]\\d{2}|D6W)[\\d${EIR}]{4}$`),
    written: splitAt(3, ' '),
    printed: '(?:[A-Z]\\d{2}|D6W) ?[A-Z\\d]{4}',
    beforeTown: false,
  },
  PT: { compact: /^[1-9]\d{6}$/, written: splitAt(4, '-'), printed: '\\d{4}-\\d{3}', beforeTown: true },
  AU: { compact: /^\d{4}$/, written: same, printed: '\\d{4}', beforeTown: false },
  JP: { compact: /^\d{7}$/, written: splitAt(3, '-'), printed: '\\d{3}-\\d{4}', beforeTown: true },
  CN: { compact: /^\d{6}$/, written: same, printed: '\\d{6}', beforeTown: false },
  SG: { compact: /^(0[1-9]|[1-7]\d|8[0-2])\d{4}$/, written: same, printed: '\\d{6}', beforeTown: false },
  IN: { compact: /^[1-9]\d{5}$/, written: same, printed: '\\d{3} ?\\d{3}', beforeTown: false },
  BR: { compact: /^\d{8}$/, written: splitAt(5, '-'), printed: '\\d{5}-?\\d{3}', beforeTown: false },
  MX: { compact: /^\d{5}$/, written: same, printed: '\\d{5}', beforeTown: true },
};

/** Countries without postal codes: any code given for them is refused. */
const NO_POSTAL_CODES = new Set(['HK']);

/** Shapes distinctive enough to name their country from the code alone, tried in this order. */
const DISTINCTIVE = ['CA', 'GB', 'IE', 'NL', 'PL', 'PT', 'JP', 'BR'];

export const POSTAL_CODE_COUNTRIES = [...Object.keys(RULES), ...NO_POSTAL_CODES];

function ruleOf(country: string): PostalRule | undefined {
  return RULES[country.toUpperCase()];
}

function compactOf(rule: PostalRule, code: string): string {
  let compact = code.toUpperCase().replace(/[\s-]/g, '');
  for (const prefix of rule.prefixes ?? []) {
    const stripped = code.trim().toUpperCase();
    if (stripped.startsWith(`${prefix}-`)) compact = stripped.slice(prefix.length + 1).replace(/[\s-]/g, '');
  }
  return compact;
}

/** The code as written in its country ("k1a0b1" -> "K1A 0B1", "sw1a1aa" -> "SW1A 1AA"), or null if it has not the shape. */
export function normalisePostalCode(country: string, code: string): string | null {
  const rule = ruleOf(country);
  if (!rule) return null;
  const compact = compactOf(rule, code);
  return rule.compact.test(compact) ? rule.written(compact) : null;
}

export function validPostalCode(country: string, code: string): boolean {
  return normalisePostalCode(country, code) !== null;
}

export interface FoundPostalCode {
  /** As written in its country. */
  code: string;
  country: string;
  /** Where the code stands in the line, as printed: [start, end). */
  start: number;
  end: number;
}

function findIn(country: string, line: string): FoundPostalCode | null {
  const rule = ruleOf(country);
  if (!rule) return null;
  const prefix = rule.prefixes ? `(?:(?:${rule.prefixes.join('|')})-)?` : '';
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}-])${prefix}(?:${rule.printed})(?![\\p{L}\\p{N}]|-\\d)`,
    'giu',
  );
  const found: FoundPostalCode[] = [];
  for (const m of line.matchAll(pattern)) {
    const code = normalisePostalCode(country, m[0]);
    if (code) found.push({ code, country, start: m.index, end: m.index + m[0].length });
  }
  return (rule.beforeTown ? found[0] : found.at(-1)) ?? null;
}

/**
 * The postal code in an address line and where it stands. Without a country, only shapes that
 * name their country (Canadian, British, Irish, Dutch, Polish, Portuguese, Japanese, Brazilian,
 * US ZIP+4) are taken: five bare digits could belong to a dozen countries.
 */
export function findPostalCode(country: string | null, line: string): FoundPostalCode | null {
  if (country) return NO_POSTAL_CODES.has(country.toUpperCase()) ? null : findIn(country.toUpperCase(), line);
  for (const candidate of DISTINCTIVE) {
    const found = findIn(candidate, line);
    if (found) return found;
  }
  const zip = findIn('US', line);
  return zip?.code.includes('-') ? zip : null;
}
