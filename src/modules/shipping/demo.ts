import type { OperationContext } from '../../platform/catalog/operation.ts';
import { type RateCardInput, rateCardSchema } from './carriers/rate-card.ts';
import type { ShippingService } from './service.ts';

/** Weight breaks from [up to kg, price] pairs, to keep the cards below readable. */
const breaks = (pairs: Array<[number, number]>) => pairs.map(([up_to_kg, price]) => ({ up_to_kg, price }));

const PARIS_AND_SUBURBS = ['75', '92', '93', '94'];
const OUTER_ILE_DE_FRANCE = ['77', '78', '91', '95'];

/**
 * Three carriers the demo business (a Paris depot) ships with, priced like French parcel
 * carriers: a national parcel network zoned by postal code, a cargo-bike courier zoned by
 * distance, and a heavy-parcel ground carrier charging per kg past 30 kg. EUR, VAT 20 %.
 */
export const DEMO_CARRIERS: ReadonlyArray<{ code: string; name: string; rate_card: RateCardInput }> = [
  {
    code: 'hexa',
    name: 'Hexa Colis',
    rate_card: {
      currency: 'EUR',
      dimensional_divisor: 5000,
      zoning: {
        method: 'postal_prefix',
        zones: [
          { zone: 'paris', destination_prefixes: PARIS_AND_SUBURBS },
          { zone: 'idf', destination_prefixes: OUTER_ILE_DE_FRANCE },
          { zone: 'corse', destination_prefixes: ['20'] },
          { zone: 'outre-mer', destination_prefixes: ['97', '98'] },
          { zone: 'france', destination_prefixes: [''] },
        ],
      },
      services: [
        {
          code: 'standard',
          name: 'Standard',
          zones: [
            {
              zone: 'paris',
              transit_days: 1,
              weight_breaks: breaks([
                [0.5, 4.9],
                [1, 5.9],
                [2, 6.9],
                [5, 9.5],
                [10, 13.9],
                [30, 24.9],
              ]),
            },
            {
              zone: 'idf',
              transit_days: 2,
              weight_breaks: breaks([
                [0.5, 5.4],
                [1, 6.4],
                [2, 7.5],
                [5, 10.4],
                [10, 15.2],
                [30, 27.5],
              ]),
            },
            {
              zone: 'france',
              transit_days: 2,
              weight_breaks: breaks([
                [0.5, 6.2],
                [1, 7.3],
                [2, 8.6],
                [5, 12.4],
                [10, 18.3],
                [30, 32.9],
              ]),
            },
            {
              zone: 'corse',
              transit_days: 4,
              weight_breaks: breaks([
                [0.5, 9.8],
                [1, 11.5],
                [2, 13.9],
                [5, 19.9],
                [10, 29.5],
                [30, 52],
              ]),
            },
            {
              zone: 'outre-mer',
              transit_days: 8,
              weight_breaks: breaks([
                [0.5, 17.9],
                [1, 23.5],
                [2, 31],
                [5, 52],
                [10, 89],
                [30, 189],
              ]),
            },
          ],
        },
        {
          code: 'express',
          name: 'Express 24h',
          zones: [
            {
              zone: 'paris',
              transit_days: 1,
              weight_breaks: breaks([
                [1, 11.9],
                [5, 16.5],
                [10, 22.9],
                [30, 39],
              ]),
            },
            {
              zone: 'idf',
              transit_days: 1,
              weight_breaks: breaks([
                [1, 12.9],
                [5, 17.9],
                [10, 24.9],
                [30, 42],
              ]),
            },
            {
              zone: 'france',
              transit_days: 1,
              weight_breaks: breaks([
                [1, 14.9],
                [5, 21.5],
                [10, 29.9],
                [30, 49],
              ]),
            },
            {
              zone: 'corse',
              transit_days: 2,
              weight_breaks: breaks([
                [1, 24.9],
                [5, 34.5],
                [10, 47],
                [30, 79],
              ]),
            },
          ],
        },
      ],
      surcharges: {
        fuel_percent: 11.5,
        residential: 1.1,
        oversize: { amount: 18, longest_side_cm: 100, weight_kg: 25 },
      },
      tax_percent: 20,
    },
  },
  {
    code: 'velocargo',
    name: 'VéloCargo Paris',
    rate_card: {
      currency: 'EUR',
      dimensional_divisor: 5000,
      zoning: {
        method: 'distance',
        bands: [
          { zone: 'z1', max_km: 3 },
          { zone: 'z2', max_km: 8 },
          { zone: 'z3', max_km: 15 },
        ],
      },
      services: [
        {
          code: 'same-day',
          name: 'Same day',
          zones: [
            {
              zone: 'z1',
              transit_days: 0,
              weight_breaks: breaks([
                [5, 7.9],
                [15, 10.9],
                [40, 16.9],
              ]),
            },
            {
              zone: 'z2',
              transit_days: 0,
              weight_breaks: breaks([
                [5, 10.9],
                [15, 13.9],
                [40, 19.9],
              ]),
            },
            {
              zone: 'z3',
              transit_days: 0,
              weight_breaks: breaks([
                [5, 14.9],
                [15, 18.9],
                [40, 25.9],
              ]),
            },
          ],
        },
        {
          code: 'next-day',
          name: 'Next day',
          zones: [
            {
              zone: 'z1',
              transit_days: 1,
              weight_breaks: breaks([
                [5, 5.9],
                [15, 8.4],
                [40, 12.9],
              ]),
            },
            {
              zone: 'z2',
              transit_days: 1,
              weight_breaks: breaks([
                [5, 7.4],
                [15, 9.9],
                [40, 14.9],
              ]),
            },
            {
              zone: 'z3',
              transit_days: 1,
              weight_breaks: breaks([
                [5, 9.9],
                [15, 12.9],
                [40, 18.9],
              ]),
            },
          ],
        },
      ],
      surcharges: { fuel_percent: 0, oversize: { amount: 6, longest_side_cm: 80 } },
      tax_percent: 20,
    },
  },
  {
    code: 'transalp',
    name: 'Transalp Fret',
    rate_card: {
      currency: 'EUR',
      dimensional_divisor: 6000,
      zoning: {
        method: 'postal_prefix',
        zones: [
          { zone: 'idf', destination_prefixes: [...PARIS_AND_SUBURBS, ...OUTER_ILE_DE_FRANCE] },
          { zone: 'france', destination_prefixes: [''] },
        ],
      },
      services: [
        {
          code: 'economy',
          name: 'Economy ground',
          zones: [
            {
              zone: 'idf',
              transit_days: 2,
              weight_breaks: breaks([
                [10, 12],
                [30, 19.5],
              ]),
              extra_kg_price: 0.45,
            },
            {
              zone: 'france',
              transit_days: 4,
              weight_breaks: breaks([
                [10, 14.5],
                [30, 23.9],
              ]),
              extra_kg_price: 0.55,
            },
          ],
        },
      ],
      surcharges: {
        fuel_percent: 14.25,
        residential: 2.5,
        oversize: { amount: 25, longest_side_cm: 150 },
      },
      tax_percent: 20,
    },
  },
];

/** Seeds the demo carriers through the use case a client admin calls (save_shipping_carrier). */
export async function seedDemoCarriers(
  services: { shipping: ShippingService },
  ctx: OperationContext,
): Promise<void> {
  for (const carrier of DEMO_CARRIERS) {
    await services.shipping.saveCarrier(ctx, {
      code: carrier.code,
      name: carrier.name,
      active: true,
      rate_card: rateCardSchema.parse(carrier.rate_card),
    });
  }
}
