import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { demoContext } from '../src/demo/context.ts';
import { ORDER_FAMILIES } from '../src/modules/orders/schemas.ts';
import { rateCardSchema } from '../src/modules/shipping/carriers/rate-card.ts';
import { RateCardCarrier } from '../src/modules/shipping/carriers/rate-card-carrier.ts';
import { DEMO_CARRIERS, seedDemoCarriers } from '../src/modules/shipping/demo.ts';
import { createTenant, login } from './support/fixtures.ts';
import {
  address,
  admin,
  api,
  BERCY,
  BERCY_AT,
  CITY_PARCEL,
  compare,
  employee,
  OBERKAMPF,
  rate,
  server,
  setUpShipping,
  submit,
  TEST_BIKE,
  tenant,
} from './support/shipping.ts';

describe('shipping and labels', () => {
  before(setUpShipping);
  after(() => server.close());

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
