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

  it('acknowledges a connection only once the policy has taken it, and tells the departure of one gone meanwhile', {
    timeout: 60_000,
  }, async () => {
    const arrivals: Array<() => void> = [];
    let arrived: () => void = () => {};
    const departures: string[] = [];
    let departed: () => void = () => {};
    const holding: BrokerPolicy<string> = {
      authenticate: async (password) => password,
      maySubscribe: async () => false,
      mayReceive: () => false,
      connected: () =>
        new Promise<void>((resolve) => {
          arrivals.push(resolve);
          arrived();
        }),
      disconnected: async (principal) => {
        departures.push(principal);
        departed();
      },
    };
    const broker = new EmbeddedBroker(holding, { port: 0, host: '127.0.0.1' });
    await broker.start();
    const nextArrival = (count: number) =>
      arrivals.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (arrived = resolve));
    try {
      let acknowledged = false;
      const first = mqtt.connectAsync(broker.where(), {
        username: 'a',
        password: 'first',
        reconnectPeriod: 0,
      });
      void first.then(() => (acknowledged = true));
      await nextArrival(1);
      // Round trips through the broker while the policy holds the connection: still no CONNACK.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(acknowledged, false, 'no CONNACK before the policy took the connection');
      arrivals[0]?.();
      const client = await first;
      assert.equal(client.connected, true);

      // A client that leaves while its connection is being taken is never registered by aedes:
      // its departure must still reach the policy, or the service would count it connected.
      const second = mqtt.connect(broker.where(), { username: 'b', password: 'second', reconnectPeriod: 0 });
      second.on('error', () => {});
      await nextArrival(2);
      await new Promise<void>((resolve) => second.end(true, {}, () => resolve()));
      const told = new Promise<void>(
        (resolve) => (departed = () => departures.includes('second') && resolve()),
      );
      arrivals[1]?.();
      await told;
      assert.deepEqual(departures, ['second']);
      await client.endAsync();
      await new Promise<void>((resolve) => {
        if (departures.includes('first')) resolve();
        else departed = resolve;
      });
      assert.deepEqual(departures.sort(), ['first', 'second'], 'each departure told once');
    } finally {
      await broker.stop();
    }
  });
});
