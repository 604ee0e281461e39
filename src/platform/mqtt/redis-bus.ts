import type { Redis } from 'ioredis';
import type MQEmitterRedis from 'mqemitter-redis';
import { loadPackage } from '../packages.ts';

/**
 * mqemitter-redis also exports, untyped, an emitter that puts a prefix before every Redis channel
 * (`<prefix><topic>`, patterns included); the listeners still see the topics without it.
 */
type MQEmitterRedisPrefix = new (
  prefix: string,
  options: MQEmitterRedis.MQEmitterOptions,
) => MQEmitterRedis.MQEmitterRedis & { state: NodeJS.EventEmitter };

type Message = MQEmitterRedis.Message;
type Listener = (message: Message, done: () => void) => void;

export interface RedisBusOptions {
  /** REDIS_URL. */
  url: string;
  /** First level of every channel (REDIS_PREFIX:mqtt): one namespace per deployment or test run. */
  prefix: string;
  /** How long a publish waits for Redis before it fails. */
  timeoutMs: number;
  /** Topics no instance but this one has anything for (a client's refused PUBLISH): never sent to Redis. */
  localTopics: ReadonlySet<string>;
  /** Told once when Redis stops answering (again after each time it came back). */
  onDown?: (error: unknown) => void;
}

/**
 * The message bus of the embedded broker (aedes's `mq`) shared with the other instances' brokers
 * through Redis publish/subscribe, so a message published on any instance reaches the
 * subscribers of every instance. Nothing is stored in Redis: a message sent while an instance's
 * subscription connection is away does not reach that instance's clients.
 */
export class RedisBus {
  private readonly publishing: Redis;
  private readonly subscribing: Redis;
  private readonly emitter: MQEmitterRedis.MQEmitterRedis;
  private closed = false;
  private down = false;

  constructor(private readonly options: RedisBusOptions) {
    const { Redis } = loadPackage<typeof import('ioredis')>('ioredis');
    const { MQEmitterRedisPrefix } = loadPackage<{ MQEmitterRedisPrefix: MQEmitterRedisPrefix }>(
      'mqemitter-redis',
    );
    // A publish while Redis is away fails at once, and one it does not answer within timeoutMs,
    // instead of waiting in a queue: the outbox tries the push again later.
    this.publishing = new Redis(options.url, {
      enableOfflineQueue: false,
      commandTimeout: options.timeoutMs,
      maxRetriesPerRequest: 1,
    });
    // Subscriptions wait for Redis instead, however long: a failed one would leave its topic deaf
    // on this instance, and those made are made again on every reconnection. No ready check: its
    // INFO, refused on a connection already subscribing, would drop the connection and with it
    // a subscription made meanwhile (Redis takes subscriptions while loading anyway).
    this.subscribing = new Redis(options.url, { maxRetriesPerRequest: null, enableReadyCheck: false });
    const emitter = new MQEmitterRedisPrefix(`${options.prefix}/`, {
      pubConn: this.publishing,
      subConn: this.subscribing,
      // As aedes's own in-memory emitter: `a/#` also matches `a` [MQTT-4.7.1-3].
      matchEmptyLevels: true,
    });
    // Without a listener, the connections' errors would be thrown out of the event loop.
    emitter.state.on('error', (error: unknown) => this.wentDown(error));
    for (const connection of [this.publishing, this.subscribing])
      connection.on('ready', () => (this.down = false));
    this.emitter = emitter;
  }

  /**
   * Resolves once both connections are up, or after `timeoutMs` whatever they are: a service
   * starting while Redis is away starts anyway, publishing failing until Redis answers.
   */
  async connected(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const ready = (connection: Redis) =>
      connection.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => connection.once('ready', () => resolve()));
    await Promise.race([
      Promise.all([ready(this.publishing), ready(this.subscribing)]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  private wentDown(error: unknown): void {
    if (this.closed || this.down) return;
    this.down = true;
    this.options.onDown?.(error);
  }

  on(topic: string, listener: Listener, done?: () => void): this {
    this.emitter.on(topic, listener, done);
    return this;
  }

  removeListener(topic: string, listener: Listener, done?: () => void): this {
    this.emitter.removeListener(topic, listener, done);
    return this;
  }

  emit(message: Message, done?: (error?: Error) => void): void {
    // Subscribed to nowhere, so delivered to no one: not worth a trip to Redis, nor a failure
    // while Redis is away (the device that sent it keeps its connection and its messages).
    if (this.options.localTopics.has(message.topic)) return void done?.();
    if (this.closed) return void done?.(new Error('The MQTT message bus is closed'));
    this.emitter.emit(message, (error) => {
      if (error) this.wentDown(error);
      done?.(error);
    });
  }

  /** Ends both Redis connections, whether or not Redis answers: nothing is left open. */
  close(done?: () => void): void {
    if (this.closed) return void done?.();
    this.closed = true;
    void Promise.all([this.publishing, this.subscribing].map(end)).then(() => done?.());
  }
}

async function end(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    const ended = new Promise<void>((resolve) => connection.once('end', () => resolve()));
    const quit = await connection.quit().then(
      () => true,
      () => false,
    );
    if (quit) return ended;
  }
  // Connecting or waiting to reconnect: no reply to wait for.
  connection.disconnect();
}
