/** The service's six languages (src/platform/i18n), as the apps' word lists are keyed. */
export const LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** An app's words in every language: a key missing in one language does not compile. */
export type Words<K extends string> = Record<Language, Record<K, string>>;

export type Translate<K extends string> = (key: K, values?: Record<string, string | number>) => string;

/**
 * A word of the page, placeholders filled. A word the page did not send shows as ⟦key⟧ and is
 * reported, so a test reading the page finds it.
 */
export function translator<K extends string>(texts: Record<K, string>): Translate<K> {
  return (key, values = {}) => {
    const words = texts[key];
    if (typeof words !== 'string') {
      console.error(`The page sent no text "${key}"`);
      return `⟦${key}⟧`;
    }
    // Most words have no placeholder; a day's lists ask for hundreds at each change.
    if (!words.includes('{')) return words;
    return words.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
  };
}

/** A formatter a language: making one costs far more than using it (toLocaleTimeString makes one a call). */
const timeFormats = new Map<Language, Intl.DateTimeFormat>();
/** The times formatted lately: a day's lists show the same few hundred instants again and again. */
const times = new Map<string, string>();

/** A local time of day in the reader's language. */
export function timeOfDay(iso: string, lang: Language): string {
  const key = `${lang} ${iso}`;
  let time = times.get(key);
  if (time === undefined) {
    let format = timeFormats.get(lang);
    if (!format) {
      format = new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' });
      timeFormats.set(lang, format);
    }
    time = format.format(new Date(iso));
    if (times.size >= 1000) times.clear();
    times.set(key, time);
  }
  return time;
}

/**
 * An app's words, checked: the keys are those of every language together, so a word missing in
 * one language does not compile.
 */
export function words<K extends string>(all: Record<Language, Record<K, string>>): Words<K> {
  return all;
}
