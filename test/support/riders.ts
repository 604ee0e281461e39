import assert from 'node:assert/strict';
import mqtt, { type MqttClient } from 'mqtt';
import { createTenant, login, signedInDriver, type Tenant } from './fixtures.ts';
import { client } from './http.ts';
import type { TestServer } from './server.ts';

/** What the instant rider tests share: a business with riders online at given places, and an MQTT listener. */

export interface Rider {
  id: number;
  token: string;
}

/** A business, its client admin's token, and a way to make riders and instant orders in it. */
export async function riderBusiness(server: TestServer, code: string) {
  const api = client(server.baseUrl);
  const tenant: Tenant = await createTenant(server.db, server.app.services, code);
  const admin = await login(api, tenant.emails.client_admin);
  let made = 0;

  /** Drivers of the business, granted instant delivery, online, each having pinged its place now. */
  async function riders(places: ReadonlyArray<{ lat: number; lng: number }>): Promise<Rider[]> {
    const list: Rider[] = [];
    for (const place of places) {
      const rider = await driver();
      const granted = await api.call('PUT', `/api/v1/client/drivers/${rider.id}/rider`, {
        token: admin,
        body: { granted: true },
      });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      const online = await api.post('/api/v1/rider/online', {}, { token: rider.token });
      assert.equal(online.status, 200, JSON.stringify(online.body));
      await ping(rider, place);
      list.push(rider);
    }
    return list;
  }

  /** A driver of the business, signed in with the standard login. */
  const driver = (): Promise<Rider> => signedInDriver(server, api, tenant, `rider${++made}`);

  /** The rider is at `place` now (phone time: the server's clock). */
  async function ping(rider: Rider, place: { lat: number; lng: number }) {
    const pinged = await api.post(
      '/api/v1/rider/pings',
      { pings: [{ ...place, at: server.clock.now().toISOString() }] },
      { token: rider.token },
    );
    assert.equal(pinged.status, 200, JSON.stringify(pinged.body));
    return pinged.body;
  }

  /** An instant pickup-and-delivery order picking up at `pickup`. */
  async function instantOrder(pickup: { lat: number; lng: number }): Promise<number> {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        type: 'P2P',
        instant: true,
        pickup: { line1: '1 Rue du Départ', ...pickup },
        dropoff: { line1: '9 Rue de l’Arrivée', lat: pickup.lat + 0.01, lng: pickup.lng + 0.01 },
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.order_id;
  }

  async function settings(body: {
    wave_size?: number;
    offer_seconds?: number;
    offer_riders_on_route?: boolean;
  }) {
    const set = await api.call('PUT', '/api/v1/client/riders/settings', { token: admin, body });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  }

  async function dispatchOf(orderId: number) {
    const answer = await api.get(`/api/v1/client/orders/${orderId}/instant-dispatch`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.dispatch;
  }

  async function offersOf(rider: Rider): Promise<Array<{ id: number; order: { id: number } }>> {
    const answer = await api.get('/api/v1/rider/offers', { token: rider.token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.offers;
  }

  return { api, tenant, admin, riders, driver, ping, instantOrder, settings, dispatchOf, offersOf };
}

/** `meters` north of a place (a degree of latitude is about 111.2 km). */
export const north = (place: { lat: number; lng: number }, meters: number) => ({
  lat: place.lat + meters / 111_195,
  lng: place.lng,
});

/** An MQTT subscriber of one driver's own topic, keeping what it receives. */
export class DriverTopic {
  readonly received: Array<Record<string, unknown>> = [];
  private waiters: Array<() => void> = [];

  private constructor(private readonly client: MqttClient) {
    client.on('message', (_topic, payload) => {
      this.received.push(JSON.parse(payload.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Subscribes with the driver's bearer token as the MQTT password. */
  static async open(server: TestServer, businessId: number, rider: Rider): Promise<DriverTopic> {
    const port = (server.app.mqtt as unknown as { port: number }).port;
    const connection = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: 'tms',
      password: rider.token,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    await connection.subscribeAsync(`tms/drivers/${businessId}/${rider.id}`, { qos: 1 });
    return new DriverTopic(connection);
  }

  /** The first push received that `matches`, waiting up to `ms` for it. */
  async next(matches: (push: Record<string, unknown>) => boolean, ms = 30_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.find(matches);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching push within ${ms} ms: ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    return this.client.endAsync(true);
  }
}
