// What a subscriber is reached at and in: the number in E.164, the language of its messages and
// the time zone its quiet hours are counted in.

import { getCountry } from 'countries-and-timezones';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../platform/errors.ts';

export const SUBSCRIBER_LANGUAGES = ['en', 'fr', 'de', 'es', 'zh-Hans', 'zh-Hant'] as const;
export type SubscriberLanguage = (typeof SUBSCRIBER_LANGUAGES)[number];
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 40;
export const MAX_ATTRIBUTES = 50;

export interface FieldProblem {
  field: string;
  message: string;
  /** An import's row, from 1. */
  row?: number;
}

export function fieldsRefused(problems: FieldProblem[]): AppError {
  return new AppError('VALIDATION_FAILED', {
    params: { fields: [...new Set(problems.map((problem) => problem.field))].join(', ') },
    details: { fields: problems },
  });
}

/** The number in E.164, read in the business's region when it has no country code; undefined: not a number. */
export function normalisePhone(text: string, region: string): { e164: string; country?: string } | undefined {
  const parsed = parsePhoneNumberFromString(text, region as CountryCode);
  if (!parsed?.isValid()) return undefined;
  return { e164: parsed.number, ...(parsed.country ? { country: parsed.country } : {}) };
}

/** Countries whose numbers speak one of the service's languages without doubt; any other: English. */
const LANGUAGE_OF_COUNTRY: Readonly<Record<string, SubscriberLanguage>> = {
  FR: 'fr',
  MC: 'fr',
  GP: 'fr',
  MQ: 'fr',
  GF: 'fr',
  RE: 'fr',
  YT: 'fr',
  PM: 'fr',
  BL: 'fr',
  MF: 'fr',
  NC: 'fr',
  PF: 'fr',
  WF: 'fr',
  DE: 'de',
  AT: 'de',
  LI: 'de',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
  VE: 'es',
  EC: 'es',
  GT: 'es',
  CU: 'es',
  BO: 'es',
  DO: 'es',
  HN: 'es',
  PY: 'es',
  SV: 'es',
  NI: 'es',
  CR: 'es',
  PA: 'es',
  UY: 'es',
  CN: 'zh-Hans',
  TW: 'zh-Hant',
  HK: 'zh-Hant',
  MO: 'zh-Hant',
};

export function languageOfCountry(country: string | undefined): SubscriberLanguage {
  return (country && LANGUAGE_OF_COUNTRY[country]) || 'en';
}

/**
 * The zone most people of a country with several live in, where the first in alphabetical order
 * would be a small one (America/Adak for the United States).
 */
const MAIN_ZONE: Readonly<Record<string, string>> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  DE: 'Europe/Berlin',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kyiv',
  KZ: 'Asia/Almaty',
  CN: 'Asia/Shanghai',
  MN: 'Asia/Ulaanbaatar',
  ID: 'Asia/Jakarta',
  MY: 'Asia/Kuala_Lumpur',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  CD: 'Africa/Kinshasa',
};

/**
 * The zone of a number's country: its only one; with several, the business's own when it is one
 * of them, else the country's most populous (MAIN_ZONE), else the first the zone data lists.
 * Undefined: the country is unknown (a number of a non-geographic range).
 */
export function zoneOfCountry(country: string | undefined, businessZone: string): string | undefined {
  if (!country) return undefined;
  const zones: readonly string[] = getCountry(country)?.timezones ?? [];
  if (zones.length <= 1) return zones[0];
  if (zones.includes(businessZone)) return businessZone;
  const main = MAIN_ZONE[country];
  return main && zones.includes(main) ? main : zones[0];
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
