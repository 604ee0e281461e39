import type { IncomingMessage } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { MqttClient } from 'mqtt';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { RedisBus } from './redis-bus.ts';

/**
 * Where the service publishes its live pushes: the embedded broker, or an external one
 * (MQTT_URL). `publish` rejects while the broker cannot take the message (stopped, or the
 * connection to the external broker is down): the outbox then tries again later.
 */
export interface MqttPublisher {
  /**
   * `note` goes with the message to the policies of the brokers that deliver it (every instance
   * with REDIS_URL), for their `mayReceive`, and never to a client; an external broker has no use for it.
   */
  publish(topic: string, payload: string, note?: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Where clients reach the broker, for the start-up message (no password). */
  where(): string;
}

/**
 * Who may do what on the embedded broker, answered by the module whose topics these are. The
 * principal is what `authenticate` made of the client's password (its bearer token).
 */
export interface BrokerPolicy<P> {
  authenticate(password: string): Promise<P | null>;
  /** Asked at SUBSCRIBE: exact topics only (a wildcard is refused before this is asked). */
  maySubscribe(principal: P, topic: string): Promise<boolean>;
  /**
   * Asked for every message about to reach a subscriber (synchronously, as aedes asks): lets a
   * subscription that was fine when made stop once its holder lost access. `note` is the one
   * the service published the message with: the instance delivering it may not be the one that
   * published it, so what decides must come with the message.
   */
  mayReceive(principal: P, topic: string, note: string | undefined): boolean;
  /** Told when a client authenticated (a device is heard). */
  connected?(principal: P): Promise<void>;
  /** Whether the service takes this client's PUBLISH on this topic (devices' own up topic); default none. */
  mayPublish?(principal: P, topic: string): boolean;
  /** A PUBLISH the service took: handed over, and sent on to no subscriber. */
  published?(principal: P, topic: string, payload: Buffer): Promise<void>;
  disconnected?(principal: P): Promise<void>;
}

/** A policy for the passwords it claims (device credentials by their prefix). */
export type ClaimingPolicy<P> = BrokerPolicy<P> & { claims(password: string): boolean };

/**
 * One broker, several kinds of clients: each password goes to the first policy that claims it,
 * else to `otherwise` (user tokens), and that policy answers for the client from then on.
 */
export type Routed = { policy: BrokerPolicy<unknown>; principal: unknown };

export function routedPolicy(
  // biome-ignore lint/suspicious/noExplicitAny: each policy keeps its own principal type, hidden behind Routed
  claiming: ReadonlyArray<ClaimingPolicy<any>>,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  otherwise: BrokerPolicy<any>,
): BrokerPolicy<Routed> {
  return {
    authenticate: async (password) => {
      const policy = claiming.find((candidate) => candidate.claims(password)) ?? otherwise;
      const principal = await policy.authenticate(password);
      return principal === null ? null : { policy, principal };
    },
    connected: async (routed) => routed.policy.connected?.(routed.principal),
    maySubscribe: (routed, topic) => routed.policy.maySubscribe(routed.principal, topic),
    mayReceive: (routed, topic, note) => routed.policy.mayReceive(routed.principal, topic, note),
    mayPublish: (routed, topic) => routed.policy.mayPublish?.(routed.principal, topic) ?? false,
    published: async (routed, topic, payload) => routed.policy.published?.(routed.principal, topic, payload),
    disconnected: async (routed) => routed.policy.disconnected?.(routed.principal),
  };
}

export interface EmbeddedBrokerOptions {
  /** TCP port of the MQTT listener; 0 picks a free one (tests). */
  port: number;
  host: string;
  /** How often connected clients' tokens are checked again (a token revoked or expired since). */
  recheckMs?: number;
  /**
   * Told when the policy failed to take a client's connection, message or departure (the
   * database away): nothing answers the client for it, so this is where it is seen (logged).
   */
  onError?: (error: unknown, what: 'connected' | 'published' | 'disconnected') => void;
  /**
   * REDIS_URL: the brokers of every instance share one message bus there (channels under
   * `prefix`), so a publish on any instance reaches the subscribers of all. Without it, this
   * instance's subscribers only.
   */
  redis?: { url: string; prefix: string };
  /** Told when Redis stops answering (logged): publishing fails meanwhile. */
  onBusDown?: (error: unknown) => void;
}

/**
 * Where a client's own PUBLISH is sent instead of its topic: no subscription to it is ever
 * granted (only the policy's exact topics are), so it reaches no one and nothing is retained.
 */
const REFUSED_TOPIC = '$tms/refused-publish';

/** The user property carrying a publish's note to the delivering brokers' policies (stripped before any client). */
const NOTE_PROPERTY = 'tms-note';

/** How long the service's publish waits for Redis before it fails (the outbox tries again later). */
const BUS_TIMEOUT_MS = 5_000;

/** The broker inside the service (aedes): TCP, and MQTT over WebSocket through the HTTP server. */
export class EmbeddedBroker<P> implements MqttPublisher {
  private broker: Aedes | undefined;
  private tcp: Server | undefined;
  private readonly principals = new WeakMap<Client, P>();
  /** How each connected client authenticates again (its token, or its page session), while it stays connected. */
  private readonly passwords = new Map<Client, () => Promise<P | null>>();
  /** WebSocket connections a door authenticated itself (a page session): who they are, asked again at CONNECT. */
  private readonly bound = new WeakMap<IncomingMessage, () => Promise<P | null>>();
  private recheckTimer: NodeJS.Timeout | undefined;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly connections = new Set<Socket>();

  constructor(
    private readonly policy: BrokerPolicy<P>,
    private readonly options: EmbeddedBrokerOptions,
  ) {}

  /** The TCP port the broker listens on, once started. */
  get port(): number | undefined {
    return (this.tcp?.address() as AddressInfo | null)?.port;
  }

  where(): string {
    return `mqtt://${this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host}:${this.port ?? this.options.port}`;
  }

  async start(): Promise<void> {
    if (this.broker) return;
    const redis = this.options.redis;
    const bus =
      redis &&
      new RedisBus({
        url: redis.url,
        prefix: redis.prefix,
        timeoutMs: BUS_TIMEOUT_MS,
        localTopics: new Set([REFUSED_TOPIC]),
        onDown: this.options.onBusDown,
      });
    // The broker announces itself on the bus as it starts: once it is there, if it comes soon.
    await bus?.connected(BUS_TIMEOUT_MS);
    const broker = await Aedes.createBroker({
      ...(bus && {
        mq: bus,
        // The channel prefix is one more topic level, within the matcher's ceiling of 100.
        maxTopicLevels: 99,
      }),
      authenticate: (client, _username, password, done) => {
        const refuse = () => {
          const error = new Error('Bad username or password') as AuthenticateError;
          error.returnCode = 4;
          done(error, false);
        };
        // A connection a door authenticated (a page session's cookie) is that session's, whatever
        // its password; any other needs its bearer token as the password.
        const req = (client as Client & { req?: IncomingMessage }).req;
        const bound = req && this.bound.get(req);
        const who =
          bound ?? (password && password.length > 0 ? this.byPassword(password.toString('utf8')) : null);
        if (!who) return refuse();
        who().then(
          (principal) => {
            if (principal === null) return refuse();
            this.principals.set(client, principal);
            this.passwords.set(client, who);
            // Acknowledged once the service has taken the connection, so a device told it is
            // connected is also seen connected; a failure is told and the device let in anyway.
            // A client gone meanwhile is never registered, so aedes tells no departure: told here.
            const taken = this.policy.connected?.(principal) ?? Promise.resolve();
            taken
              .catch((error) => this.options.onError?.(error, 'connected'))
              .finally(() => {
                if (client.closed) this.departed(client);
                done(null, true);
              });
          },
          () => refuse(),
        );
      },
      // Users' clients only listen: every message is posted through the API, which publishes it.
      // A device's PUBLISH on its own up topic is handed to the service (and to no subscriber).
      // Any other PUBLISH (or will) is acknowledged as usual and goes nowhere, as MQTT 3.1.1 lets
      // a server refuse one (MQTT-3.3.5-2): failing it instead makes aedes drop the connection,
      // and the client would miss the pushes that follow. aedes 1.2.0 speaks no MQTT 5, so there
      // is no PUBACK reason code to send.
      authorizePublish: (client, packet, callback) => {
        const principal = client ? this.principals.get(client) : undefined;
        if (principal !== undefined && this.policy.mayPublish?.(principal, packet.topic)) {
          // A message the service could not take is lost as a device's message on a dropped
          // connection would be (it publishes again); the failure is told, not swallowed.
          this.policy
            .published?.(principal, packet.topic, packet.payload as Buffer)
            .catch((error) => this.options.onError?.(error, 'published'));
        }
        packet.topic = REFUSED_TOPIC;
        packet.payload = Buffer.alloc(0);
        packet.retain = false;
        callback(null);
      },
      authorizeSubscribe: (client, subscription, callback) => {
        const principal = this.principals.get(client);
        if (principal === undefined || /[+#]/.test(subscription.topic)) return callback(null, null);
        this.policy.maySubscribe(principal, subscription.topic).then(
          (allowed) => callback(null, allowed ? subscription : null),
          () => callback(null, null),
        );
      },
      authorizeForward: (client, packet) => {
        const principal = this.principals.get(client);
        if (principal === undefined) return null;
        const note = packet.properties?.userProperties?.[NOTE_PROPERTY];
        if (!this.policy.mayReceive(principal, packet.topic, typeof note === 'string' ? note : undefined))
          return null;
        if (!packet.properties) return packet;
        const { properties: _note, ...bare } = packet;
        return bare;
      },
    });
    const tcp = createServer((socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
      broker.handle(socket);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(this.options.port, this.options.host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      // The port is taken: no broker left behind (its timers would keep the process alive).
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      throw error;
    }
    broker.on('clientDisconnect', (client) => this.departed(client));
    this.broker = broker;
    this.tcp = tcp;
    this.recheckTimer = setInterval(() => void this.recheck(), this.options.recheckMs ?? 60_000);
    this.recheckTimer.unref();
  }

  /**
   * Disconnects the clients whose token no longer authenticates (signed out, revoked, expired):
   * a session outlives no token. Runs every `recheckMs`.
   */
  async recheck(): Promise<void> {
    await Promise.all(
      [...this.passwords].map(async ([client, who]) => {
        const principal = await who().catch(() => undefined);
        // undefined: the check itself failed (the database is away); the client keeps its session.
        if (principal !== null) return;
        this.passwords.delete(client);
        client.close();
      }),
    );
  }

  private byPassword(password: string): () => Promise<P | null> {
    return () => this.policy.authenticate(password);
  }

  /** A client's connection ended: told once to the policy, whichever way it ended. */
  private departed(client: Client): void {
    this.passwords.delete(client);
    const principal = this.principals.get(client);
    if (principal === undefined) return;
    this.principals.delete(client);
    this.policy.disconnected?.(principal).catch((error) => this.options.onError?.(error, 'disconnected'));
  }

  /** Takes an HTTP upgrade request on the WebSocket path (the HTTP server hands it over). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const broker = this.broker;
    if (!broker) {
      socket.destroy();
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      broker.handle(createWebSocketStream(ws), request);
    });
  }

  /**
   * Takes an HTTP upgrade a door has authenticated itself (a page's session cookie): `who` answers
   * the connection's principal at CONNECT and at every recheck (null: refused, or disconnected),
   * so no bearer token ever reaches the browser. The client's password is not read.
   */
  upgradeAs(request: IncomingMessage, socket: Duplex, head: Buffer, who: () => Promise<P | null>): void {
    this.bound.set(request, who);
    this.upgrade(request, socket, head);
  }

  publish(topic: string, payload: string, note?: string): Promise<void> {
    const broker = this.broker;
    if (!broker || broker.closed) return Promise.reject(new Error('The embedded MQTT broker is not running'));
    return new Promise((resolve, reject) =>
      broker.publish(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from(payload),
          qos: 1,
          retain: false,
          dup: false,
          // aedes keeps a packet's properties through the bus and its queues; they reach no
          // client (authorizeForward takes them off, and aedes speaks no MQTT 5 anyway).
          ...(note !== undefined && { properties: { userProperties: { [NOTE_PROPERTY]: note } } }),
        },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }

  async stop(): Promise<void> {
    const broker = this.broker;
    const tcp = this.tcp;
    this.broker = undefined;
    this.tcp = undefined;
    clearInterval(this.recheckTimer);
    this.passwords.clear();
    // The broker first: it ends its clients' connections, which the TCP server waits for.
    if (broker) await new Promise<void>((resolve) => broker.close(() => resolve()));
    for (const ws of this.sockets.clients) ws.terminate();
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    if (tcp) await new Promise<void>((resolve) => tcp.close(() => resolve()));
  }
}

/**
 * An external broker (Mosquitto, ...) at MQTT_URL: one client connection of the service's own,
 * reconnecting on its own; the broker enforces who may subscribe (docs/chat.md).
 */
export class ExternalBroker implements MqttPublisher {
  private client: MqttClient | undefined;

  constructor(
    private readonly url: string,
    private readonly options: {
      timeoutMs: number;
      /** A subscription of the service's own (devices' messages), made again on every reconnection. */
      listen?: { topic: string; receive(topic: string, payload: Buffer): void };
    } = { timeoutMs: 5_000 },
  ) {}

  where(): string {
    return redacted(this.url);
  }

  async start(): Promise<void> {
    // The client package loads only for a service that names an outside broker.
    const { default: mqtt } = await import('mqtt');
    if (this.client) return;
    // Connecting never blocks the start: while the broker is away, pushes wait in the outbox.
    this.client = mqtt.connect(this.url, {
      clientId: `tms_${process.pid}_${Math.random().toString(16).slice(2, 10)}`,
      reconnectPeriod: 1_000,
      connectTimeout: this.options.timeoutMs,
    });
    this.client.on('error', () => {});
    const listen = this.options.listen;
    if (listen) {
      const client = this.client;
      client.on('connect', () => void client.subscribeAsync(listen.topic, { qos: 1 }).catch(() => {}));
      client.on('message', (topic, payload) => listen.receive(topic, payload));
    }
  }

  async publish(topic: string, payload: string): Promise<void> {
    const client = this.client;
    if (!client?.connected) throw new Error(`The MQTT broker at ${redacted(this.url)} is not connected`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('The MQTT broker did not acknowledge in time')),
        this.options.timeoutMs,
      );
    });
    try {
      await Promise.race([client.publishAsync(topic, payload, { qos: 1 }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.endAsync(true);
  }
}

/** A broker URL without its password, for messages and logs. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    return parsed.toString();
  } catch {
    return 'MQTT_URL';
  }
}
