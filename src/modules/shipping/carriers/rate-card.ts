import { z } from 'zod';
import { AppError } from '../../../platform/errors.ts';
import { fieldIssue, fieldMessage } from '../../../platform/i18n/field-messages.ts';
import { toMajor, toMinor } from '../../../platform/money.ts';
import { currencyCode } from '../../../platform/schemas.ts';
import type { Shipment, ShipmentPackage, UnavailableReason } from './shipment.ts';

/**
 * A rate card: how a built-in carrier prices a shipment. Amounts are in major units of the card's
 * currency, like every price of the API; they are turned into integer minor units once
 * (`pricedCard`) and all arithmetic after that is on integers. docs/shipping.md explains it.
 */

/** Carrier and service codes. */
export const slug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, fieldMessage('slug', { max: 40 }));

/** A non-negative amount in major units ("4.90" or 4.9). */
const amount = z
  .union([z.number().min(0), z.string().regex(/^\d+(\.\d+)?$/, fieldMessage('non_negative_amount'))])
  .describe('Major units, e.g. 4.90');

/** A number with at most `decimals` decimals, so it converts to an exact integer. */
const exact = (decimals: number, unit: string) =>
  z
    .number()
    .min(0)
    .refine(
      (value) => Number.isSafeInteger(Math.round(value * 10 ** decimals)),
      fieldMessage('number_too_large'),
    )
    .refine(
      (value) => Math.abs(value * 10 ** decimals - Math.round(value * 10 ** decimals)) < 1e-6,
      fieldMessage('max_decimals', { decimals, unit }),
    );
const percent = exact(2, 'percent').max(100);
const kilograms = exact(3, 'kg').positive();
const postalPrefix = z
  .string()
  .max(20)
  .transform(normalizePostal)
  .describe('Start of a postal code, compared without spaces or dashes; "" matches every code');

const zoneCode = z.string().trim().min(1).max(20);

const postalZoning = z.object({
  method: z.literal('postal_prefix'),
  zones: z
    .array(
      z.object({
        zone: zoneCode,
        origin_prefixes: z
          .array(postalPrefix)
          .min(1)
          .max(500)
          .optional()
          .describe('Sender postal prefixes this rule is for; absent = any sender'),
        destination_prefixes: z.array(postalPrefix).min(1).max(500),
      }),
    )
    .min(1)
    .max(200)
    .describe('The rule whose destination prefix is the longest match wins, then the longest origin prefix'),
});

const distanceZoning = z.object({
  method: z.literal('distance'),
  bands: z
    .array(z.object({ zone: zoneCode, max_km: z.number().positive().max(20_000) }))
    .min(1)
    .max(50)
    .refine((bands) => bands.every((band, i) => i === 0 || band.max_km > bands[i - 1]!.max_km), {
      ...fieldMessage('increasing', { field: 'max_km' }),
    })
    .describe(
      'Great-circle distance from sender to recipient (both need lat/lng); the first band that holds it',
    ),
});

const zoneRate = z.object({
  zone: zoneCode,
  transit_days: z.int().min(0).max(90),
  weight_breaks: z
    .array(z.object({ up_to_kg: kilograms, price: amount }))
    .min(1)
    .max(100)
    .refine((breaks) => breaks.every((b, i) => i === 0 || b.up_to_kg > breaks[i - 1]!.up_to_kg), {
      ...fieldMessage('increasing', { field: 'up_to_kg' }),
    }),
  extra_kg_price: amount
    .optional()
    .describe('Price of each started kg above the last break; absent = heavier packages are not carried'),
});

export const rateCardSchema = z
  .object({
    currency: currencyCode,
    dimensional_divisor: z
      .int()
      .min(1000)
      .max(20_000)
      .default(5000)
      .describe('cm³ per kg: dimensional weight = length × width × height (cm) / divisor'),
    zoning: z.discriminatedUnion('method', [postalZoning, distanceZoning]),
    services: z
      .array(
        z.object({
          code: slug,
          name: z.string().trim().min(1).max(60),
          zones: z
            .array(zoneRate)
            .min(1)
            .max(200)
            .describe('Zones this service carries to; others it does not'),
        }),
      )
      .min(1)
      .max(20)
      .refine((services) => new Set(services.map((s) => s.code)).size === services.length, {
        ...fieldMessage('unique', { field: 'code' }),
      }),
    surcharges: z
      .object({
        fuel_percent: percent.default(0).describe('Percent of the base price'),
        residential: amount.optional().describe('Flat, per package delivered to a home'),
        oversize: z
          .object({
            amount,
            longest_side_cm: z.number().positive().optional(),
            weight_kg: kilograms.optional(),
          })
          .refine((o) => o.longest_side_cm !== undefined || o.weight_kg !== undefined, {
            ...fieldMessage('at_least_one_of', { fields: 'longest_side_cm, weight_kg' }),
          })
          .optional()
          .describe('Flat, per package whose longest side or actual weight is above the limit'),
      })
      .default({ fuel_percent: 0 }),
    tax_percent: percent.default(0).describe('Percent of base price plus surcharges'),
  })
  .superRefine((card, ctx) => {
    // A service priced for a zone the zoning never gives is a typo, not a choice.
    const zoning = card.zoning;
    const zones = new Set((zoning.method === 'distance' ? zoning.bands : zoning.zones).map((z) => z.zone));
    for (const [s, service] of card.services.entries()) {
      for (const [z, zone] of service.zones.entries()) {
        if (zones.has(zone.zone)) continue;
        ctx.addIssue({
          code: 'custom',
          path: ['services', s, 'zones', z, 'zone'],
          ...fieldIssue('unknown_zone', { zone: zone.zone }),
        });
      }
    }
  });
export type RateCard = z.output<typeof rateCardSchema>;
export type RateCardInput = z.input<typeof rateCardSchema>;

/** A rate card with every amount in integer minor units and every percentage in basis points. */
export interface PricedCard {
  currency: string;
  divisor: number;
  zoning: RateCard['zoning'];
  services: PricedService[];
  fuelBp: number;
  residential: number;
  oversize: { amount: number; longestSideMm: number | null; weightGrams: number | null } | null;
  taxBp: number;
}

export interface PricedService {
  code: string;
  name: string;
  zones: Map<string, ZoneRates>;
}

interface ZoneRates {
  transitDays: number;
  breaks: Array<{ upToGrams: number; price: number }>;
  extraKgPrice: number | null;
}

/** The card in integer units; AMOUNT_TOO_PRECISE for an amount finer than the currency's minor unit. */
export function pricedCard(card: RateCard): PricedCard {
  const minor = (value: number | string) => {
    const converted = toMinor(value, card.currency);
    if (converted === null) {
      throw new AppError('AMOUNT_TOO_PRECISE', { params: { amount: value, currency: card.currency } });
    }
    return converted;
  };
  const oversize = card.surcharges.oversize;
  return {
    currency: card.currency,
    divisor: card.dimensional_divisor,
    zoning: card.zoning,
    services: card.services.map((service) => ({
      code: service.code,
      name: service.name,
      zones: new Map(
        service.zones.map((zone) => [
          zone.zone,
          {
            transitDays: zone.transit_days,
            breaks: zone.weight_breaks.map((b) => ({ upToGrams: grams(b.up_to_kg), price: minor(b.price) })),
            extraKgPrice: zone.extra_kg_price === undefined ? null : minor(zone.extra_kg_price),
          },
        ]),
      ),
    })),
    fuelBp: basisPoints(card.surcharges.fuel_percent),
    residential: card.surcharges.residential === undefined ? 0 : minor(card.surcharges.residential),
    oversize: oversize
      ? {
          amount: minor(oversize.amount),
          longestSideMm:
            oversize.longest_side_cm === undefined ? null : Math.round(oversize.longest_side_cm * 10),
          weightGrams: oversize.weight_kg === undefined ? null : grams(oversize.weight_kg),
        }
      : null,
    taxBp: basisPoints(card.tax_percent),
  };
}

// ----- pricing -----

/** One priced package, in minor units. */
export interface PackageCharge {
  actualGrams: number;
  dimensionalGrams: number;
  billableGrams: number;
  base: number;
  surcharges: Surcharge[];
  tax: number;
  total: number;
}

export interface Surcharge {
  code: 'fuel' | 'residential' | 'oversize';
  amount: number;
}

/** A service's price for a whole shipment: the sum of its packages' charges. */
export interface ServiceQuote {
  zone: string;
  transitDays: number;
  currency: string;
  base: number;
  surcharges: Surcharge[];
  tax: number;
  total: number;
  billableGrams: number;
  packages: PackageCharge[];
}

/** The zone of a shipment under the card's zoning, or why it has none. */
export function zoneOf(
  zoning: RateCard['zoning'],
  shipment: Shipment,
): { zone: string } | { unavailable: UnavailableReason } {
  if (zoning.method === 'distance') {
    const km = distanceKm(shipment);
    if (km === null) return { unavailable: 'missing_coordinates' };
    const band = zoning.bands.find((b) => km <= b.max_km);
    return band ? { zone: band.zone } : { unavailable: 'out_of_area' };
  }
  const origin = normalizePostal(shipment.pickup.postal_code ?? '');
  const destination = normalizePostal(shipment.dropoff.postal_code ?? '');
  let best: { zone: string; destination: number; origin: number } | null = null;
  for (const rule of zoning.zones) {
    const destinationMatch = longestPrefix(rule.destination_prefixes, destination);
    const originMatch = rule.origin_prefixes ? longestPrefix(rule.origin_prefixes, origin) : 0;
    if (destinationMatch < 0 || originMatch < 0) continue;
    // Strictly better only, so the first of equally specific rules wins.
    if (
      !best ||
      destinationMatch > best.destination ||
      (destinationMatch === best.destination && originMatch > best.origin)
    ) {
      best = { zone: rule.zone, destination: destinationMatch, origin: originMatch };
    }
  }
  return best ? { zone: best.zone } : { unavailable: 'out_of_area' };
}

/** Prices one service of the card for the shipment, or tells why the service cannot carry it. */
export function quoteService(
  card: PricedCard,
  service: PricedService,
  shipment: Shipment,
): { quote: ServiceQuote } | { unavailable: UnavailableReason } {
  const zone = zoneOf(card.zoning, shipment);
  if ('unavailable' in zone) return zone;
  const rates = service.zones.get(zone.zone);
  if (!rates) return { unavailable: 'zone_not_served' };
  const packages: PackageCharge[] = [];
  for (const pkg of shipment.packages) {
    const charge = chargePackage(card, rates, pkg, shipment.residential);
    if (charge === null) return { unavailable: 'too_heavy' };
    packages.push(charge);
  }
  return {
    quote: {
      zone: zone.zone,
      transitDays: rates.transitDays,
      currency: card.currency,
      base: sum(packages.map((p) => p.base)),
      surcharges: mergeSurcharges(packages.flatMap((p) => p.surcharges)),
      tax: sum(packages.map((p) => p.tax)),
      total: sum(packages.map((p) => p.total)),
      billableGrams: sum(packages.map((p) => p.billableGrams)),
      packages,
    },
  };
}

/**
 * One package: billable weight = max(actual, dimensional); the first weight break that holds it
 * gives the base, each started kg above the last break costs the extra-kg price; surcharges and
 * tax follow, each rounded half up to the minor unit on its own.
 */
function chargePackage(
  card: PricedCard,
  rates: ZoneRates,
  pkg: ShipmentPackage,
  residential: boolean,
): PackageCharge | null {
  const dimensionalGrams = dimensionalWeightGrams(pkg, card.divisor);
  const billableGrams = Math.max(pkg.weight_grams, dimensionalGrams);
  const base = basePrice(rates, billableGrams);
  if (base === null) return null;
  const surcharges: Surcharge[] = [];
  if (card.fuelBp > 0) surcharges.push({ code: 'fuel', amount: percentOf(base, card.fuelBp) });
  if (residential && card.residential > 0) surcharges.push({ code: 'residential', amount: card.residential });
  if (card.oversize && isOversize(pkg, card.oversize)) {
    surcharges.push({ code: 'oversize', amount: card.oversize.amount });
  }
  const beforeTax = base + sum(surcharges.map((s) => s.amount));
  const tax = percentOf(beforeTax, card.taxBp);
  return {
    actualGrams: pkg.weight_grams,
    dimensionalGrams,
    billableGrams,
    base,
    surcharges,
    tax,
    total: beforeTax + tax,
  };
}

function basePrice(rates: ZoneRates, billableGrams: number): number | null {
  const fitting = rates.breaks.find((b) => billableGrams <= b.upToGrams);
  if (fitting) return fitting.price;
  if (rates.extraKgPrice === null) return null;
  const last = rates.breaks.at(-1)!;
  const startedKg = Math.ceil((billableGrams - last.upToGrams) / 1000);
  return last.price + startedKg * rates.extraKgPrice;
}

/** L × W × H / divisor, in grams rounded up: mm³ / (cm³ per kg) is grams exactly. */
export function dimensionalWeightGrams(pkg: ShipmentPackage, divisor: number): number {
  const { length_mm, width_mm, height_mm } = pkg;
  if (!length_mm || !width_mm || !height_mm) return 0;
  return Math.ceil((length_mm * width_mm * height_mm) / divisor);
}

function isOversize(pkg: ShipmentPackage, limit: NonNullable<PricedCard['oversize']>): boolean {
  const longest = Math.max(pkg.length_mm ?? 0, pkg.width_mm ?? 0, pkg.height_mm ?? 0);
  return (
    (limit.longestSideMm !== null && longest > limit.longestSideMm) ||
    (limit.weightGrams !== null && pkg.weight_grams > limit.weightGrams)
  );
}

/** amount × bp / 10 000, rounded half up, in integers only (amounts are non-negative). */
export function percentOf(amount: number, bp: number): number {
  return Math.floor((amount * bp + 5000) / 10_000);
}

function mergeSurcharges(surcharges: Surcharge[]): Surcharge[] {
  const byCode = new Map<Surcharge['code'], number>();
  for (const s of surcharges) byCode.set(s.code, (byCode.get(s.code) ?? 0) + s.amount);
  return [...byCode].map(([code, amount]) => ({ code, amount }));
}

/** Great-circle distance between sender and recipient (haversine, mean Earth radius), or null without coordinates. */
export function distanceKm(shipment: Pick<Shipment, 'pickup' | 'dropoff'>): number | null {
  const { pickup: a, dropoff: b } = shipment;
  if (a.lat === undefined || a.lng === undefined || b.lat === undefined || b.lng === undefined) return null;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

function longestPrefix(prefixes: readonly string[], postal: string): number {
  let longest = -1;
  for (const prefix of prefixes) if (postal.startsWith(prefix)) longest = Math.max(longest, prefix.length);
  return longest;
}

export function normalizePostal(postal: string): string {
  return postal.toUpperCase().replace(/[\s-]/g, '');
}

const grams = (kg: number) => Math.round(kg * 1000);
const basisPoints = (percentage: number) => Math.round(percentage * 100);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The card with every amount a major-unit number, as it is stored and answered (call pricedCard first: it checks precision). */
export function normalizedCard(card: RateCard): RateCard {
  const major = (value: number | string) => toMajor(toMinor(value, card.currency)!, card.currency);
  return {
    ...card,
    services: card.services.map((service) => ({
      ...service,
      zones: service.zones.map((zone) => ({
        ...zone,
        weight_breaks: zone.weight_breaks.map((b) => ({ ...b, price: major(b.price) })),
        ...(zone.extra_kg_price === undefined ? {} : { extra_kg_price: major(zone.extra_kg_price) }),
      })),
    })),
    surcharges: {
      ...card.surcharges,
      ...(card.surcharges.residential === undefined
        ? {}
        : { residential: major(card.surcharges.residential) }),
      ...(card.surcharges.oversize
        ? { oversize: { ...card.surcharges.oversize, amount: major(card.surcharges.oversize.amount) } }
        : {}),
    },
  };
}
