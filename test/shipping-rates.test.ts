import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  address,
  api,
  BERCY,
  BERCY_AT,
  breaks,
  customer,
  employee,
  type Golden,
  goldenOf,
  goldenRate,
  OBERKAMPF,
  rate,
  saveCarrier,
  server,
  setUpShipping,
  shipment,
  TEST_BIKE,
} from './support/shipping.ts';

describe('shipping and labels', () => {
  before(setUpShipping);
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
});
