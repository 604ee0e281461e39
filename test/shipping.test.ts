import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { PDFDocument, PDFName, type PDFNumber, PDFRawStream, type PDFRef } from 'pdf-lib';
import { PNG } from 'pngjs';
import { demoContext } from '../src/demo/day.ts';
import { ORDER_FAMILIES } from '../src/modules/orders/schemas.ts';
import { rateCardSchema } from '../src/modules/shipping/carriers/rate-card.ts';
import { RateCardCarrier } from '../src/modules/shipping/carriers/rate-card-carrier.ts';
import { DEMO_CARRIERS, seedDemoCarriers } from '../src/modules/shipping/demo.ts';
import { code128Png } from '../src/modules/shipping/labels/render.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// ----- the test cards: small enough to price by hand -----

const breaks = (pairs: Array<[number, string]>) => pairs.map(([up_to_kg, price]) => ({ up_to_kg, price }));

/** Zones by postal prefix; 'lyon' is for senders in 69 only. Fuel 12.5 %, VAT 20 %. */
const TEST_POST = {
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
const TEST_BIKE = {
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

const BERCY = {
  name: 'Depot Bercy',
  line1: '12 Rue de Bercy',
  city: 'Paris',
  postal_code: '75012',
  country: 'FR',
};
const BERCY_AT = { ...BERCY, lat: 48.8386, lng: 2.3822 };
const OBERKAMPF = {
  name: 'Léa Martin',
  line1: '5 Rue Oberkampf',
  city: 'Paris',
  postal_code: '75011',
  country: 'FR',
  lat: 48.8591,
  lng: 2.3795,
};
const address = (postal_code: string, extra: Record<string, unknown> = {}) => ({
  name: 'Hugo Bernard',
  line1: '1 Grande Rue',
  postal_code,
  ...extra,
});
type Pkg = { weight_grams: number; length_mm?: number; width_mm?: number; height_mm?: number };
const shipment = (dropoff: object, packages: Pkg[], extra: Record<string, unknown> = {}) => ({
  pickup: BERCY,
  dropoff,
  packages,
  ...extra,
});

/** One line of a rate as the golden tables state it: [zone, days, billable g, price, surcharges, tax, total]. */
type Golden = [string, number, number, number, Record<string, number>, number, number];

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are compared field by field
const goldenOf = (rate: any): Golden => [
  rate.zone,
  rate.transit_days,
  rate.billable_weight_grams,
  rate.price,
  Object.fromEntries(rate.surcharges.map((s: { code: string; amount: number }) => [s.code, s.amount])),
  rate.tax,
  rate.total,
];

// ----- reading the PDF back -----

/** Every image of a PDF as luminance (alpha composited over white paper, as a viewer shows it). */
async function imagesOf(pdf: Buffer) {
  const document = await PDFDocument.load(pdf);
  const images: Array<{ width: number; height: number; luminance: Uint8ClampedArray }> = [];
  const number = (stream: PDFRawStream, key: string) =>
    (stream.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const maskRef = object.dict.get(PDFName.of('SMask')) as PDFRef | undefined;
    if (!maskRef) continue; // the masks themselves
    assert.equal(object.dict.get(PDFName.of('ColorSpace')), PDFName.of('DeviceRGB'));
    assert.equal(object.dict.get(PDFName.of('DecodeParms')), undefined, 'no predictor expected');
    const width = number(object, 'Width');
    const height = number(object, 'Height');
    const rgb = inflateSync(object.contents);
    const alpha = inflateSync((document.context.lookup(maskRef) as PDFRawStream).contents);
    const luminance = new Uint8ClampedArray(width * height);
    for (let i = 0; i < width * height; i++) {
      const gray = (rgb[3 * i]! * 299 + rgb[3 * i + 1]! * 587 + rgb[3 * i + 2]! * 114) / 1000;
      luminance[i] = 255 - (alpha[i]! * (255 - gray)) / 255;
    }
    images.push({ width, height, luminance });
  }
  return images;
}

function decode(image: { width: number; height: number; luminance: Uint8ClampedArray }) {
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128, BarcodeFormat.QR_CODE]],
    [DecodeHintType.TRY_HARDER, true],
    // The image is the code alone, as rendered: zxing's finder-pattern search, made for photos,
    // misses about one QR code in fifty of these that other decoders (and phones) read.
    [DecodeHintType.PURE_BARCODE, true],
  ]);
  const source = new RGBLuminanceSource(image.luminance, image.width, image.height);
  const result = new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
  return { format: BarcodeFormat[result.getBarcodeFormat()], text: result.getText() };
}

/** bwip-js's own PNG as luminance over white, to compare with what the PDF holds. */
function luminanceOfPng(png: Buffer): Uint8ClampedArray {
  const image = PNG.sync.read(png);
  const luminance = new Uint8ClampedArray(image.width * image.height);
  for (let i = 0; i < luminance.length; i++) {
    const [r, g, b, a] = image.data.subarray(4 * i, 4 * i + 4);
    const gray = (r! * 299 + g! * 587 + b! * 114) / 1000;
    luminance[i] = 255 - (a! * (255 - gray)) / 255;
  }
  return luminance;
}

describe('shipping and labels', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  let customer: string;

  const rate = (body: object, token = employee) => api.post('/api/v1/labelservice/rate', body, { token });
  const compare = (body: object, token = employee) => api.post('/api/v1/shipping/compare', body, { token });
  const submit = (body: object, token = employee) =>
    api.post('/api/v1/labelservice/submitOrder', body, { token });
  const quoteAndShip = (body: object, token = employee) =>
    api.post('/api/v1/shipping/quote-and-ship', body, { token });
  const saveCarrier = (code: string, body: object, token = admin) =>
    api.call('PUT', `/api/v1/shipping/carriers/${code}`, { token, body });
  /** The golden line of one service of one carrier. */
  const goldenRate = async (carrier: string, service: string, body: object) => {
    const answer = await rate({ ...body, carrier, service });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.rates.length, 1, JSON.stringify(answer.body));
    return goldenOf(answer.body.rates[0]);
  };
  const labelPdf = async (trackingNumber: string, token = employee) => {
    const response = await fetch(`${server.baseUrl}/api/v1/labelservice/labels/${trackingNumber}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    return Buffer.from(await response.arrayBuffer());
  };

  before(async () => {
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
  });
  after(() => server.close());

  describe('carriers', () => {
    it('keeps each rate card with its amounts in major units, and lists the methods without prices', async () => {
      const carriers = await api.get('/api/v1/shipping/carriers', { token: employee });
      assert.equal(carriers.status, 200);
      const post = carriers.body.carriers.find((c: { code: string }) => c.code === 'testpost');
      assert.equal(post.kind, 'rate_card');
      assert.equal(post.version, 1);
      assert.deepEqual(post.rate_card.services[0].zones[0].weight_breaks[0], { up_to_kg: 1, price: 5 });
      assert.equal(post.rate_card.surcharges.residential, 2.35);

      const methods = await api.get('/api/v1/shipping/methods', { token: customer });
      assert.equal(methods.status, 200);
      assert.deepEqual(
        methods.body.methods.map((m: { carrier: string; service: string }) => `${m.carrier}/${m.service}`),
        ['testbike/sameday', 'testpost/ground', 'testpost/express'],
      );
      const express = methods.body.methods[2];
      assert.deepEqual(express.zones, [
        { zone: 'local', transit_days: 1 },
        { zone: 'national', transit_days: 2 },
      ]);
      assert.ok(!JSON.stringify(methods.body).includes('price'));
    });

    it('refuses cards that are malformed, too precise or in another currency', async () => {
      const card = TEST_BIKE.rate_card;
      const unordered = await saveCarrier('bad', {
        name: 'Bad',
        rate_card: {
          ...card,
          zoning: {
            method: 'distance',
            bands: [
              { zone: 'z1', max_km: 9 },
              { zone: 'z2', max_km: 3 },
            ],
          },
        },
      });
      assert.equal(unordered.status, 422);
      assert.equal(unordered.body.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(
        unordered.body.details.fields.map((f: { field: string }) => f.field),
        ['rate_card.zoning.bands'],
      );
      const unknownZone = await saveCarrier('bad', {
        name: 'Bad',
        rate_card: { ...card, zoning: { method: 'distance', bands: [{ zone: 'z1', max_km: 9 }] } },
      });
      assert.equal(unknownZone.status, 422);
      assert.deepEqual(
        unknownZone.body.details.fields.map((f: { field: string }) => f.field),
        ['rate_card.services.0.zones.1.zone'],
      );
      const services = [
        {
          ...card.services[0],
          zones: [{ zone: 'z1', transit_days: 0, weight_breaks: breaks([[5, '7.005']]) }],
        },
      ];
      const precise = await saveCarrier('bad', { name: 'Bad', rate_card: { ...card, services } });
      assert.equal(precise.status, 422);
      assert.equal(precise.body.error_code, 'AMOUNT_TOO_PRECISE');
      const dollars = await saveCarrier('bad', { name: 'Bad', rate_card: { ...card, currency: 'USD' } });
      assert.equal(dollars.status, 422);
      assert.equal(dollars.body.error_code, 'CARRIER_CURRENCY_MISMATCH');
      assert.match(dollars.body.message, /USD.*EUR/);
      // Only client admins configure carriers.
      const byEmployee = await saveCarrier('bad', TEST_BIKE, employee);
      assert.equal(byEmployee.status, 403);
      assert.equal(byEmployee.body.error_code, 'FORBIDDEN');
    });
  });

  describe('rates follow the card exactly', () => {
    it('prices the weight breaks, their boundaries and fuel rounded half up', async () => {
      // 500 base; fuel 12.5 % = 62.5 -> 63; tax 20 % of 563 = 112.6 -> 113.
      assert.deepEqual(
        await goldenRate('testpost', 'ground', shipment(address('75018'), [{ weight_grams: 800 }])),
        ['local', 2, 800, 5, { fuel: 0.63 }, 1.13, 6.76] satisfies Golden,
      );
      // Exactly on a break is inside it; one gram more is the next break.
      assert.deepEqual(
        (await goldenRate('testpost', 'ground', shipment(address('75018'), [{ weight_grams: 1000 }])))[3],
        5,
      );
      assert.deepEqual(
        await goldenRate('testpost', 'ground', shipment(address('75018'), [{ weight_grams: 1001 }])),
        ['local', 2, 1001, 8, { fuel: 1 }, 1.8, 10.8] satisfies Golden,
      );
    });

    it('prices each started kg above the last break, or refuses when the service has no extra-kg price', async () => {
      // 12.3 kg: 12.00 + 3 started kg x 1.50 = 16.50; fuel 206.25 -> 206; tax 371.2 -> 371.
      assert.deepEqual(
        await goldenRate('testpost', 'ground', shipment(address('75018'), [{ weight_grams: 12_300 }])),
        ['local', 2, 12_300, 16.5, { fuel: 2.06 }, 3.71, 22.27] satisfies Golden,
      );
      const heavy = await rate({
        ...shipment(address('13001'), [{ weight_grams: 31_000 }]),
        carrier: 'testpost',
      });
      assert.deepEqual(heavy.body.unavailable, [
        { carrier: 'testpost', service: 'ground', reason: 'too_heavy' },
      ]);
      // Express: 24.00 + 21 x 2.50; heavier than 30 kg, so oversize too.
      assert.deepEqual(goldenOf(heavy.body.rates[0]), [
        'national',
        2,
        31_000,
        76.5,
        { fuel: 9.56, oversize: 15 },
        20.21,
        121.27,
      ] satisfies Golden);
    });

    it('bills the dimensional weight when it is above the actual weight', async () => {
      // 40 x 30 x 25 cm / 5000 = 6 kg billable for 2 kg actual: the 10 kg break.
      const answer = await rate({
        ...shipment(address('75018'), [
          { weight_grams: 2000, length_mm: 400, width_mm: 300, height_mm: 250 },
        ]),
        carrier: 'testpost',
        service: 'ground',
      });
      assert.deepEqual(goldenOf(answer.body.rates[0]), [
        'local',
        2,
        6000,
        12,
        { fuel: 1.5 },
        2.7,
        16.2,
      ] satisfies Golden);
      assert.deepEqual(
        [
          answer.body.rates[0].packages[0].actual_weight_grams,
          answer.body.rates[0].packages[0].dimensional_weight_grams,
        ],
        [2000, 6000],
      );
    });

    it('adds the oversize surcharge above the longest side, and the residential one per package', async () => {
      // 130 cm > 120 cm: oversize 15.00; dimensional 5.2 kg -> the 10 kg break.
      assert.deepEqual(
        await goldenRate(
          'testpost',
          'ground',
          shipment(address('75018'), [
            { weight_grams: 4000, length_mm: 1300, width_mm: 200, height_mm: 100 },
          ]),
        ),
        ['local', 2, 5200, 12, { fuel: 1.5, oversize: 15 }, 5.7, 34.2] satisfies Golden,
      );
      // Near zone, to a home: 9.50 + fuel 118.75 -> 119 + residential 2.35; tax 260.8 -> 261.
      assert.deepEqual(
        await goldenRate(
          'testpost',
          'ground',
          shipment(address('77100'), [{ weight_grams: 3200 }], { residential: true }),
        ),
        ['near', 3, 3200, 9.5, { fuel: 1.19, residential: 2.35 }, 2.61, 15.65] satisfies Golden,
      );
    });

    it('prices every package on its own and sums them', async () => {
      const answer = await rate({
        ...shipment(address('75018'), [{ weight_grams: 800 }, { weight_grams: 3000 }], { residential: true }),
        carrier: 'testpost',
        service: 'ground',
      });
      const [quote] = answer.body.rates;
      assert.deepEqual(goldenOf(quote), [
        'local',
        2,
        3800,
        13,
        { fuel: 1.63, residential: 4.7 },
        3.87,
        23.2,
      ] satisfies Golden);
      // 5.00 + 0.63 + 2.35 = 7.98, tax 1.596 -> 1.60; 8.00 + 1.00 + 2.35 = 11.35, tax 2.27.
      assert.deepEqual(
        quote.packages.map((p: { total: number; tax: number }) => [p.tax, p.total]),
        [
          [1.6, 9.58],
          [2.27, 13.62],
        ],
      );
    });

    it('zones by origin and destination prefix: the longest match wins', async () => {
      const fromLyon = { ...shipment(address('69007'), [{ weight_grams: 900 }]), pickup: address('69003') };
      const answer = await rate({ ...fromLyon, carrier: 'testpost' });
      assert.deepEqual(goldenOf(answer.body.rates[0]), [
        'lyon',
        2,
        900,
        4,
        { fuel: 0.5 },
        0.9,
        5.4,
      ] satisfies Golden);
      assert.deepEqual(answer.body.unavailable, [
        { carrier: 'testpost', service: 'express', reason: 'zone_not_served' },
      ]);
      // The same recipient from Paris is national.
      assert.deepEqual(
        await goldenRate('testpost', 'ground', shipment(address('69007'), [{ weight_grams: 900 }])),
        ['national', 4, 900, 7, { fuel: 0.88 }, 1.58, 9.46] satisfies Golden,
      );
    });

    it('zones by distance bands from the coordinates', async () => {
      const near = await goldenRate('testbike', 'sameday', {
        ...shipment(OBERKAMPF, [{ weight_grams: 800 }]),
        pickup: BERCY_AT,
      });
      assert.deepEqual(near, ['z1', 0, 800, 7, {}, 0.7, 7.7] satisfies Golden);
      const montmartre = { ...address('75018'), lat: 48.8925, lng: 2.3444 }; // about 6.6 km away
      const far = await goldenRate('testbike', 'sameday', {
        ...shipment(montmartre, [{ weight_grams: 800 }]),
        pickup: BERCY_AT,
      });
      assert.deepEqual(far, ['z2', 0, 800, 11, {}, 1.1, 12.1] satisfies Golden);
      const reasons = async (dropoff: object, pickup: object) =>
        (await rate({ ...shipment(dropoff, [{ weight_grams: 800 }]), pickup, carrier: 'testbike' })).body
          .unavailable;
      assert.deepEqual(await reasons(OBERKAMPF, BERCY), [
        { carrier: 'testbike', service: 'sameday', reason: 'missing_coordinates' },
      ]);
      assert.deepEqual(await reasons({ ...address('69007'), lat: 45.75, lng: 4.84 }, BERCY_AT), [
        { carrier: 'testbike', service: 'sameday', reason: 'out_of_area' },
      ]);
    });
  });

  /** From the depot to Oberkampf, 800 g: ground 6.76 (2 days), bike 7.70 (0 days), express 12.16 (1 day). */
  const CITY_PARCEL = { pickup: BERCY_AT, dropoff: OBERKAMPF, packages: [{ weight_grams: 800 }] };

  describe('choosing a carrier', () => {
    it('compares every carrier cheapest first, marking the cheapest and the fastest', async () => {
      const answer = await compare(CITY_PARCEL);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        answer.body.rates.map(
          (r: { carrier: string; service: string; total: number; cheapest: boolean; fastest: boolean }) => [
            `${r.carrier}/${r.service}`,
            r.total,
            r.cheapest,
            r.fastest,
          ],
        ),
        [
          ['testpost/ground', 6.76, true, false],
          ['testbike/sameday', 7.7, false, true],
          ['testpost/express', 12.16, false, false],
        ],
      );
      assert.equal(answer.body.cheapest_rate_id, answer.body.rates[0].rate_id);
      assert.equal(answer.body.fastest_rate_id, answer.body.rates[1].rate_id);
      assert.deepEqual(answer.body.unavailable, []);
    });

    it('quote_and_ship buys the cheapest, the fastest, or the preferred of one carrier', async () => {
      const cases: Array<[object, string]> = [
        [{}, 'testpost/ground'],
        [{ prefer: 'cheapest' }, 'testpost/ground'],
        [{ prefer: 'fastest' }, 'testbike/sameday'],
        [{ prefer: 'fastest', carrier: 'testpost' }, 'testpost/express'],
        [{ carrier: 'testbike' }, 'testbike/sameday'],
      ];
      for (const [preference, expected] of cases) {
        const answer = await quoteAndShip({ ...CITY_PARCEL, ...preference });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(
          `${answer.body.rate.carrier}/${answer.body.rate.service}`,
          expected,
          JSON.stringify(preference),
        );
        assert.equal(answer.body.prefer, 'prefer' in preference ? preference.prefer : 'cheapest');
        assert.equal(answer.body.labels.length, 1);
        assert.equal(answer.body.order.carrier, answer.body.rate.carrier);
      }
      const nowhere = await quoteAndShip({
        ...CITY_PARCEL,
        dropoff: address('69007'),
        packages: [{ weight_grams: 50_000 }],
        carrier: 'testbike',
      });
      assert.equal(nowhere.status, 422);
      assert.equal(nowhere.body.error_code, 'NO_CARRIER_AVAILABLE');
    });
  });

  describe('labels', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the answer of submitOrder
    let submitted: any;

    before(async () => {
      submitted = await submit({
        ...CITY_PARCEL,
        packages: [
          { weight_grams: 800 },
          { weight_grams: 3000, length_mm: 300, width_mm: 200, height_mm: 100, description: 'Books' },
        ],
        carrier: 'testpost',
        service: 'ground',
        order_ref: 'LBL-1',
        customer_id: tenant.userIds.customer,
        note: 'Fragile',
      });
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    });

    it('creates a label-service order with its packages, prices and one label per package', async () => {
      const { body } = submitted;
      assert.equal(body.order.family, 'label_service');
      assert.equal(body.order.order_ref, 'LBL-1');
      assert.equal(body.order.carrier, 'testpost');
      assert.equal(body.order.self_delivery, false);
      assert.equal(body.order.customer_id, tenant.userIds.customer);
      assert.equal(body.tracking_number, body.order.packages[0].tracking_number);
      // 800 g: 6.76; 3 kg: 8.00 + 1.00 fuel, tax 1.80 = 10.80.
      assert.deepEqual(
        [body.order.currency, body.order.shipping_price, body.order.surcharges, body.order.tax],
        ['EUR', 13, [{ code: 'fuel', amount: 1.63 }], 2.93],
      );
      assert.equal(body.rate.total, 17.56);
      assert.deepEqual(
        body.labels.map((l: { tracking_number: string; total: number; billable_weight_grams: number }) => [
          l.tracking_number,
          l.total,
          l.billable_weight_grams,
        ]),
        [
          [body.order.packages[0].tracking_number, 6.76, 800],
          [body.order.packages[1].tracking_number, 10.8, 3000],
        ],
      );
      for (const label of body.labels) {
        assert.equal(label.rate_id, body.rate.rate_id);
        assert.match(label.document.sha256, /^[0-9a-f]{64}$/);
        assert.ok(label.pdf_url.endsWith(`/api/v1/labelservice/labels/${label.tracking_number}`));
      }
      // The order reads back with the same prices.
      const detail = await api.get(`/api/v1/client/orders/${body.order_id}`, { token: admin });
      assert.deepEqual(detail.body.order.shipping_price, 13);
    });

    it('serves the label as JSON, and as a 4 x 6 in PDF whose barcode decodes to the tracking number', async () => {
      const [first] = submitted.body.labels;
      const json = await api.get(`/api/v1/labelservice/labels/${first.tracking_number}?include_pdf=true`, {
        token: employee,
      });
      assert.equal(json.status, 200, JSON.stringify(json.body));
      assert.equal(json.body.label.carrier_name, 'Test Post');
      assert.equal(json.body.label.service_name, 'Ground');
      const pdf = await labelPdf(first.tracking_number);
      assert.equal(json.body.label.pdf_base64, pdf.toString('base64'));
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(pdf.subarray(-32).toString('latin1'), /startxref\s+\d+\s+%%EOF\s*$/);
      assert.equal(createHash('sha256').update(pdf).digest('hex'), first.document.sha256);

      const document = await PDFDocument.load(pdf);
      assert.equal(document.getPageCount(), 1);
      assert.deepEqual(document.getPage(0).getSize(), { width: 288, height: 432 });

      const images = await imagesOf(pdf);
      const decoded = images.map(decode);
      assert.deepEqual(decoded, [
        { format: 'CODE_128', text: first.tracking_number },
        { format: 'QR_CODE', text: `${new URL(first.pdf_url).origin}/track/${first.tracking_number}` },
      ]);
      // And the barcode in the PDF is, pixel for pixel, bwip-js's Code 128 of the tracking number.
      const barcode = images[0]!;
      assert.deepEqual(barcode.luminance, luminanceOfPng(await code128Png(first.tracking_number)));
    });

    it('records the PDF as an issued document and adds information_submitted to each timeline', async () => {
      for (const label of submitted.body.labels) {
        const timeline = await api.get(`/api/v1/otep/trackings/${label.tracking_number}`);
        assert.equal(timeline.status, 200);
        const events = timeline.body.data.events;
        assert.deepEqual(
          events.map((e: { status_code: string; source: object }) => [e.status_code, e.source]),
          [['information_submitted', { type: 'carrier', name: 'Test Post' }]],
        );
        const issued = await server.db
          .selectFrom('documents')
          .select(['id', 'sha256', 'kind', 'reference'])
          .where('reference', '=', label.tracking_number)
          .executeTakeFirst();
        assert.deepEqual(issued, {
          id: Number(label.document.id),
          sha256: label.document.sha256,
          kind: 'label',
          reference: label.tracking_number,
        });
      }
    });

    it('buys at a quoted rate_id, and refuses one the card has changed since', async () => {
      const quoted = (await rate({ ...CITY_PARCEL, carrier: 'testbike' })).body.rates[0];
      const bought = await submit({
        ...CITY_PARCEL,
        carrier: 'testbike',
        service: 'sameday',
        rate_id: quoted.rate_id,
      });
      assert.equal(bought.status, 200, JSON.stringify(bought.body));
      assert.equal(bought.body.labels[0].total, quoted.total);

      assert.equal((await saveCarrier('testbike', TEST_BIKE)).body.carrier.version, 2);
      const stale = await submit({
        ...CITY_PARCEL,
        carrier: 'testbike',
        service: 'sameday',
        rate_id: quoted.rate_id,
      });
      assert.equal(stale.status, 409);
      assert.equal(stale.body.error_code, 'RATE_CHANGED');
      assert.notEqual(stale.body.details.rate.rate_id, quoted.rate_id);
      assert.equal(stale.body.details.rate.total, quoted.total);
    });

    it('lets a customer rate and ship for itself, and hides label prices when the business says so', async () => {
      const own = await submit(
        { ...CITY_PARCEL, carrier: 'testpost', service: 'ground', customer_id: 999_999 },
        customer,
      );
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.order.customer_id, tenant.userIds.customer);
      assert.equal(
        (await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, { token: customer }))
          .status,
        200,
      );

      // Another customer of the business does not see it.
      await server.app.services.accounts.createUser(server.db, {
        kind: 'customer',
        email: 'other-customer@ship.test',
        name: 'Other customer',
        password: PASSWORD,
        businessId: tenant.businessId,
        contractorCompanyId: null,
      });
      const other = await login(api, 'other-customer@ship.test');
      const refused = await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, {
        token: other,
      });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error_code, 'LABEL_NOT_FOUND');

      const hide = await api.call(
        'PUT',
        `/api/v1/client/customers/${tenant.userIds.customer}/price-visibility`,
        {
          token: admin,
          body: { hidden: { label_service: true } },
        },
      );
      assert.equal(hide.status, 200, JSON.stringify(hide.body));
      const hidden = await compare(CITY_PARCEL, customer);
      assert.equal(hidden.body.price_hidden, true);
      const [first] = hidden.body.rates;
      assert.deepEqual(
        [first.carrier, first.service, first.cheapest, typeof first.rate_id],
        ['testpost', 'ground', true, 'string'],
      );
      for (const field of ['price', 'tax', 'total', 'currency']) assert.equal(first[field], undefined, field);
      assert.deepEqual(first.surcharges, [{ code: 'fuel' }]);
      const label = await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, {
        token: customer,
      });
      assert.equal(label.body.label.total, undefined);
      assert.equal((await compare(CITY_PARCEL, employee)).body.rates[0].total, 6.76);
    });

    it('answers the labelservice operations over GraphQL too', async () => {
      const graphql = async (query: string, variables: object) => {
        const response = await fetch(`${server.baseUrl}/api/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${employee}` },
          body: JSON.stringify({ query, variables }),
        });
        return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
      };
      const packages = [{ weight_grams: 800 }];
      const quoted = await graphql(
        `query ($pickup: LabelserviceRatePickupInput!, $dropoff: LabelserviceRateDropoffInput!, $packages: [LabelserviceRatePackagesInput!]!) {
          labelserviceRate(pickup: $pickup, dropoff: $dropoff, packages: $packages, carrier: "testpost", service: "ground") {
            rates { rate_id total surcharges { code amount } }
          }
        }`,
        { pickup: BERCY_AT, dropoff: OBERKAMPF, packages },
      );
      assert.equal(quoted.errors, undefined, JSON.stringify(quoted.errors));
      const [quote] = (quoted.data!.labelserviceRate as { rates: Array<{ rate_id: string; total: number }> })
        .rates;
      assert.equal(quote!.total, 6.76);
      const bought = await graphql(
        `mutation ($pickup: LabelserviceSubmitOrderPickupInput!, $dropoff: LabelserviceSubmitOrderDropoffInput!, $packages: [LabelserviceSubmitOrderPackagesInput!]!, $rate: String) {
          labelserviceSubmitOrder(pickup: $pickup, dropoff: $dropoff, packages: $packages, carrier: "testpost", service: "ground", rate_id: $rate) {
            tracking_number labels { tracking_number total document { sha256 } }
          }
        }`,
        { pickup: BERCY_AT, dropoff: OBERKAMPF, packages, rate: quote!.rate_id },
      );
      assert.equal(bought.errors, undefined, JSON.stringify(bought.errors));
      const order = bought.data!.labelserviceSubmitOrder as {
        tracking_number: string;
        labels: Array<{ total: number }>;
      };
      assert.equal(order.labels[0]!.total, 6.76);
      const label = await graphql(
        'query ($n: String!) { shippingLabel(tracking_number: $n) { label { service_name } } }',
        {
          n: order.tracking_number,
        },
      );
      assert.deepEqual(label.data, { shippingLabel: { label: { service_name: 'Ground' } } });
    });
  });

  describe('refusals', () => {
    it('answers unknown carriers, services and labels, and services that cannot carry, in the error shape', async () => {
      const cases: Array<
        [Promise<{ status: number; body: { error_code: string; message: string } }>, number, string]
      > = [
        [rate({ ...CITY_PARCEL, carrier: 'nobody' }), 404, 'CARRIER_NOT_FOUND'],
        [
          rate({ ...CITY_PARCEL, carrier: 'testpost', service: 'teleport' }),
          404,
          'CARRIER_SERVICE_NOT_FOUND',
        ],
        [
          submit({ ...CITY_PARCEL, carrier: 'testpost', service: 'teleport' }),
          404,
          'CARRIER_SERVICE_NOT_FOUND',
        ],
        [
          submit({ ...CITY_PARCEL, dropoff: address('77100'), carrier: 'testpost', service: 'express' }),
          422,
          'RATE_UNAVAILABLE',
        ],
        [api.get('/api/v1/labelservice/labels/TMSNOTALABEL', { token: employee }), 404, 'LABEL_NOT_FOUND'],
      ];
      for (const [call, status, code] of cases) {
        const answer = await call;
        assert.equal(answer.status, status, JSON.stringify(answer.body));
        assert.equal(answer.body.error_code, code);
        assert.ok(answer.body.message.length > 0);
      }
      const unavailable = await submit({
        ...CITY_PARCEL,
        dropoff: address('77100'),
        carrier: 'testpost',
        service: 'express',
      });
      assert.equal(unavailable.body.details.reason, 'zone_not_served');
    });

    it('checks the input and names every bad field, in the caller language', async () => {
      const answer = await api.post(
        '/api/v1/labelservice/rate',
        { pickup: BERCY, dropoff: { line1: '' }, packages: [{ weight_grams: 0 }], carrier: 'Not A Code' },
        { token: employee, headers: { 'accept-language': 'de' } },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(answer.body.details.fields.map((f: { field: string }) => f.field).sort(), [
        'carrier',
        'dropoff.line1',
        'packages.0.weight_grams',
      ]);
      assert.equal(answer.headers.get('content-language'), 'de');
      const noPackages = await submit({
        pickup: BERCY,
        dropoff: OBERKAMPF,
        packages: [],
        carrier: 'testpost',
        service: 'ground',
      });
      assert.equal(noPackages.status, 422);
    });

    it('is for the business staff and its customers, with the labels scopes', async () => {
      const driver = await login(api, tenant.emails.driver);
      const answer = await rate({ ...CITY_PARCEL, carrier: 'testpost' }, driver);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error_code, 'FORBIDDEN');
      const { token } = await server.app.services.accounts.issueToken(server.db, {
        userId: tenant.userIds.employee,
        kind: 'agent',
        scopes: ['labels:read'],
      });
      assert.equal((await rate({ ...CITY_PARCEL, carrier: 'testpost' }, token)).status, 200);
      const write = await submit({ ...CITY_PARCEL, carrier: 'testpost', service: 'ground' }, token);
      assert.equal(write.status, 403);
      assert.equal(write.body.error_code, 'INSUFFICIENT_SCOPE');
    });
  });

  describe('the adapter and the demo carriers', () => {
    it('runs the built-in carrier behind the adapter interface', async () => {
      const carrier = new RateCardCarrier('testbike', 'Test Bike', rateCardSchema.parse(TEST_BIKE.rate_card));
      const [sameDay] = await carrier.rate({
        pickup: BERCY_AT,
        dropoff: OBERKAMPF,
        residential: false,
        packages: [{ weight_grams: 800 }],
      });
      assert.ok(sameDay && 'quote' in sameDay);
      assert.equal(sameDay.quote.total, 770);
      const purchased = await carrier.createLabel({
        service: 'sameday',
        shipment: {
          pickup: BERCY_AT,
          dropoff: OBERKAMPF,
          residential: false,
          packages: [{ weight_grams: 800 }],
        },
        packageIndex: 0,
        trackingNumber: 'TMS0000000001',
      });
      assert.deepEqual(purchased, { carrierReference: 'TMS0000000001' });
      await carrier.voidLabel({ trackingNumber: 'TMS0000000001', carrierReference: 'TMS0000000001' });
      assert.deepEqual(
        await carrier.track({ trackingNumber: 'TMS0000000001', carrierReference: 'TMS0000000001' }),
        [],
      );
    });

    it('seeds the demo carriers, which quote a parcel from the Paris depot', async () => {
      const demo = await createTenant(server.db, server.app.services, 'shipdemo');
      const ctx = demoContext(server.db, server.clock, {
        userId: demo.userIds.client_admin,
        kind: 'client_admin',
        businessId: demo.businessId,
      });
      await seedDemoCarriers(server.app.services, ctx);
      const token = await login(api, demo.emails.employee);
      const answer = await compare(
        {
          pickup: BERCY_AT,
          dropoff: { ...OBERKAMPF, postal_code: '75018', lat: 48.8925, lng: 2.3444 },
          packages: [{ weight_grams: 2500 }],
        },
        token,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const carriers = new Set(answer.body.rates.map((r: { carrier: string }) => r.carrier));
      assert.deepEqual([...carriers].sort(), DEMO_CARRIERS.map((c) => c.code).sort());
      assert.ok(answer.body.rates.every((r: { currency: string }) => r.currency === 'EUR'));
    });
  });

  it('creates and reads every order family with all its price fields', async () => {
    const prices = {
      currency: 'EUR',
      shipping_price: '19.99',
      tax: '4.00',
      surcharges: [{ code: 'fuel', amount: '1.25' }],
      price_details: [{ label: 'base', amount: '18.74' }],
    };
    for (const family of ORDER_FAMILIES) {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { family, dropoff: { line1: '1 Main St' }, ...prices },
        { token: admin },
      );
      assert.equal(created.status, 200, `${family}: ${JSON.stringify(created.body)}`);
      const { order } = (await api.get(`/api/v1/client/orders/${created.body.order_id}`, { token: admin }))
        .body;
      assert.deepEqual(
        [
          order.family,
          order.currency,
          order.shipping_price,
          order.tax,
          order.surcharges,
          order.price_details,
        ],
        [family, 'EUR', 19.99, 4, [{ code: 'fuel', amount: 1.25 }], [{ label: 'base', amount: 18.74 }]],
      );
    }
  });
});
