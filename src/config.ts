import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { QueryBudgets } from './doors/graphql/limits.ts';
import type { DatabaseTimeouts } from './platform/db/database.ts';
import type { OutboundRules } from './platform/http/outbound.ts';
import type { JobQueueSettings } from './platform/jobs/queue.ts';
import type { RequestLimitSettings } from './platform/limits.ts';
import type { StorageSettings } from './platform/storage/index.ts';

/** OpenStreetMap's standard raster tiles (tile.openstreetmap.org, operations.osmfoundation.org/policies/tiles). */
export const OPENSTREETMAP_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const integer = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
};

const optionalUrl = (protocols: string[]) =>
  z
    .url({ protocol: new RegExp(`^(${protocols.join('|')})$`), error: `must be a ${protocols[0]}:// URL` })
    .optional();

export interface JobSettings extends JobQueueSettings {
  /** This instance takes jobs from the queue (JOBS=on); off: it only accepts them, others run them. */
  run: boolean;
  /** Seconds a worker may hold a job beyond the operation's budget before another takes it up. */
  expiryMarginSeconds: number;
}

/** Every setting the service reads from its environment, with the defaults of embedded mode. */
const environmentSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_READ_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_READ_MAX_LAG_MS: integer(100, 3_600_000).default(5_000),
  TMS_DATA_DIR: z.string().min(1).default('.data'),
  DOCUMENT_SIGNING_KEY: z.string().min(1).optional(),
  TMS_DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  PUBLIC_BASE_URL: optionalUrl(['http', 'https']),
  API_CONTACT_URL: optionalUrl(['http', 'https']),
  TOKEN_TTL_HOURS: integer(1, 24 * 366).default(24 * 7),
  BODY_LIMIT_BYTES: integer(1024, 100 * 1024 * 1024).default(1024 * 1024),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_TIMEOUT_MS: integer(100, 60_000).default(10_000),
  WEBHOOK_LOG_RETENTION_DAYS: integer(1, 3650).default(30),
  THIRD_PARTY_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  THIRD_PARTY_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  THIRD_PARTY_TIMEOUT_MS: integer(100, 60_000).default(10_000),
  THIRD_PARTY_CREDENTIAL_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  SMS_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  SMS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  SMS_TIMEOUT_MS: integer(100, 60_000).default(10_000),
  SMS_TWILIO_API_URL: optionalUrl(['https', 'http']),
  OUTBOX_LEASE_MS: integer(1000, 3_600_000).default(10_000),
  OUTBOX_CONCURRENCY: integer(1, 1000).default(16),
  OUTBOX_PER_BUSINESS: integer(1, 1000).default(4),
  JOBS: z.enum(['on', 'off']).default('on'),
  JOBS_CONCURRENCY: integer(1, 64).default(2),
  JOBS_POLL_MS: integer(500, 60_000).default(1000),
  JOBS_MAINTENANCE_SECONDS: integer(1, 3600).default(15),
  JOBS_EXPIRY_MARGIN_SECONDS: integer(1, 3600).default(60),
  JOBS_RETRY_LIMIT: integer(0, 100).default(3),
  SOLVER_THREADS: integer(1, 256).optional(),
  LABEL_READER_THREADS: integer(1, 256).optional(),
  LABEL_READER_QUEUE_LIMIT: integer(1, 10_000).optional(),
  IDENTITY_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  IDENTITY_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  IDENTITY_TIMEOUT_MS: integer(100, 60_000).default(5_000),
  DATABASE_TIMEOUT_MS: integer(100, 600_000).default(5_000),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  // In front of every key and channel: one topic level, no Redis pattern characters.
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be letters, digits, _ . or - (no /, : or wildcards)')
    .default('tms'),
  RATE_LIMIT_TOKEN_PER_MINUTE: integer(1, 1_000_000).default(1_200),
  RATE_LIMIT_BUSINESS_PER_MINUTE: integer(1, 10_000_000).default(6_000),
  RATE_LIMIT_ADDRESS_PER_MINUTE: integer(1, 1_000_000).default(1_200),
  EXPENSIVE_CONCURRENCY_PER_BUSINESS: integer(1, 1000).default(2),
  DATABASE_CONNECT_TIMEOUT_MS: integer(100, 60_000).default(3_000),
  GRAPHQL_ANONYMOUS_MAX_TOKENS: integer(200, 1_000_000).default(5_000),
  GRAPHQL_ANONYMOUS_MAX_DEPTH: integer(4, 100).default(8),
  GRAPHQL_ANONYMOUS_MAX_ALIASES: integer(0, 10_000).default(5),
  GRAPHQL_ANONYMOUS_MAX_COST: integer(100, 100_000_000).default(5_000),
  GRAPHQL_MAX_TOKENS: integer(200, 1_000_000).default(50_000),
  GRAPHQL_MAX_DEPTH: integer(4, 100).default(12),
  GRAPHQL_MAX_ALIASES: integer(0, 10_000).default(30),
  GRAPHQL_MAX_COST: integer(100, 100_000_000).default(20_000),
  GEOCODER_URL: optionalUrl(['https', 'http']),
  GEOCODER_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  GEOCODER_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  GEOCODER_TIMEOUT_MS: integer(100, 60_000).default(5_000),
  GEOCODER_MIN_INTERVAL_MS: integer(0, 60_000).default(1_000),
  OSRM_URL: optionalUrl(['https', 'http']),
  OSRM_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  OSRM_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  OSRM_TIMEOUT_MS: integer(100, 60_000).default(5_000),
  MQTT_URL: optionalUrl(['mqtt', 'mqtts', 'ws', 'wss']),
  // 1884 rather than MQTT's 1883, so the embedded broker starts beside a local Mosquitto.
  MQTT_PORT: integer(0, 65535).default(1884),
  MQTT_WS_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, 'must be a path such as /mqtt')
    .default('/mqtt'),
  MQTT_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'must be topic levels without wildcards')
    .default('tms'),
  MQTT_RETRY_MS: integer(100, 3_600_000).default(5_000),
  // Devices heartbeat every 30 s: three missed and a device is offline.
  LOCKER_OFFLINE_AFTER_MS: integer(1_000, 3_600_000).default(90_000),
  LOCKER_COMMAND_TTL_MS: integer(500, 300_000).default(15_000),
  S3_ENDPOINT: optionalUrl(['https', 'http']),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name (3 to 63 lowercase letters, digits, dots, dashes)',
    )
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  PROOF_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // OpenStreetMap's standard tiles by default (with their attribution, and each tile told the
  // site's origin, as their usage policy asks); `none`: a plain background, no request leaves.
  MAP_TILES_URL: z
    .union([
      z.literal('none'),
      z
        .string()
        .regex(
          /^https?:\/\/[^\s/?#]+\/\S*\{z\}\S*\{x\}\S*\{y\}\S*$/,
          'must be an http(s) tile URL template with {z}, {x} and {y}, or none',
        ),
    ])
    .default(OPENSTREETMAP_TILES),
  MAP_TILES_ATTRIBUTION: z.string().min(1).max(300).default('© OpenStreetMap contributors'),
  AGENT_PROVIDER: z.enum(['openai', 'anthropic']).optional(),
  AGENT_BASE_URL: optionalUrl(['https', 'http']),
  AGENT_API_KEY: z.string().min(1).optional(),
  AGENT_MODEL: z.string().min(1).max(200).optional(),
  AGENT_TIMEOUT_MS: integer(1000, 600_000).default(60_000),
  AGENT_DAILY_TURNS: integer(0, 1_000_000).default(200),
});

/** With S3_ENDPOINT, the bucket and its credentials are required too. */
const S3_REQUIRED = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const configurationSchema = environmentSchema.superRefine((e, check) => {
  // The embedded server has no replica: a read URL alone would read another database than the one written.
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    check.addIssue({
      code: 'custom',
      path: ['DATABASE_READ_URL'],
      message:
        'is only used with DATABASE_URL (a replica of that database); set DATABASE_URL too, or unset it',
    });
  }
  if (!e.S3_ENDPOINT) return;
  for (const name of S3_REQUIRED) {
    if (!e[name])
      check.addIssue({ code: 'custom', path: [name], message: 'is required when S3_ENDPOINT is set' });
  }
});

export interface Config {
  port: number;
  host: string;
  /** Requests a minute per token, business and anonymous address; heavy operations at once. */
  limits: RequestLimitSettings;
  /**
   * REDIS_URL: shared by every instance. The request limits count there (`limits.redisUrl`, the
   * same URL) and the embedded MQTT brokers share one message bus there (docs/chat.md).
   */
  redisUrl: string | undefined;
  /** REDIS_PREFIX: in front of every key the instances share there (the writers' marks of docs/read-replicas.md, ...). */
  redisPrefix: string;
  /** How much one GraphQL request may ask for, without and with a valid token (docs/graphql.md). */
  graphqlBudgets: QueryBudgets;
  /** How long a statement, a lock wait and a connection attempt may take: see DatabaseTimeouts. */
  databaseTimeouts: DatabaseTimeouts;
  /** External PostgreSQL; absent means the embedded server in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * A streaming replica of DATABASE_URL that reads tolerating some staleness go to, while its lag
   * stays under `maxLagMs` (docs/read-replicas.md); absent: every read goes to DATABASE_URL.
   */
  databaseRead: { url: string; maxLagMs: number } | undefined;
  dataDir: string;
  /** Ed25519 key signing document fingerprints (PKCS#8 PEM or base64 seed); absent: one kept in dataDir. */
  documentSigningKey: string | undefined;
  /** Where files (proofs of delivery) go: `<dataDir>/files`, or an S3-compatible bucket with S3_ENDPOINT. */
  storage: StorageSettings;
  /** HMAC key of the short-lived proof links; absent: one generated once and kept in dataDir. */
  proofLinkSecret: string | undefined;
  demoPassword: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  publicBaseUrl: string;
  /** Where callers of this deployment's API reach its operator (the OpenAPI contact); absent: the reference page. */
  apiContactUrl: string | undefined;
  tokenTtlHours: number;
  bodyLimitBytes: number;
  trustProxy: boolean;
  metricsToken: string | undefined;
  login: LoginLimits;
  /** Public booking (docs/reservations.md): bookings each client address may start an hour, each sending a code. */
  reservations: { bookingsPerAddressPerHour: number };
  webhooks: WebhookSettings;
  /** Third-party delivery providers: which addresses their connectors may call, and the key sealing their credentials. */
  thirdParty: ThirdPartySettings;
  /** Calls to a generic SMS provider's URL (docs/sms-marketing.md); its secret is sealed with the credential key. */
  sms: SmsProviderSettings;
  /** The public SMS subscribe form (docs/sms-marketing.md): requests each client address may make an hour. */
  smsSubscribe: { perAddressPerHour: number };
  /**
   * How long an outbox claim lasts without its worker's heartbeat (renewed every third of it while
   * the message is handled): a crashed instance's messages are taken over within it.
   */
  outboxLeaseMs: number;
  /** Outbox messages (webhook deliveries) an instance handles at once, and of one business at once. */
  outboxConcurrency: number;
  outboxPerBusiness: number;
  /** Operation calls run in the background (docs/jobs.md): whether this instance runs them, and how. */
  jobs: JobSettings;
  /**
   * Threads the route, packing and loading solvers run on (default: the cores); a route build
   * runs one search on each, and with 1 searches on the event loop instead (dispatch/route-search.ts).
   */
  solverThreads: number;
  /**
   * The label reader's threads (default: the cores but one, at least one) and how many readings
   * may wait for one (default: the reader's own) before 429 LABEL_READER_BUSY (docs/ocr.md).
   */
  labelReader: { threads: number; queueLimit: number | undefined };
  /** Reading identity providers' discovery documents and keys: which addresses, how long. */
  identity: OutboundRules;
  /** A public geocoder by URL (Nominatim's search API), asked after the business's own data; none by default. */
  geocoder: GeocoderSettings | undefined;
  /** An OSRM routing engine for road distances and times (its table service); none: straight lines. */
  osrm: (OutboundRules & { url: string }) | undefined;
  /** Live pushes (order chat): the embedded broker, or an external one at `url`. */
  mqtt: MqttSettings;
  /** The base map under the pages' maps: raster tiles by URL template; none: a plain background. */
  mapTiles: { url: string; attribution: string } | undefined;
  /** The operations AI agent's model provider (docs/agent.md) and the platform's daily turn cap. */
  agent: AgentSettings;
}

/** Which model the operations agent talks to; without a provider, turns answer 503. */
export interface AgentSettings {
  provider:
    | {
        protocol: 'openai' | 'anthropic';
        baseUrl?: string;
        apiKey?: string;
        model: string;
        timeoutMs: number;
      }
    | undefined;
  /** Turns a business may run a day (its local day), unless the platform admin set its own cap. */
  dailyTurns: number;
}

/** The model each protocol uses when AGENT_MODEL is not set. */
const DEFAULT_AGENT_MODEL = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5' } as const;

/** The MQTT channel of live pushes (docs/chat.md). */
export interface MqttSettings {
  /** An external broker to publish to; absent: the embedded broker. */
  url: string | undefined;
  /** TCP port of the embedded broker (0: any free port). */
  port: number;
  /** Path of MQTT over WebSocket on the HTTP server (embedded broker). */
  wsPath: string;
  /** First topic level of every topic the service publishes. */
  topicPrefix: string;
  /** How long a push waits before it is tried again while the broker is away. */
  retryMs: number;
  /**
   * With REDIS_URL: the first level of the Redis channels the embedded brokers share, so
   * several deployments (or test runs) on one Redis never hear each other.
   */
  redisPrefix: string;
  /** Lockers' devices (docs/lockers.md): offline after this long unheard; how long a command may wait for its answer. */
  lockerOfflineAfterMs: number;
  lockerCommandTtlMs: number;
}

/** A public geocoder: its search URL, which addresses it may be at, how long and how often it is asked. */
export interface GeocoderSettings extends OutboundRules {
  url: string;
  minIntervalMs: number;
}

/** Outbound webhook deliveries: which addresses they may reach, how long they wait, how long logs stay. */
export interface WebhookSettings extends OutboundRules {
  logRetentionDays: number;
}

export interface SmsProviderSettings extends OutboundRules {
  /** SMS_TWILIO_API_URL: Twilio's REST API (its own address unless a stand-in's). */
  twilioApiUrl: string;
}

export interface ThirdPartySettings extends OutboundRules {
  /** THIRD_PARTY_CREDENTIAL_KEY; absent: one generated once and kept in dataDir. */
  credentialKey: string | undefined;
}

/** Brute-force protection of sign-in (POST /v1/user/login, app sign-in) and of driver sign-up. */
export interface LoginLimits {
  attemptsPerAddressPerMinute: number;
  failuresPerEmailPer15Minutes: number;
  signUpsPerAddressPerHour: number;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configurationSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseRead: e.DATABASE_READ_URL
      ? { url: e.DATABASE_READ_URL, maxLagMs: e.DATABASE_READ_MAX_LAG_MS }
      : undefined,
    databaseTimeouts: { statementMs: e.DATABASE_TIMEOUT_MS, connectMs: e.DATABASE_CONNECT_TIMEOUT_MS },
    graphqlBudgets: {
      anonymous: {
        tokens: e.GRAPHQL_ANONYMOUS_MAX_TOKENS,
        depth: e.GRAPHQL_ANONYMOUS_MAX_DEPTH,
        aliases: e.GRAPHQL_ANONYMOUS_MAX_ALIASES,
        cost: e.GRAPHQL_ANONYMOUS_MAX_COST,
      },
      signedIn: {
        tokens: e.GRAPHQL_MAX_TOKENS,
        depth: e.GRAPHQL_MAX_DEPTH,
        aliases: e.GRAPHQL_MAX_ALIASES,
        cost: e.GRAPHQL_MAX_COST,
      },
    },
    limits: {
      perTokenPerMinute: e.RATE_LIMIT_TOKEN_PER_MINUTE,
      perBusinessPerMinute: e.RATE_LIMIT_BUSINESS_PER_MINUTE,
      perAddressPerMinute: e.RATE_LIMIT_ADDRESS_PER_MINUTE,
      expensiveConcurrency: e.EXPENSIVE_CONCURRENCY_PER_BUSINESS,
      redisUrl: e.REDIS_URL,
      redisKeyPrefix: e.REDIS_PREFIX,
      refusalDelayMs: 1000,
    },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    dataDir: path.resolve(e.TMS_DATA_DIR),
    documentSigningKey: e.DOCUMENT_SIGNING_KEY,
    storage: e.S3_ENDPOINT
      ? {
          kind: 's3',
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET!,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
        }
      : { kind: 'disk', directory: path.join(path.resolve(e.TMS_DATA_DIR), 'files') },
    proofLinkSecret: e.PROOF_LINK_SECRET,
    demoPassword: e.TMS_DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${displayHost(e.HOST)}:${e.PORT}`).replace(/\/+$/, ''),
    apiContactUrl: e.API_CONTACT_URL,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY === 'true',
    metricsToken: e.METRICS_TOKEN,
    login: {
      attemptsPerAddressPerMinute: 30,
      failuresPerEmailPer15Minutes: 10,
      signUpsPerAddressPerHour: 10,
    },
    reservations: { bookingsPerAddressPerHour: 20 },
    webhooks: {
      allow: {
        loopback: e.WEBHOOK_ALLOW_LOOPBACK === 'true',
        privateNetworks: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      },
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      logRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    },
    thirdParty: {
      allow: {
        loopback: e.THIRD_PARTY_ALLOW_LOOPBACK === 'true',
        privateNetworks: e.THIRD_PARTY_ALLOW_PRIVATE === 'true',
      },
      timeoutMs: e.THIRD_PARTY_TIMEOUT_MS,
      credentialKey: e.THIRD_PARTY_CREDENTIAL_KEY,
    },
    sms: {
      allow: { loopback: e.SMS_ALLOW_LOOPBACK === 'true', privateNetworks: e.SMS_ALLOW_PRIVATE === 'true' },
      timeoutMs: e.SMS_TIMEOUT_MS,
      twilioApiUrl: (e.SMS_TWILIO_API_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''),
    },
    smsSubscribe: { perAddressPerHour: 20 },
    outboxLeaseMs: e.OUTBOX_LEASE_MS,
    outboxConcurrency: e.OUTBOX_CONCURRENCY,
    outboxPerBusiness: e.OUTBOX_PER_BUSINESS,
    jobs: {
      run: e.JOBS === 'on',
      concurrency: e.JOBS_CONCURRENCY,
      pollingSeconds: e.JOBS_POLL_MS / 1000,
      maintenanceSeconds: e.JOBS_MAINTENANCE_SECONDS,
      expiryMarginSeconds: e.JOBS_EXPIRY_MARGIN_SECONDS,
      retryLimit: e.JOBS_RETRY_LIMIT,
    },
    solverThreads: e.SOLVER_THREADS ?? availableParallelism(),
    labelReader: {
      threads: e.LABEL_READER_THREADS ?? Math.max(1, availableParallelism() - 1),
      queueLimit: e.LABEL_READER_QUEUE_LIMIT,
    },
    identity: {
      allow: {
        loopback: e.IDENTITY_ALLOW_LOOPBACK === 'true',
        privateNetworks: e.IDENTITY_ALLOW_PRIVATE === 'true',
      },
      timeoutMs: e.IDENTITY_TIMEOUT_MS,
    },
    geocoder: e.GEOCODER_URL
      ? {
          url: e.GEOCODER_URL,
          allow: {
            loopback: e.GEOCODER_ALLOW_LOOPBACK === 'true',
            privateNetworks: e.GEOCODER_ALLOW_PRIVATE === 'true',
          },
          timeoutMs: e.GEOCODER_TIMEOUT_MS,
          minIntervalMs: e.GEOCODER_MIN_INTERVAL_MS,
        }
      : undefined,
    osrm: e.OSRM_URL
      ? {
          url: e.OSRM_URL,
          allow: {
            loopback: e.OSRM_ALLOW_LOOPBACK === 'true',
            privateNetworks: e.OSRM_ALLOW_PRIVATE === 'true',
          },
          timeoutMs: e.OSRM_TIMEOUT_MS,
        }
      : undefined,
    mqtt: {
      url: e.MQTT_URL,
      port: e.MQTT_PORT,
      wsPath: e.MQTT_WS_PATH,
      topicPrefix: e.MQTT_TOPIC_PREFIX,
      retryMs: e.MQTT_RETRY_MS,
      redisPrefix: `${e.REDIS_PREFIX}:mqtt`,
      lockerOfflineAfterMs: e.LOCKER_OFFLINE_AFTER_MS,
      lockerCommandTtlMs: e.LOCKER_COMMAND_TTL_MS,
    },
    mapTiles:
      e.MAP_TILES_URL === 'none' ? undefined : { url: e.MAP_TILES_URL, attribution: e.MAP_TILES_ATTRIBUTION },
    agent: {
      provider: e.AGENT_PROVIDER
        ? {
            protocol: e.AGENT_PROVIDER,
            baseUrl: e.AGENT_BASE_URL,
            apiKey: e.AGENT_API_KEY,
            model: e.AGENT_MODEL ?? DEFAULT_AGENT_MODEL[e.AGENT_PROVIDER],
            timeoutMs: e.AGENT_TIMEOUT_MS,
          }
        : undefined,
      dailyTurns: e.AGENT_DAILY_TURNS,
    },
  };
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
