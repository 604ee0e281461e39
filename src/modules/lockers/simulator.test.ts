import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { EmbeddedBroker } from '../../platform/mqtt/broker.ts';
import { type CommandMessage, parseUp, type UpMessage } from './protocol.ts';
import { LockerSimulator, type LockerSimulatorOptions } from './simulator.ts';

const CREDENTIAL = (id: number) => `tmsdev_${id}_${'a'.repeat(43)}`;
const WAIT_MS = 10_000;

/** Polls until `found` returns something, up to a generous timeout. */
async function eventually<T>(found: () => T | undefined, what: string, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function command(partial: Partial<CommandMessage> = {}): CommandMessage {
  return {
    type: 'command',
    id: randomUUID(),
    action: 'open',
    compartment: 1,
    expires_at: new Date(Date.now() + 60_000).toISOString(),
    ...partial,
  };
}

// A plain aedes broker: the embedded one sends every client PUBLISH nowhere, so what a device
// says could not be watched through it.
describe('LockerSimulator on a plain broker', () => {
  let broker: Aedes;
  let server: Server;
  let url: string;
  let watcher: MqttClient;
  const up: { deviceId: number; message: UpMessage }[] = [];
  const simulators: LockerSimulator[] = [];

  before(async () => {
    broker = await Aedes.createBroker();
    server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    watcher = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    await watcher.subscribeAsync('tms/devices/+/up', { qos: 1 });
    watcher.on('message', (topic, payload) => {
      const message = parseUp(payload);
      if (message) up.push({ deviceId: Number(topic.split('/')[2]), message });
    });
  });

  after(async () => {
    await Promise.all(simulators.map((simulator) => simulator.stop()));
    await watcher.endAsync(true);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  let nextId = 100;
  async function device(options: Partial<LockerSimulatorOptions> = {}): Promise<LockerSimulator> {
    const deviceId = nextId++;
    const simulator = new LockerSimulator({
      url,
      deviceId,
      credential: CREDENTIAL(deviceId),
      compartments: 4,
      ...options,
    });
    simulators.push(simulator);
    await simulator.start();
    return simulator;
  }

  function send(simulator: LockerSimulator, message: CommandMessage): Promise<unknown> {
    return watcher.publishAsync(simulator.topics.commands(simulator.deviceId), JSON.stringify(message), {
      qos: 1,
    });
  }

  /** The up messages of one device the watcher saw, of one type. */
  function seen<T extends UpMessage['type']>(simulator: LockerSimulator, type: T) {
    return up
      .filter((entry) => entry.deviceId === simulator.deviceId && entry.message.type === type)
      .map((entry) => entry.message as Extract<UpMessage, { type: T }>);
  }

  function acksSeen(simulator: LockerSimulator, commandId: string) {
    return seen(simulator, 'ack').filter((ack) => ack.command_id === commandId);
  }

  it('sends a heartbeat on start and every heartbeatMs', async () => {
    const simulator = await device({ heartbeatMs: 20 });
    await eventually(() => (seen(simulator, 'heartbeat').length >= 3 ? true : undefined), 'three heartbeats');
    assert.equal(typeof seen(simulator, 'heartbeat')[0]?.firmware, 'string');
  });

  it('opens a compartment once and acknowledges it, then reports the door', async () => {
    const simulator = await device();
    const open = command({ compartment: 2 });
    await send(simulator, open);
    await eventually(() => acksSeen(simulator, open.id)[0], 'the ack');
    assert.deepEqual(acksSeen(simulator, open.id), [{ type: 'ack', command_id: open.id, ok: true }]);
    assert.deepEqual(simulator.opened, [2]);
    // autoClose: opened, then closed with the compartment now occupied (it was empty).
    await eventually(() => (seen(simulator, 'door').length >= 2 ? true : undefined), 'the door events');
    assert.deepEqual(seen(simulator, 'door'), [
      { type: 'door', compartment: 2, state: 'opened' },
      { type: 'door', compartment: 2, state: 'closed', occupied: true },
    ]);
    assert.equal(simulator.occupied[2], true);
  });

  it('carries out a command delivered twice once, and acknowledges both with the same answer', async () => {
    const simulator = await device({ autoClose: false });
    const open = command({ compartment: 3 });
    await send(simulator, open);
    await send(simulator, open);
    await eventually(() => (acksSeen(simulator, open.id).length >= 2 ? true : undefined), 'two acks');
    assert.equal(simulator.received.length, 2);
    assert.deepEqual(simulator.opened, [3]);
    assert.deepEqual(acksSeen(simulator, open.id), [
      { type: 'ack', command_id: open.id, ok: true },
      { type: 'ack', command_id: open.id, ok: true },
    ]);
  });

  it('refuses an expired command by its clock and answers a redelivery the same even later', async () => {
    let now = new Date('2030-01-01T12:00:00Z');
    const simulator = await device({ clock: () => now });
    const stale = command({ expires_at: '2030-01-01T11:59:59Z' });
    await send(simulator, stale);
    await eventually(() => acksSeen(simulator, stale.id)[0], 'the ack');
    assert.deepEqual(acksSeen(simulator, stale.id), [
      { type: 'ack', command_id: stale.id, ok: false, error: 'expired' },
    ]);
    // Still valid by the device's clock; it is opened, and not reopened once the clock passes it.
    const fresh = command({ compartment: 4, expires_at: '2030-01-01T12:05:00Z' });
    await send(simulator, fresh);
    await eventually(() => acksSeen(simulator, fresh.id)[0], 'the ack');
    now = new Date('2030-01-01T13:00:00Z');
    await send(simulator, fresh);
    await eventually(() => (acksSeen(simulator, fresh.id).length >= 2 ? true : undefined), 'the second ack');
    assert.deepEqual(
      acksSeen(simulator, fresh.id).map((ack) => ack.ok),
      [true, true],
    );
    assert.deepEqual(simulator.opened, [4]);
  });

  it('answers a jammed compartment ok false without opening it', async () => {
    const simulator = await device({ jammed: new Set([1]) });
    const open = command({ compartment: 1 });
    await send(simulator, open);
    await eventually(() => acksSeen(simulator, open.id)[0], 'the ack');
    assert.deepEqual(acksSeen(simulator, open.id), [
      { type: 'ack', command_id: open.id, ok: false, error: 'jammed' },
    ]);
    assert.deepEqual(simulator.opened, []);
  });

  it('acknowledges a reboot and an open of a compartment it does not have', async () => {
    const simulator = await device();
    const reboot = command({ action: 'reboot', compartment: undefined });
    const missing = command({ compartment: 9 });
    await send(simulator, reboot);
    await send(simulator, missing);
    await eventually(() => acksSeen(simulator, missing.id)[0], 'the ack');
    await eventually(() => acksSeen(simulator, reboot.id)[0], 'the ack');
    assert.equal(acksSeen(simulator, reboot.id)[0]?.ok, true);
    assert.equal(acksSeen(simulator, missing.id)[0]?.ok, false);
    assert.deepEqual(simulator.opened, []);
  });

  it('records but neither carries out nor acknowledges commands when it does not respond', async () => {
    const simulator = await device({ respond: false });
    const open = command();
    await send(simulator, open);
    await simulator.waitFor((s) => s.received.length === 1, WAIT_MS);
    await send(simulator, open);
    await simulator.waitFor((s) => s.received.length === 2, WAIT_MS);
    // Had it answered, the ack would be published before this heartbeat on the same connection,
    // so the watcher would see it first.
    await simulator.heartbeat();
    await eventually(
      () => (seen(simulator, 'heartbeat').length >= 2 ? true : undefined),
      'a heartbeat sent after the commands',
    );
    assert.deepEqual(acksSeen(simulator, open.id), []);
    assert.deepEqual(simulator.acks(), []);
    assert.deepEqual(simulator.opened, []);
  });

  it('waitFor resolves on an opening and rejects when it times out', async () => {
    const simulator = await device({ autoClose: false });
    const waiting = simulator.waitFor((s) => s.opened.includes(2), WAIT_MS);
    await send(simulator, command({ compartment: 2 }));
    await waiting;
    await assert.rejects(
      simulator.waitFor((s) => s.opened.includes(3), 1),
      /condition not met/,
    );
  });
});

// The embedded broker: what a device meets in the service (authentication, exact subscriptions).
describe('LockerSimulator on the embedded broker', () => {
  const broker = new EmbeddedBroker<string>(
    {
      authenticate: async (password) => (password.startsWith('tmsdev_1_') ? password : null),
      maySubscribe: async (_principal, topic) => topic === 'tms/devices/1/commands',
      mayReceive: () => true,
    },
    { port: 0, host: '127.0.0.1' },
  );
  let url: string;

  before(async () => {
    await broker.start();
    url = `mqtt://127.0.0.1:${broker.port}`;
  });
  after(() => broker.stop());

  it('connects, receives commands the service publishes, and opens', async () => {
    const simulator = new LockerSimulator({ url, deviceId: 1, credential: CREDENTIAL(1), compartments: 2 });
    await simulator.start();
    try {
      assert.equal(await simulator.subscribeRaw('tms/devices/2/commands'), false);
      assert.equal(await simulator.subscribeRaw('tms/devices/+/commands'), false);
      const open = command({ compartment: 2 });
      await broker.publish(simulator.topics.commands(1), JSON.stringify(open));
      await simulator.waitFor((s) => s.acks(open.id).length === 1, WAIT_MS);
      assert.deepEqual(simulator.opened, [2]);
      assert.equal(simulator.acks(open.id)[0]?.ok, true);
    } finally {
      await simulator.stop();
    }
  });

  it('rejects start when the broker refuses the credential', async () => {
    const simulator = new LockerSimulator({ url, deviceId: 2, credential: CREDENTIAL(2), compartments: 1 });
    await assert.rejects(simulator.start());
    assert.equal(simulator.connected, false);
  });

  it('rejects start when the broker refuses the subscription', async () => {
    // Authenticated as device 1 but claiming to be device 3: its commands topic is refused.
    const simulator = new LockerSimulator({ url, deviceId: 3, credential: CREDENTIAL(1), compartments: 1 });
    await assert.rejects(simulator.start(), /refused the subscription/);
    assert.equal(simulator.connected, false);
  });
});
