import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import mqtt, { type MqttClient } from 'mqtt';
import { NO_REDIS, REDIS, redisAnswers } from '../../../test/support/redis.ts';
import { type BrokerPolicy, EmbeddedBroker } from './broker.ts';

/** What one broker's policy was asked and told. */
class Seen {
  readonly notes: Array<string | undefined> = [];
  readonly published: string[] = [];
}

/** Anyone may subscribe to `room`; a message reaches them unless its note says `nobody`; `device` publishes on `up`. */
function policy(seen: Seen): BrokerPolicy<string> {
  return {
    authenticate: async (password) => password,
    maySubscribe: async (_principal, topic) => topic === 'room',
    mayReceive: (_principal, _topic, note) => {
      seen.notes.push(note);
      return note !== 'nobody';
    },
    mayPublish: (principal, topic) => principal === 'device' && topic === 'up',
    published: async (_principal, _topic, payload) => void seen.published.push(payload.toString()),
  };
}

/** Waits until `done` holds, checking every 25 ms, up to 30 s. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 25) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not happen within 30 s`);
}

/** A client that keeps the payloads it receives. */
async function listener(broker: EmbeddedBroker<string>, password: string) {
  const client = await mqtt.connectAsync(broker.where(), { username: 'x', password, reconnectPeriod: 0 });
  const received: string[] = [];
  client.on('message', (_topic, payload) => received.push(payload.toString()));
  return { client, received };
}

/** A TCP relay to Redis that a test can cut and restore, as a network would. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async open(): Promise<void> {
    const target = new URL(REDIS);
    this.server = createServer((inbound) => {
      const outbound = tcpConnect({ host: target.hostname, port: Number(target.port || 6379) });
      for (const socket of [inbound, outbound]) {
        this.sockets.add(socket);
        socket.on('error', () => {});
        socket.once('close', () => this.sockets.delete(socket));
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(): string {
    const target = new URL(REDIS);
    target.hostname = '127.0.0.1';
    target.port = String(this.port);
    return target.toString();
  }
}

describe('embedded brokers sharing one bus through Redis', { skip: !redisAnswers && NO_REDIS }, () => {
  // A namespace of this run's own: parallel test files and runs on one Redis never hear each other.
  const prefix = `tms-test-${randomUUID().slice(0, 8)}`;
  const brokers: EmbeddedBroker<string>[] = [];
  const clients: MqttClient[] = [];
  const start = async (seen: Seen, url = REDIS, onBusDown?: () => void) => {
    const broker = new EmbeddedBroker(policy(seen), {
      port: 0,
      host: '127.0.0.1',
      redis: { url, prefix },
      onBusDown,
    });
    brokers.push(broker);
    await broker.start();
    return broker;
  };
  after(async () => {
    for (const client of clients) await client.endAsync(true).catch(() => {});
    for (const broker of brokers) await broker.stop();
  });

  it("delivers a publish on one instance to another's subscriber, by that instance's policy and the publish's note", {
    timeout: 120_000,
  }, async () => {
    const seenA = new Seen();
    const seenB = new Seen();
    const a = await start(seenA);
    const b = await start(seenB);
    const { client, received } = await listener(b, 'driver');
    clients.push(client);
    await client.subscribeAsync('room', { qos: 1 });

    await a.publish('room', 'hello', 'everyone');
    await until(() => received.includes('hello'), 'the push through Redis');
    await a.publish('room', 'secret', 'nobody');
    await a.publish('room', 'after');
    await until(() => received.includes('after'), 'the push after the refused one');
    assert.deepEqual(received, ['hello', 'after'], 'one push each; the one whose note refuses it never');
    assert.deepEqual(seenB.notes, ['everyone', 'nobody', undefined], "asked on the subscriber's instance");
    assert.deepEqual(seenA.notes, [], 'A has no subscriber to ask about');
  });

  it("takes a device's publish once, on its own instance, and sends nothing of it to Redis", {
    timeout: 120_000,
  }, async () => {
    const seenA = new Seen();
    const seenB = new Seen();
    await start(seenA);
    const b = await start(seenB);
    const channels: string[] = [];
    const spy = new Redis(REDIS);
    try {
      spy.on('pmessage', (_pattern, channel, message) => channels.push(`${channel} ${message}`));
      await spy.psubscribe(`${prefix}/*`);
      const device = await mqtt.connectAsync(b.where(), {
        username: 'x',
        password: 'device',
        reconnectPeriod: 0,
      });
      clients.push(device);
      await device.publishAsync('up', 'door opened', { qos: 1 });
      await until(() => seenB.published.length > 0, "the device's message");
      // Published after the device's was acknowledged, on the same connection to Redis.
      await b.publish('room', 'marker');
      await until(() => channels.some((line) => line.startsWith(`${prefix}/room `)), 'the marker on Redis');
      assert.deepEqual(seenB.published, ['door opened']);
      assert.deepEqual(seenA.published, []);
      assert.ok(
        channels.every((line) => !line.includes('door opened') && !line.includes('refused-publish')),
        `the device's message stayed on its instance: ${channels.join(' | ')}`,
      );
    } finally {
      await spy.quit();
    }
  });

  it('fails a publish while Redis is away, tells it once, and shares again once it is back, subscriptions too', {
    timeout: 120_000,
  }, async () => {
    const relay = new Relay();
    await relay.open();
    let toldDown = 0;
    const a = await start(new Seen(), relay.url(), () => toldDown++);
    const b = await start(new Seen());
    const onA = await listener(a, 'driver');
    const onB = await listener(b, 'driver');
    clients.push(onA.client, onB.client);
    await onA.client.subscribeAsync('room', { qos: 1 });
    await onB.client.subscribeAsync('room', { qos: 1 });
    await a.publish('room', 'before');
    await until(() => onA.received.includes('before') && onB.received.includes('before'), 'the first push');

    await relay.cut();
    await until(
      async () =>
        await a.publish('room', 'away').then(
          () => false,
          () => true,
        ),
      'a refused publish',
    );
    await assert.rejects(a.publish('room', 'still away'));
    assert.equal(toldDown, 1, 'the outage told once');
    // Subscribed while Redis is away: acknowledged once the subscription is on Redis.
    const latecomer = await listener(a, 'driver');
    clients.push(latecomer.client);
    const subscribed = latecomer.client.subscribeAsync('room', { qos: 1 });

    await relay.open();
    await subscribed;
    await until(async () => {
      await b.publish('room', 'back');
      return onA.received.includes('back') && latecomer.received.includes('back');
    }, "a push from B to A's clients after Redis came back");
    await a.publish('room', 'from A again');
    await until(() => onB.received.includes('from A again'), 'a push from A to B after Redis came back');
    await relay.cut();
  });

  it('refuses a publish and stops at once when Redis never answered', { timeout: 120_000 }, async () => {
    const relay = new Relay();
    await relay.open();
    await relay.cut();
    const broker = await start(new Seen(), relay.url());
    await assert.rejects(broker.publish('room', 'nowhere'));
    await broker.stop();
  });
});
