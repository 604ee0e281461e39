/** The languages the service answers in, as BCP 47 tags. */
export const LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
