import Negotiator from 'negotiator';
import { z } from 'zod';
import type { ErrorCode, MessageParams } from '../errors.ts';
import { FIELD_MESSAGES, namedFieldMessage } from './field-messages.ts';
import { LANGUAGES, type Language } from './languages.ts';
import { de } from './messages/de.ts';
import { type ErrorMessages, en } from './messages/en.ts';
import { es } from './messages/es.ts';
import { fr } from './messages/fr.ts';
import { zhHans } from './messages/zh-Hans.ts';
import { zhHant } from './messages/zh-Hant.ts';

export { LANGUAGES, type Language };
export const DEFAULT_LANGUAGE: Language = 'en';

const ERROR_MESSAGES: Record<Language, ErrorMessages> = {
  en,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  fr,
  de,
  es,
};

/** zod's own translations, so validation messages speak the caller's language too. */
const VALIDATION_LOCALES: Record<Language, () => { localeError: z.core.$ZodErrorMap }> = {
  en: z.locales.en,
  'zh-Hans': z.locales.zhCN,
  'zh-Hant': z.locales.zhTW,
  fr: z.locales.fr,
  de: z.locales.de,
  es: z.locales.es,
};
/** zod's messages, and the messages the service's own schemas name (field-messages.ts). */
const validationErrorMaps = new Map(
  LANGUAGES.map((lang): [Language, z.core.$ZodErrorMap] => {
    const zodMessages = VALIDATION_LOCALES[lang]().localeError;
    return [
      lang,
      (issue) => {
        const named = namedFieldMessage(issue);
        return named ? fillTemplate(FIELD_MESSAGES[lang][named.key], named.params) : zodMessages(issue);
      },
    ];
  }),
);

/** Chinese is written in two scripts; regions tell which one a reader expects. */
const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo', 'hant']);

function toSupported(tag: string): Language | undefined {
  const [primary = '', ...rest] = tag.toLowerCase().split(/[-_]/);
  if (primary === 'zh') return rest.some((part) => TRADITIONAL_REGIONS.has(part)) ? 'zh-Hant' : 'zh-Hans';
  return LANGUAGES.find((lang) => lang === primary);
}

/** The best supported language for an Accept-Language header; English when nothing matches. */
export function negotiateLanguage(acceptLanguage: string | undefined): Language {
  return supportedLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/** The best supported language for an Accept-Language value (one tag or a list); undefined when none is. */
export function supportedLanguage(acceptLanguage: string | undefined): Language | undefined {
  if (!acceptLanguage) return undefined;
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages();
  for (const tag of preferred) {
    const lang = toSupported(tag);
    if (lang) return lang;
  }
  return undefined;
}

export function errorMessage(code: ErrorCode, lang: Language, params: MessageParams = {}): string {
  return fillTemplate(ERROR_MESSAGES[lang][code] ?? ERROR_MESSAGES.en[code], params);
}

/** A message with its `{name}` placeholders filled; one without a value is left as it is. */
export function fillTemplate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function validationErrorMap(lang: Language): z.core.$ZodErrorMap {
  return validationErrorMaps.get(lang)!;
}

/** For the consistency test: every language's catalog of error messages. */
export function errorMessageCatalogs(): Readonly<Record<Language, ErrorMessages>> {
  return ERROR_MESSAGES;
}
