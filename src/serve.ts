import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { App } from './app.ts';
import { type Config, ConfigError } from './config.ts';
import { openServiceDatabase, type RunningDatabase } from './database.ts';
import type { DemoAddresses } from './demo/describe.ts';
import type { DemoCredentials } from './demo/seed.ts';
import type { DemoSeeder } from './demo/seeder.ts';
import { hasEmbeddedCluster } from './platform/db/embedded.ts';
import { announceRunningService } from './running-service.ts';

const SHUTDOWN_GRACE_MS = 15_000;
/** What a terminal, a process manager or a closed session sends to stop the service. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs the service until SIGINT, SIGTERM or SIGHUP: database (embedded unless DATABASE_URL),
 * migrations, demo data on a fresh embedded database, then HTTP. Shutdown stops accepting, lets
 * requests finish, closes the pool and stops the embedded server.
 *
 * The signals are ours from the first line: a signal during the start lets the step in hand
 * finish (a seed is one transaction) and then stops the database, instead of leaving the
 * embedded server running with nobody to stop it. Later signals while stopping are only noted:
 * `npm start` forwards the terminal's Ctrl-C a second time, and dying on it would orphan the server.
 */
export async function serve(config: Config): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let requested: NodeJS.Signals | undefined;
  let stopRunning: ((signal: NodeJS.Signals) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // Said nothing: `npm start` repeats every Ctrl-C, so a second one is the rule, not news.
    if (requested) return;
    requested = signal;
    if (stopRunning) stopRunning(signal);
    else say(`${signal} received: stopping once the step in hand ends`);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const release = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };

  // Before a database is started or seeded: its sign-in details would be for a service nobody reaches.
  // The port stays held until the service listens, so nothing (the embedded database included)
  // takes it during the start.
  let port: HeldPort;
  try {
    port = await holdPort(config.host, config.port);
  } catch (error) {
    release();
    throw error;
  }
  const releaseAll = async () => {
    await port.let();
    release();
  };
  if (requested) return releaseAll();
  // The service's code loads while the database server starts (two processes, two cores), once
  // the server's processes run: loading first would hold up their start.
  let databaseSpawned!: () => void;
  const code = new Promise<void>((resolve) => (databaseSpawned = resolve)).then(() =>
    Promise.all([
      import('./app.ts'),
      import('./demo/seeder.ts'),
      import('./demo/seed.ts'),
      import('./demo/describe.ts'),
    ]),
  );
  code.catch(() => {});
  // A first start seeds the demo on a thread of its own, started once the database server
  // answers: it loads its code while the database is migrated.
  const firstStart = !config.databaseUrl && !hasEmbeddedCluster(config.dataDir);
  let seeder: Promise<DemoSeeder> | undefined;
  /** The demo's thread, stopped: the start ends before the seed. */
  const abandon = async () => {
    await (await seeder?.catch(() => undefined))?.close();
  };
  const database = await openServiceDatabase(config, say, {
    spawned: databaseSpawned,
    up: () => {
      if (!firstStart) return;
      seeder = code.then(([, { DemoSeeder }]) => new DemoSeeder(config));
      seeder.catch(() => {});
    },
  }).catch(async (error: unknown) => {
    await abandon();
    await releaseAll();
    throw error;
  });
  // Stopping for good: the handlers stay, so a repeated signal never cuts the stop short.
  const stoppedEarly = async () => {
    if (!requested) return false;
    await abandon();
    await port.let();
    await database.shutdown();
    process.exitCode = 0;
    return true;
  };
  if (await stoppedEarly()) return;

  let app: App | undefined;
  // Said once the service listens, with the addresses it is reached at: every command in it works then.
  let demo: { credentials: DemoCredentials; file: string; fresh: boolean } | undefined;
  let describeDemo: typeof import('./demo/describe.ts').describeDemo | undefined;
  try {
    const [{ createApp }, { DemoSeeder }, seed, described] = await code;
    describeDemo = described.describeDemo;
    const password = seed.demoPassword(config.demoPassword);
    // The doors are assembled on this thread while the demo is seeded on its own.
    const seeding = seeder?.then((thread) => thread.seed(database.url, password));
    seeding?.catch(() => {});
    app = await createApp(config, database.db);
    let credentials = await seeding;
    if (database.embedded && !seeding) {
      // A cluster without a business is one whose first seed never finished (it is one transaction).
      if ((await app.services.accounts.countBusinesses(database.db)) === 0) {
        credentials = await new DemoSeeder(config).seed(database.url, password);
      } else {
        const saved = await described.readDemoCredentials(config.dataDir);
        if (saved) demo = { ...saved, fresh: false };
        else if (existsSync(path.join(config.dataDir, seed.DEMO_CREDENTIALS_FILE)))
          say(`Demo sign-in details are in ${path.join(config.dataDir, seed.DEMO_CREDENTIALS_FILE)}`);
      }
    }
    if (credentials) {
      const file = await seed.saveDemoCredentials(config.dataDir, credentials);
      demo = { credentials, file, fresh: true };
    }
    if (await stoppedEarly()) return;
    await port.let();
    await app.http.listen({ port: config.port, host: config.host });
    await app.startBackground(database.pool);
  } catch (error) {
    await abandon();
    await app?.stopBackground();
    await port.let();
    await database.shutdown();
    release();
    throw error;
  }
  const running = app;
  const where = reachedAt(config, running);
  // Commands run beside the service use its database (and `tms locker simulate` its broker)
  // rather than start their own.
  const forget = database.embeddedPort
    ? await announceRunningService(config.dataDir, database.embeddedPort, {
        ...(config.mqtt.url ? {} : { mqtt: where.brokerUrl }),
      })
    : async () => {};
  if (requested) return stopService(running, database, requested, forget);
  if (demo && describeDemo) {
    const secrets = demo.fresh ? { inline: true as const, savedIn: demo.file } : { file: demo.file };
    say(`\n${describeDemo(demo.credentials, where, secrets)}\n`);
  }
  say(`TMS listening on ${where.baseUrl} (API reference: ${where.baseUrl}/api/docs)`);
  say(
    config.mqtt.url
      ? `Live push (MQTT) published to ${running.mqtt.where()}`
      : `Live push (MQTT): ${where.brokerUrl}, and over WebSocket at ${where.baseUrl.replace(/^http/, 'ws')}${config.mqtt.wsPath}`,
  );
  stopRunning = (signal) => void stopService(running, database, signal, forget);
}

/**
 * Where the running service is reached, as commands must say it: PUBLIC_BASE_URL (its port filled
 * in when PORT=0 left it unknown), the embedded broker's actual port (MQTT_PORT=0 too) on an
 * address a client may dial (not 0.0.0.0), and the data directory when it is not the default.
 */
function reachedAt(config: Config, app: App): DemoAddresses {
  const listening = app.http.server.address();
  const port = listening && typeof listening === 'object' ? listening.port : config.port;
  const baseUrl = config.publicBaseUrl.replace(/:0$/, `:${port}`);
  const brokerUrl = config.mqtt.url
    ? app.mqtt.where()
    : app.mqtt.where().replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
  const dataDir = path.resolve(config.dataDir);
  return {
    baseUrl,
    brokerUrl,
    topicPrefix: config.mqtt.topicPrefix,
    ...(dataDir === path.resolve('.data') ? {} : { dataDir }),
  };
}

/** Stops accepting, lets requests and deliveries in hand finish, then closes the database. */
async function stopService(
  app: App,
  database: RunningDatabase,
  signal: NodeJS.Signals,
  forget: () => Promise<void>,
): Promise<void> {
  app.http.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    // The embedded server is stopped on exit (src/platform/db/embedded.ts).
    app.http.log.error('graceful shutdown timed out');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  try {
    await app.http.close();
    // Deliveries in hand finish; the rest wait in the outbox for the next start.
    await app.stopBackground();
    await forget();
    await database.shutdown();
    process.exitCode = 0;
  } catch (error) {
    app.http.log.error({ err: error }, 'shutdown failed');
    process.exitCode = 1;
  }
}

interface HeldPort {
  /** Lets the port go (again harmless), for the service itself to take. */
  let(): Promise<void>;
}

/**
 * Takes the port, refusing (naming PORT) one another process holds or this account may not take.
 * Until the service listens, whoever calls (a health check, a browser) is answered 503 at once:
 * a connection left unanswered would hang the caller, and would keep the port from being let go.
 */
async function holdPort(host: string, port: number): Promise<HeldPort> {
  if (port === 0) return { let: async () => {} };
  const holder = http.createServer((_request, reply) => {
    reply.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' });
    reply.end(JSON.stringify({ status: 'starting' }));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.once('error', reject);
      holder.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'is already in use by another process' : `cannot be taken (${code})`;
    throw new ConfigError(
      `PORT=${port}: ${host}:${port} ${why}. Stop that process, or set PORT to a free port.`,
    );
  }
  let closing: Promise<void> | undefined;
  return {
    let: () =>
      (closing ??= new Promise((resolve) => {
        holder.close(() => resolve());
        // A caller still connected (mid-request, or keeping its connection) must not hold the start.
        holder.closeAllConnections();
      })),
  };
}
