import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import mqtt from 'mqtt';
import { type BrokerPolicy, EmbeddedBroker } from './broker.ts';

/** A policy whose every hook fails after letting one client in, as a database gone away would. */
const failing: BrokerPolicy<string> = {
  authenticate: async (password) => (password === 'device' ? 'device' : null),
  maySubscribe: async () => false,
  mayReceive: () => false,
  connected: async () => {
    throw new Error('connected: the database is away');
  },
  mayPublish: (_principal, topic) => topic === 'up',
  published: async () => {
    throw new Error('published: the database is away');
  },
  disconnected: async () => {
    throw new Error('disconnected: the database is away');
  },
};

describe('the embedded broker', () => {
  // The limit only turns a hook never told into a failure rather than a hang.
  it("tells a failed hook of the policy instead of swallowing it, and keeps the client's connection", {
    timeout: 60_000,
  }, async () => {
    const told: Array<[string, string]> = [];
    let heard: () => void = () => {};
    const broker = new EmbeddedBroker(failing, {
      port: 0,
      host: '127.0.0.1',
      onError: (error, what) => {
        told.push([what, (error as Error).message]);
        heard();
      },
    });
    await broker.start();
    const toldAll = (count: number) =>
      told.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => (heard = () => told.length >= count && resolve()));
    try {
      const client = await mqtt.connectAsync(broker.where(), {
        username: 'device',
        password: 'device',
        reconnectPeriod: 0,
      });
      await client.publishAsync('up', 'hello', { qos: 1 });
      await toldAll(2);
      assert.equal(client.connected, true, 'a failed hook does not drop the client');
      await client.endAsync();
      await toldAll(3);
      assert.deepEqual(told.map(([what]) => what).sort(), ['connected', 'disconnected', 'published']);
      assert.ok(
        told.every(([what, message]) => message.startsWith(`${what}:`)),
        `each failure told under its own hook: ${JSON.stringify(told)}`,
      );
    } finally {
      await broker.stop();
    }
  });
});
