import assert from 'node:assert/strict';
import mqtt, { type MqttClient } from 'mqtt';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import type { TestServer } from './server.ts';

/** What the order chat tests share: an MQTT listener, and a business whose chat is ready to use. */

export interface Push {
  type: string;
  business_id: number;
  order_id: number;
  message: { id: number; text: string; author: { id: number; role: string } };
}

/** An MQTT subscriber that keeps what it receives, per topic. */
export class Listener {
  readonly received: Array<{ topic: string; push: Push }> = [];
  private waiters: Array<() => void> = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      this.received.push({ topic, push: JSON.parse(payload.toString()) });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async connect(url: string, password?: string): Promise<Listener> {
    const client = await mqtt.connectAsync(url, {
      ...(password ? { username: 'tms', password } : {}),
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    return new Listener(client);
  }

  /** Subscribes; answers whether the broker granted it. */
  async subscribe(topic: string): Promise<boolean> {
    try {
      const granted = await this.client.subscribeAsync(topic, { qos: 1 });
      return granted.every((grant) => grant.qos !== 128);
    } catch (error) {
      // mqtt.js rejects a SUBACK whose grant is 128 (refused).
      if ((error as { packet?: { granted?: number[] } }).packet?.granted?.includes(128)) return false;
      throw error;
    }
  }

  /** The push of message `id` on `topic`, waiting up to `ms` for it. */
  async next(topic: string, id: number, ms = 60_000): Promise<Push> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.find((r) => r.topic === topic && r.push.message.id === id);
      if (found) return found.push;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no push of message ${id} on ${topic} within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  has(topic: string, id: number): boolean {
    return this.received.some((r) => r.topic === topic && r.push.message.id === id);
  }

  close() {
    return this.client.endAsync(true);
  }
}

/** A business with order chat on and set up, and an order of its customer on its driver's route. */
export async function prepare(server: TestServer, code: string) {
  const api = client(server.baseUrl);
  const tenant = await createTenant(server.db, server.app.services, code);
  const tokens = {} as Record<keyof Tenant['emails'], string>;
  for (const kind of Object.keys(tenant.emails) as Array<keyof Tenant['emails']>) {
    tokens[kind] = await login(api, tenant.emails[kind]);
  }
  const admin = tokens.client_admin;
  const depot = await api.post(
    '/api/v1/client/depots',
    { name: 'Depot', lat: 48.85, lng: 2.35 },
    { token: admin },
  );
  await api.call('PUT', `/api/v1/client/drivers/${tenant.userIds.driver}/profile`, {
    token: admin,
    body: {
      depot_id: depot.body.depot.id,
      capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 50 },
      shift: { start: '08:00', end: '18:00' },
    },
  });
  const created = await api.post(
    '/api/v1/client/orderCreate',
    {
      scheduled_date: '2026-11-04',
      customer_id: tenant.userIds.customer,
      dropoff: { line1: '3 Rue de Rivoli', lat: 48.86, lng: 2.36 },
    },
    { token: admin },
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const built = await api.post('/api/v3/client/build-route', { date: '2026-11-04' }, { token: admin });
  assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
  const orderId: number = created.body.order_id;
  const order = await api.get(`/api/v1/client/orders/${orderId}`, { token: admin });
  assert.equal(order.body.order.driver_id, tenant.userIds.driver);
  return { api, tenant, tokens, orderId };
}

export async function turnOn(api: Client, token: string) {
  const on = await api.call('PUT', '/api/v1/client/feature-families/order_chat', {
    token,
    body: { enabled: true },
  });
  assert.equal(on.status, 200, JSON.stringify(on.body));
  const setUp = await api.call('PUT', '/api/v1/client/order-chat/settings', {
    token,
    body: { customer_chat: false },
  });
  assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
}
