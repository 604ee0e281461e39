/**
 * The shipping tests' world: two small rate cards priced by hand, the shipments they price, and a
 * business with the cards saved. Each test/shipping-*.test.ts sets up one of its own.
 */
import assert from 'node:assert/strict';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import { startTestServer, type TestServer } from './server.ts';

// ----- the test cards: small enough to price by hand -----

export const breaks = (pairs: Array<[number, string]>) =>
  pairs.map(([up_to_kg, price]) => ({ up_to_kg, price }));

/** Zones by postal prefix; 'lyon' is for senders in 69 only. Fuel 12.5 %, VAT 20 %. */
export const TEST_POST = {
  name: 'Test Post',
  rate_card: {
    currency: 'EUR',
    dimensional_divisor: 5000,
    zoning: {
      method: 'postal_prefix',
      zones: [
        { zone: 'local', destination_prefixes: ['75'] },
        { zone: 'near', destination_prefixes: ['77', '78'] },
        { zone: 'national', destination_prefixes: [''] },
        { zone: 'lyon', origin_prefixes: ['69'], destination_prefixes: ['69'] },
      ],
    },
    services: [
      {
        code: 'ground',
        name: 'Ground',
        zones: [
          {
            zone: 'local',
            transit_days: 2,
            weight_breaks: breaks([
              [1, '5.00'],
              [5, '8.00'],
              [10, '12.00'],
            ]),
            extra_kg_price: '1.50',
          },
          {
            zone: 'near',
            transit_days: 3,
            weight_breaks: breaks([
              [1, '6.00'],
              [5, '9.50'],
              [10, '14.00'],
            ]),
            extra_kg_price: 1.75,
          },
          {
            zone: 'national',
            transit_days: 4,
            weight_breaks: breaks([
              [1, '7.00'],
              [5, '11.00'],
              [10, '16.00'],
            ]),
          },
          {
            zone: 'lyon',
            transit_days: 2,
            weight_breaks: breaks([
              [1, '4.00'],
              [5, '7.00'],
              [10, '10.00'],
            ]),
          },
        ],
      },
      {
        code: 'express',
        name: 'Express',
        zones: [
          {
            zone: 'local',
            transit_days: 1,
            weight_breaks: breaks([
              [1, '9.00'],
              [5, '12.00'],
              [10, '18.00'],
            ]),
            extra_kg_price: 2,
          },
          {
            zone: 'national',
            transit_days: 2,
            weight_breaks: breaks([
              [1, '12.00'],
              [5, '17.00'],
              [10, '24.00'],
            ]),
            extra_kg_price: 2.5,
          },
        ],
      },
    ],
    surcharges: {
      fuel_percent: 12.5,
      residential: '2.35',
      oversize: { amount: 15, longest_side_cm: 120, weight_kg: 30 },
    },
    tax_percent: 20,
  },
};

/** Zones by distance from the sender; no surcharges, tax 10 %. */
export const TEST_BIKE = {
  name: 'Test Bike',
  rate_card: {
    currency: 'EUR',
    zoning: {
      method: 'distance',
      bands: [
        { zone: 'z1', max_km: 5 },
        { zone: 'z2', max_km: 20 },
      ],
    },
    services: [
      {
        code: 'sameday',
        name: 'Same day',
        zones: [
          { zone: 'z1', transit_days: 0, weight_breaks: breaks([[5, '7.00']]) },
          { zone: 'z2', transit_days: 0, weight_breaks: breaks([[5, '11.00']]) },
        ],
      },
    ],
    tax_percent: 10,
  },
};

// ----- shipments -----

export const BERCY = {
  name: 'Depot Bercy',
  line1: '12 Rue de Bercy',
  city: 'Paris',
  postal_code: '75012',
  country: 'FR',
};
export const BERCY_AT = { ...BERCY, lat: 48.8386, lng: 2.3822 };
export const OBERKAMPF = {
  name: 'Léa Martin',
  line1: '5 Rue Oberkampf',
  city: 'Paris',
  postal_code: '75011',
  country: 'FR',
  lat: 48.8591,
  lng: 2.3795,
};
export const address = (postal_code: string, extra: Record<string, unknown> = {}) => ({
  name: 'Hugo Bernard',
  line1: '1 Grande Rue',
  postal_code,
  ...extra,
});
export type Pkg = { weight_grams: number; length_mm?: number; width_mm?: number; height_mm?: number };
export const shipment = (dropoff: object, packages: Pkg[], extra: Record<string, unknown> = {}) => ({
  pickup: BERCY,
  dropoff,
  packages,
  ...extra,
});

/** One line of a rate as the golden tables state it: [zone, days, billable g, price, surcharges, tax, total]. */
export type Golden = [string, number, number, number, Record<string, number>, number, number];

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are compared field by field
export const goldenOf = (rate: any): Golden => [
  rate.zone,
  rate.transit_days,
  rate.billable_weight_grams,
  rate.price,
  Object.fromEntries(rate.surcharges.map((s: { code: string; amount: number }) => [s.code, s.amount])),
  rate.tax,
  rate.total,
];

export let server: TestServer;
export let api: Client;
export let tenant: Tenant;
export let admin: string;
export let employee: string;
export let customer: string;

export const rate = (body: object, token = employee) =>
  api.post('/api/v1/labelservice/rate', body, { token });
export const compare = (body: object, token = employee) =>
  api.post('/api/v1/shipping/compare', body, { token });
export const submit = (body: object, token = employee) =>
  api.post('/api/v1/labelservice/submitOrder', body, { token });
export const quoteAndShip = (body: object, token = employee) =>
  api.post('/api/v1/shipping/quote-and-ship', body, { token });
export const saveCarrier = (code: string, body: object, token = admin) =>
  api.call('PUT', `/api/v1/shipping/carriers/${code}`, { token, body });
/** The golden line of one service of one carrier. */
export const goldenRate = async (carrier: string, service: string, body: object) => {
  const answer = await rate({ ...body, carrier, service });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.rates.length, 1, JSON.stringify(answer.body));
  return goldenOf(answer.body.rates[0]);
};
export const labelPdf = async (trackingNumber: string, token = employee) => {
  const response = await fetch(`${server.baseUrl}/api/v1/labelservice/labels/${trackingNumber}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  return Buffer.from(await response.arrayBuffer());
};

/** From the depot to Oberkampf, 800 g: ground 6.76 (2 days), bike 7.70 (0 days), express 12.16 (1 day). */
export const CITY_PARCEL = { pickup: BERCY_AT, dropoff: OBERKAMPF, packages: [{ weight_grams: 800 }] };

/** A business with its staff and customer logged in, and the two test carriers saved. */
export async function setUpShipping(): Promise<void> {
  server = await startTestServer();
  api = client(server.baseUrl);
  tenant = await createTenant(server.db, server.app.services, 'ship');
  admin = await login(api, tenant.emails.client_admin);
  employee = await login(api, tenant.emails.employee);
  customer = await login(api, tenant.emails.customer);
  for (const [code, carrier] of [
    ['testpost', TEST_POST],
    ['testbike', TEST_BIKE],
  ] as const) {
    const saved = await saveCarrier(code, carrier);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  }
}
