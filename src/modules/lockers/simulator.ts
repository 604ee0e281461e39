import { EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';
import {
  COMMAND_ACTIONS,
  type CommandAction,
  type CommandMessage,
  DeviceTopics,
  type UpMessage,
} from './protocol.ts';

/**
 * One simulated locker playing the device side of the protocol (protocol.ts) over MQTT: for tests,
 * the benchmark and `tms locker simulate`. It keeps the device's promises: each command id carried
 * out at most once, never after its `expires_at`, every command acknowledged.
 */

export interface LockerSimulatorOptions {
  url: string;
  deviceId: number;
  /** `tmsdev_<id>_<secret>`, sent as the MQTT password. */
  credential: string;
  compartments: number;
  topicPrefix?: string;
  heartbeatMs?: number;
  /** Decides whether a command has expired; a test's clock can move without waiting. */
  clock?: () => Date;
  /** Waited before each ack is published (a slow device). */
  ackDelayMs?: number;
  /**
   * false: a hung device. Commands are recorded in `received` but neither carried out nor
   * acknowledged.
   */
  respond?: boolean;
  /** Compartments whose door does not open: their `open` is acknowledged ok false, "jammed". */
  jammed?: Set<number>;
  /** After an opening, publish door opened then closed with the occupied flag flipped (a parcel in or out). */
  autoClose?: boolean;
  /** Sent in heartbeats. */
  firmware?: string;
}

export type AckMessage = Extract<UpMessage, { type: 'ack' }>;

/** What the simulator emits as things happen (besides `change`, after every one of them). */
export interface LockerSimulatorEvents {
  command: [CommandMessage];
  ack: [AckMessage];
  opened: [number];
  up: [UpMessage];
  change: [];
}

type Answer = { ok: true } | { ok: false; error: string };

export class LockerSimulator extends EventEmitter<LockerSimulatorEvents> {
  /** Every command delivered, duplicates included, in order of arrival. */
  readonly received: CommandMessage[] = [];
  /** Compartments actually opened, in order (a duplicate delivery adds nothing). */
  readonly opened: number[] = [];
  /** Every up message published by the simulator itself (not by publishRaw), in order. */
  readonly sent: UpMessage[] = [];
  /** Per compartment (1-based): whether something is inside. */
  readonly occupied: boolean[];
  readonly topics: DeviceTopics;

  private client: MqttClient | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** The answer given to each command id: a redelivery gets the same one, and nothing is redone. */
  private readonly answers = new Map<string, Answer>();
  private readonly options: Required<Omit<LockerSimulatorOptions, 'jammed'>> & { jammed: Set<number> };

  constructor(options: LockerSimulatorOptions) {
    super();
    if (!Number.isInteger(options.compartments) || options.compartments < 1 || options.compartments > 999)
      throw new RangeError('compartments must be a whole number from 1 to 999');
    // `??` rather than a spread: an option passed as undefined takes its default.
    this.options = {
      url: options.url,
      deviceId: options.deviceId,
      credential: options.credential,
      compartments: options.compartments,
      topicPrefix: options.topicPrefix ?? 'tms',
      heartbeatMs: options.heartbeatMs ?? 30_000,
      clock: options.clock ?? (() => new Date()),
      ackDelayMs: options.ackDelayMs ?? 0,
      respond: options.respond ?? true,
      autoClose: options.autoClose ?? true,
      firmware: options.firmware ?? 'tms-simulator/1',
      jammed: options.jammed ?? new Set(),
    };
    this.topics = new DeviceTopics(this.options.topicPrefix);
    this.occupied = Array.from({ length: options.compartments + 1 }, () => false);
    // Listeners of `change` are waitFor's, several at a time in a busy test.
    this.setMaxListeners(0);
  }

  get deviceId(): number {
    return this.options.deviceId;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /**
   * Connects, subscribes to the commands topic (QoS 1) and starts the heartbeats. Rejects when the
   * broker refuses the connection or the subscription (and leaves nothing connected).
   */
  async start(): Promise<void> {
    if (this.client) return;
    const { url, deviceId, credential } = this.options;
    // The client package loads for the simulator alone, not at every start of the service.
    const { default: mqtt } = await import('mqtt');
    // allowRetries false: a refused or unreachable broker rejects here instead of retrying for
    // ever; once connected, the client reconnects by itself (and resubscribes) like a real device.
    const client = await mqtt.connectAsync(
      url,
      {
        username: `device-${deviceId}`,
        password: credential,
        clientId: `tmsdev_${deviceId}_${Math.random().toString(16).slice(2, 10)}`,
        reconnectPeriod: 1_000,
        connectTimeout: 10_000,
        clean: true,
      },
      false,
    );
    // Errors after the start (a failed reconnect) must not crash the process: the client retries.
    client.on('error', () => {});
    client.on('message', (topic, payload) => {
      if (topic === this.topics.commands(deviceId)) this.onCommand(payload);
    });
    this.client = client;
    try {
      if (!(await this.subscribeRaw(this.topics.commands(deviceId))))
        throw new Error(`The broker refused the subscription to ${this.topics.commands(deviceId)}`);
      await this.heartbeat();
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.heartbeatTimer = setInterval(() => void this.heartbeat().catch(() => {}), this.options.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.endAsync(true);
  }

  heartbeat(): Promise<void> {
    return this.up({ type: 'heartbeat', firmware: this.options.firmware });
  }

  /** A door event; `occupied` given also becomes the compartment's state. */
  door(compartment: number, state: 'opened' | 'closed', occupied?: boolean): Promise<void> {
    if (occupied !== undefined && compartment >= 1 && compartment <= this.options.compartments)
      this.occupied[compartment] = occupied;
    return this.up(
      occupied === undefined
        ? { type: 'door', compartment, state }
        : { type: 'door', compartment, state, occupied },
    );
  }

  /** Anything on any topic, QoS 1: for tests of what the broker and service refuse. */
  async publishRaw(topic: string, payload: string | Buffer): Promise<void> {
    await this.connectedClient().publishAsync(topic, payload, { qos: 1 });
  }

  /** Subscribes (QoS 1); false when the broker refuses (SUBACK return code 128). */
  async subscribeRaw(topic: string): Promise<boolean> {
    try {
      const granted = await this.connectedClient().subscribeAsync(topic, { qos: 1 });
      return granted.length > 0 && granted.every((grant) => (grant.qos & 0x80) === 0);
    } catch (error) {
      // mqtt.js 5 rejects a SUBACK carrying a failure code (ErrorWithSubackPacket, the code not on
      // the error but in its packet's `granted`) instead of resolving with it.
      const granted = (error as { packet?: { granted?: unknown } }).packet?.granted;
      if (Array.isArray(granted) && granted.some((code) => typeof code === 'number' && (code & 0x80) !== 0))
        return false;
      throw error;
    }
  }

  /** Resolves once `predicate` holds (checked now and after every change), rejects after `timeoutMs`. */
  waitFor(predicate: (simulator: this) => boolean, timeoutMs = 10_000): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(this)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`condition not met within ${timeoutMs} ms (device ${this.deviceId})`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.off('change', check);
      };
      this.on('change', check);
    });
  }

  /** The acks this simulator sent, in order. */
  acks(commandId?: string): AckMessage[] {
    return this.sent.filter(
      (message): message is AckMessage =>
        message.type === 'ack' && (commandId === undefined || message.command_id === commandId),
    );
  }

  private connectedClient(): MqttClient {
    if (!this.client) throw new Error('The simulator is not started');
    return this.client;
  }

  private async up(message: UpMessage): Promise<void> {
    await this.connectedClient().publishAsync(
      this.topics.up(this.options.deviceId),
      JSON.stringify(message),
      {
        qos: 1,
      },
    );
    this.sent.push(message);
    if (message.type === 'ack') this.emit('ack', message);
    this.emit('up', message);
    this.emit('change');
  }

  private onCommand(payload: Buffer): void {
    const command = parseCommand(payload);
    // Without an id there is nothing to acknowledge: the message is dropped.
    if (!command) return;
    this.received.push(command);
    this.emit('command', command);
    this.emit('change');
    if (!this.options.respond) return;
    // Decided and recorded synchronously, before any await: a redelivery arriving meanwhile finds
    // the answer and is not carried out again.
    const known = this.answers.get(command.id);
    const answer = known ?? this.carryOut(command);
    if (!known) this.answers.set(command.id, answer);
    void this.acknowledge(command.id, answer, !known && answer.ok ? command : undefined).catch(() => {});
  }

  private carryOut(command: CommandMessage): Answer {
    const expires = Date.parse(command.expires_at);
    if (Number.isNaN(expires) || this.options.clock().getTime() >= expires)
      return { ok: false, error: 'expired' };
    if (!COMMAND_ACTIONS.includes(command.action)) return { ok: false, error: 'unknown action' };
    if (command.action === 'reboot') return { ok: true };
    const compartment = command.compartment;
    if (compartment === undefined || !Number.isInteger(compartment) || compartment < 1)
      return { ok: false, error: 'no compartment' };
    if (compartment > this.options.compartments) return { ok: false, error: 'no such compartment' };
    if (this.options.jammed.has(compartment)) return { ok: false, error: 'jammed' };
    this.opened.push(compartment);
    this.emit('opened', compartment);
    this.emit('change');
    return { ok: true };
  }

  private async acknowledge(commandId: string, answer: Answer, done?: CommandMessage): Promise<void> {
    if (this.options.ackDelayMs > 0) await delay(this.options.ackDelayMs);
    await this.up({ type: 'ack', command_id: commandId, ...answer });
    if (done?.action === 'open' && done.compartment !== undefined && this.options.autoClose) {
      await this.door(done.compartment, 'opened');
      await this.door(done.compartment, 'closed', !this.occupied[done.compartment]);
    }
  }
}

/** A command as received, or null when it has no id to answer (anything else is answered). */
function parseCommand(payload: Buffer): CommandMessage | null {
  try {
    const value = JSON.parse(payload.toString()) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null || typeof value.id !== 'string') return null;
    return {
      type: 'command',
      id: value.id,
      action: String(value.action) as CommandAction,
      ...(typeof value.compartment === 'number' ? { compartment: value.compartment } : {}),
      expires_at: String(value.expires_at),
    };
  } catch {
    return null;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
