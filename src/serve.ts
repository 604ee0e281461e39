import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createApp, createServices } from './app.ts';
import { type Config, ConfigError } from './config.ts';
import { openServiceDatabase } from './database.ts';
import { demoPassword, describeDemoCredentials, saveDemoCredentials, seedDemo } from './demo/seed.ts';
import { systemClock } from './platform/clock.ts';
import { announceRunningService } from './running-service.ts';

const SHUTDOWN_GRACE_MS = 15_000;

/**
 * Runs the service until SIGTERM or SIGINT: database (embedded unless DATABASE_URL), migrations,
 * demo data on a fresh embedded database, then HTTP. Shutdown stops accepting, lets requests
 * finish, closes the pool and stops the embedded server.
 */
export async function serve(config: Config): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  // Before a database is started or seeded: its sign-in details would be for a service nobody reaches.
  await requireFreePort(config.host, config.port);
  const database = await openServiceDatabase(config, say);

  if (database.embedded) {
    const services = createServices(config, systemClock);
    if ((await services.accounts.countBusinesses(database.db)) === 0) {
      const credentials = await seedDemo(database.db, services, demoPassword(config.demoPassword));
      if (credentials) {
        const file = await saveDemoCredentials(config.dataDir, credentials);
        say(`\n${describeDemoCredentials(credentials, config.publicBaseUrl)}\n(saved in ${file})\n`);
      }
    } else if (existsSync(path.join(config.dataDir, 'demo-credentials.json'))) {
      say(`Demo sign-in details are in ${path.join(config.dataDir, 'demo-credentials.json')}`);
    }
  }

  const app = await createApp(config, database.db);
  try {
    await app.http.listen({ port: config.port, host: config.host });
    await app.startBackground(database.pool);
  } catch (error) {
    await app.stopBackground();
    await database.shutdown();
    throw error;
  }
  // Commands run beside the service use its database rather than start their own.
  const forget = database.embeddedPort
    ? await announceRunningService(config.dataDir, database.embeddedPort)
    : async () => {};
  say(`TMS listening on ${config.publicBaseUrl} (API reference: ${config.publicBaseUrl}/api/docs)`);
  say(
    config.mqtt.url
      ? `Live push (MQTT) published to ${app.mqtt.where()}`
      : `Live push (MQTT): ${app.mqtt.where()}, and over WebSocket at ${config.publicBaseUrl.replace(/^http/, 'ws')}${config.mqtt.wsPath}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
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
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Refuses, naming PORT, a port another process holds (or this account may not take). */
async function requireFreePort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'is already in use by another process' : `cannot be taken (${code})`;
    throw new ConfigError(
      `PORT=${port}: ${host}:${port} ${why}. Stop that process, or set PORT to a free port.`,
    );
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}
