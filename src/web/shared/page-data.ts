import type { Language } from './texts.ts';

/**
 * What the page's shell tells its app, in `<script type="application/json" id="app-data">`: never
 * run, so the strict policy holds. The words are the app's, in the reader's language only.
 */
export interface PageData<K extends string> {
  lang: Language;
  texts: Record<K, string>;
  /** The app's address: its API mount is `{base}/api`, its sign-out `{base}/sign-out`. */
  base: string;
  /** The session's anti-forgery token: sent with every write, as the sign-out form's field. */
  csrf: string;
  user: { name: string; email: string };
  /** The language links' words and the languages' own names. */
  languages: Array<{ lang: Language; name: string }>;
  tiles: { url: string; attribution: string } | null;
}

export function pageData<K extends string>(): PageData<K> {
  const element = document.getElementById('app-data');
  if (!element?.textContent) throw new Error('The page sent its app no data');
  return JSON.parse(element.textContent) as PageData<K>;
}
