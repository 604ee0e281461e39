import assert from 'node:assert/strict';
import { LockerSimulator } from '../../src/modules/lockers/simulator.ts';
import type { EmbeddedBroker } from '../../src/platform/mqtt/broker.ts';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import type { TestServer } from './server.ts';

/** Compartments of the test locker: four small (1-4), two medium (5-6), six large (7-12). */
export const COMPARTMENTS = Array.from({ length: 12 }, (_, n) => {
  const [size_class, height_mm] =
    n < 4 ? (['S', 100] as const) : n < 6 ? (['M', 250] as const) : (['L', 400] as const);
  return { number: n + 1, size_class, length_mm: n < 6 ? 400 : 600, width_mm: n < 6 ? 300 : 400, height_mm };
});

export interface LockerWorld {
  api: Client;
  operator: Tenant;
  admin: string;
  siteId: number;
  deviceId: number;
  credential: string;
  brokerUrl: string;
  device: LockerSimulator;
}

/** Waits until `found` answers something, checking every 25 ms, up to a minute. */
export async function eventually<T>(
  found: () => T | undefined | Promise<T | undefined>,
  what: string,
): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 25) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not happen within a minute`);
}

/** An operator business with one site, one locker on it and a simulated device playing that locker. */
export async function lockerWorld(server: TestServer, code: string): Promise<LockerWorld> {
  const api = client(server.baseUrl);
  const operator = await createTenant(server.db, server.app.services, code);
  const admin = await login(api, operator.emails.client_admin);
  const site = await api.post(
    '/api/v1/lockers/sites',
    {
      name: 'Central Station',
      address: { line1: '1 Station Square', city: 'Lyon', country: 'FR', lat: 45.76, lng: 4.86 },
      opening_hours: 'Mo-Su 00:00-24:00',
      hold_hours: 48,
      send_price: { amount: 4.9, currency: 'EUR' },
    },
    { token: admin },
  );
  assert.equal(site.status, 200, JSON.stringify(site.body));
  const registered = await api.post(
    '/api/v1/lockers/devices',
    { site_id: site.body.site.id, kind: 'locker', name: 'Bank A', compartments: COMPARTMENTS },
    { token: admin },
  );
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  const brokerUrl = `mqtt://127.0.0.1:${(server.app.mqtt as EmbeddedBroker<unknown>).port}`;
  const device = await startDevice(server, brokerUrl, registered.body.device.id, registered.body.credential);
  return {
    api,
    operator,
    admin,
    siteId: site.body.site.id,
    deviceId: registered.body.device.id,
    credential: registered.body.credential,
    brokerUrl,
    device,
  };
}

/** A simulated locker on the test server's clock (commands' deadlines are in its time). */
export async function startDevice(
  server: TestServer,
  url: string,
  deviceId: number,
  credential: string,
  options: { respond?: boolean } = {},
): Promise<LockerSimulator> {
  const device = new LockerSimulator({
    url,
    deviceId,
    credential,
    compartments: COMPARTMENTS.length,
    clock: () => server.clock.now(),
    // The tests send heartbeats when they mean to: a timed one arriving after a test moved the
    // clock would show a silent device online.
    heartbeatMs: 3_600_000,
    ...options,
  });
  await device.start();
  return device;
}

/** A kiosk site that sells sends (device orders) at 4.90 EUR, with twelve medium compartments. */
export async function sellingKiosk(
  api: Client,
  admin: string,
): Promise<{ siteId: number; deviceId: number }> {
  const site = await api.post(
    '/api/v1/lockers/sites',
    {
      name: 'Kiosk Square',
      address: { line1: '2 Kiosk Square' },
      send_price: { amount: 4.9, currency: 'EUR' },
    },
    { token: admin },
  );
  assert.equal(site.status, 200, JSON.stringify(site.body));
  const compartments = Array.from({ length: 12 }, (_, n) => ({
    number: n + 1,
    size_class: 'M',
    length_mm: 500,
    width_mm: 400,
    height_mm: 300,
  }));
  const device = await api.post(
    '/api/v1/lockers/devices',
    { site_id: site.body.site.id, kind: 'kiosk', name: 'Kiosk 1', compartments },
    { token: admin },
  );
  assert.equal(device.status, 200, JSON.stringify(device.body));
  return { siteId: site.body.site.id, deviceId: device.body.device.id };
}
