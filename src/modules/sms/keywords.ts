// The keywords a subscriber may text in: STOP (unsubscribe), HELP, START (confirm or subscribe
// again), in the six languages of the service. docs/sms-marketing.md lists the same words (a test
// holds the two together).

export const KEYWORD_LANGUAGES = ['en', 'fr', 'de', 'es', 'zh-Hans', 'zh-Hant'] as const;
export type KeywordLanguage = (typeof KEYWORD_LANGUAGES)[number];
export const KEYWORD_KINDS = ['stop', 'help', 'start'] as const;
export type KeywordKind = (typeof KEYWORD_KINDS)[number];

/**
 * Every word, as `normaliseKeyword` reads it (upper case, no spaces, accents folded: ARRÊT is
 * ARRET). A word of any language counts whatever the subscriber's language: people answer in the
 * words they know, and a STOP must never be missed.
 */
export const KEYWORDS: Readonly<Record<KeywordKind, Readonly<Record<KeywordLanguage, readonly string[]>>>> = {
  stop: {
    en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
    fr: ['ARRET', 'ARRETER', 'DESINSCRIRE', 'DESABONNER'],
    de: ['STOPP', 'ABMELDEN', 'ABBESTELLEN', 'ENDE'],
    es: ['BAJA', 'ALTO', 'PARAR', 'CANCELAR', 'DETENER'],
    'zh-Hans': ['退订', '取消订阅', 'TD'],
    'zh-Hant': ['退訂', '取消訂閱'],
  },
  help: {
    en: ['HELP', 'INFO'],
    fr: ['AIDE'],
    de: ['HILFE'],
    es: ['AYUDA'],
    'zh-Hans': ['帮助'],
    'zh-Hant': ['幫助'],
  },
  start: {
    en: ['START', 'UNSTOP', 'YES', 'Y'],
    fr: ['OUI'],
    de: ['JA'],
    es: ['SI'],
    'zh-Hans': ['是', '好'],
    'zh-Hant': ['是', '好'],
  },
};

const KIND_OF = new Map<string, KeywordKind>();
for (const kind of KEYWORD_KINDS) {
  for (const words of Object.values(KEYWORDS[kind])) for (const word of words) KIND_OF.set(word, kind);
}

/**
 * An inbound text as keywords are compared: trimmed, without any space, without punctuation or
 * symbols at either end ('Stop.', '"STOP"', '退订。'), upper case, and Latin letters without their
 * accents (ARRÊT, SÍ). Other scripts keep their marks: folding them would change the word.
 */
export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/\s+/gu, '')
    .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '')
    .toUpperCase();
}

/** The keyword a whole message is, or null: a keyword inside a longer text is not one. */
export function keywordOf(text: string): KeywordKind | null {
  return KIND_OF.get(normaliseKeyword(text)) ?? null;
}
