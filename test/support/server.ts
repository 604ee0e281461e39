import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { type App, createApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { type Db, openDatabase } from '../../src/platform/db/database.ts';
import type { Ports } from '../../src/services.ts';
import { checkAnswers } from './answer-check.ts';
import { createTestDatabase, TEST_DATABASE_TIMEOUTS } from './database.ts';

export interface TestServer {
  baseUrl: string;
  app: App;
  db: Db;
  /** The pool under `db`: the outbox worker listens for notifications on it. */
  pool: pg.Pool;
  clock: ManualClock;
  /** The database's URL and the configuration the service runs with: another instance can share them. */
  databaseUrl: string;
  config: Config;
  close(): Promise<void>;
}

/** Another instance of the service on a test server's database, as a load balancer would have beside it. */
export interface TestInstance {
  baseUrl: string;
  app: App;
  close(): Promise<void>;
}

/** Request limits out of the way, for tests of everything else (test/limits.test.ts sets its own). */
export const UNLIMITED = {
  perTokenPerMinute: 1_000_000,
  perBusinessPerMinute: 10_000_000,
  perAddressPerMinute: 1_000_000,
  expensiveConcurrency: 1000,
  redisUrl: undefined,
  refusalDelayMs: 0,
};

/** The service's webhook settings with receivers on loopback allowed: tests receive deliveries on 127.0.0.1. */
export function loopbackWebhooks(): Config['webhooks'] {
  const webhooks = loadConfig({ LOG_LEVEL: 'silent' }).webhooks;
  return { ...webhooks, allow: { ...webhooks.allow, loopback: true } };
}

/**
 * The whole service on a database of its own, listening on a loopback port, with a clock the
 * test controls. Login and request limits are generous unless a test sets them.
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  ports: Partial<Ports> = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const config: Config = {
    // The tests run offline: their maps draw on a plain background unless a test sets tiles.
    ...loadConfig({ LOG_LEVEL: 'silent', MAP_TILES_URL: 'none' }),
    login: {
      attemptsPerAddressPerMinute: 10_000,
      failuresPerEmailPer15Minutes: 10_000,
      signUpsPerAddressPerHour: 10_000,
    },
    limits: UNLIMITED,
    // One search per route build, on the event loop: plans equal solveRoutes' for the same seed.
    solverThreads: 1,
    // Any free port: tests run beside each other and beside a local Mosquitto.
    mqtt: { ...loadConfig({}).mqtt, port: 0 },
    databaseTimeouts: TEST_DATABASE_TIMEOUTS,
    ...overrides,
    databaseUrl: database.url,
  };
  const handle = openDatabase(database.url, { timeouts: config.databaseTimeouts });
  const clock = new ManualClock(new Date('2026-11-02T09:30:00Z'));
  const app = await createApp(config, handle.db, clock, ports);
  checkAnswers(app.http, app.catalog);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.http.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    db: handle.db,
    pool: handle.pool,
    clock,
    databaseUrl: database.url,
    config,
    close: async () => {
      await app.http.close();
      await app.stopBackground();
      await handle.close();
      await database.drop();
    },
  };
}

/**
 * A second instance of the service on the same database, with its own pool, the same clock and
 * the given ports, its background work (the outbox worker, the cache listener) started.
 */
export async function startInstance(
  server: TestServer,
  ports: Partial<Ports> = {},
  settings: Partial<Config> = {},
): Promise<TestInstance> {
  const handle = openDatabase(server.databaseUrl);
  const app = await createApp({ ...server.config, ...settings }, handle.db, server.clock, ports);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.startBackground(handle.pool);
  const { port } = app.http.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    close: async () => {
      await app.http.close();
      await app.stopBackground();
      await handle.close();
    },
  };
}
