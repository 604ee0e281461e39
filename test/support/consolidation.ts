/** A forwarding business's world for the consolidation tests: warehouse, settings, suite, pushes. */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import type { Client } from './http.ts';

export const WAREHOUSE = {
  code: 'FWD',
  name: 'Forwarding hub',
  line1: '12 Rue de Bercy',
  city: 'Paris',
  postal_code: '75012',
  country: 'FR',
  lat: 48.8386,
  lng: 2.3822,
  time_zone: 'Europe/Paris',
  opening_hours: { mon: [{ from: '08:00', to: '18:00' }] },
  postal_prefixes: ['75'],
};

export const item = (description: string, value: number, hs_code = '851712') => ({
  description,
  quantity: 1,
  value,
  currency: 'USD',
  hs_code,
  origin_country: 'CN',
});

/** The warehouse, the settings (with a fresh webhook secret) and the customer's suite. */
export async function setUpForwarding(api: Client, admin: string, customerId: number) {
  const warehouse = await api.post('/api/v1/client/warehouses', WAREHOUSE, { token: admin });
  assert.equal(warehouse.status, 200, JSON.stringify(warehouse.body));
  const settings = await api.call('PATCH', '/api/v1/consolidation/settings', {
    token: admin,
    body: { free_storage_days: 3, storage_fee_per_day: 0.5, currency: 'EUR', generate_webhook_secret: true },
  });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
  const suite = await api.post(
    '/api/v1/consolidation/suites',
    { customer_id: customerId, warehouse_id: warehouse.body.warehouse.id },
    { token: admin },
  );
  assert.equal(suite.status, 200, JSON.stringify(suite.body));
  return {
    warehouseId: warehouse.body.warehouse.id as number,
    secret: settings.body.webhook_secret as string,
    suite: suite.body.suite,
  };
}

export async function announce(api: Client, token: string, trackingNumber: string, items: object[]) {
  const answer = await api.post(
    '/api/v1/consolidation/parcels',
    { carrier: 'usps', tracking_number: trackingNumber, items },
    { token },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.parcel as { id: number; reference: string };
}

/** An AfterShip tracking_update body for a number, at `now`, with one checkpoint. */
export function afterShipPush(trackingNumber: string, now: Date, eventId = randomUUID()) {
  return JSON.stringify({
    event_id: eventId,
    event: 'tracking_update',
    is_tracking_first_tag: true,
    ts: Math.floor(now.getTime() / 1000),
    msg: {
      id: `as-${trackingNumber}`,
      slug: 'usps',
      tracking_number: trackingNumber,
      tag: 'InTransit',
      subtag: 'InTransit_003',
      checkpoints: [
        {
          slug: 'usps',
          checkpoint_time: new Date(now.getTime() - 3_600_000).toISOString(),
          tag: 'InTransit',
          subtag: 'InTransit_003',
          message: 'Arrived at USPS Regional Facility',
          city: 'JAMAICA',
          zip: '11430',
          country_iso3: 'USA',
        },
      ],
    },
  });
}

export const sign = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('base64');

export const push = (api: Client, businessId: number, body: string, signature: string | undefined) =>
  api.call('POST', `/api/v1/consolidation/tracking-webhooks/${businessId}/aftership`, {
    body,
    headers: signature === undefined ? {} : { 'aftership-hmac-sha256': signature },
  });

/**
 * A forwarding customer with three received parcels and a consolidation of the third: the first
 * two are left for calls that consolidate (one over REST, one over GraphQL). Without a warehouse
 * id, the business's forwarding is set up first (warehouse, settings).
 */
export async function forwardingCustomer(
  api: Client,
  admin: string,
  customer: { id: number; token: string; prefix: string },
  warehouseId?: number,
) {
  let warehouse = warehouseId;
  if (warehouse === undefined) ({ warehouseId: warehouse } = await setUpForwarding(api, admin, customer.id));
  else {
    const suite = await api.post(
      '/api/v1/consolidation/suites',
      { customer_id: customer.id, warehouse_id: warehouse },
      { token: admin },
    );
    assert.equal(suite.status, 200, JSON.stringify(suite.body));
  }
  const parcelIds: number[] = [];
  for (const n of [1, 2, 3]) {
    const number = `${customer.prefix}-${n}`;
    parcelIds.push((await announce(api, customer.token, number, [item(`Item ${n}`, 10 * n)])).id);
    const received = await api.post(
      '/api/v1/consolidation/parcels/receive',
      {
        carrier: 'usps',
        tracking_number: number,
        weight_grams: 400,
        length_mm: 200,
        width_mm: 150,
        height_mm: 100,
      },
      { token: admin },
    );
    assert.equal(received.status, 200, JSON.stringify(received.body));
  }
  const consolidation = await api.post(
    '/api/v1/consolidation/consolidations',
    { parcel_ids: [parcelIds[2]], dropoff: FORWARDED_TO },
    { token: customer.token },
  );
  assert.equal(consolidation.status, 200, JSON.stringify(consolidation.body));
  return {
    warehouseId: warehouse,
    parcelIds,
    consolidationId: consolidation.body.consolidation.id as number,
  };
}

/** Where the test customers have their consolidations sent. */
export const FORWARDED_TO = {
  name: 'Hugo Bernard',
  line1: '5 Rue Oberkampf',
  city: 'Paris',
  postal_code: '75011',
  country: 'FR',
};
