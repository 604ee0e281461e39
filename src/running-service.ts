import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';
import { migrateIfBehind, openServiceDatabase, type RunningDatabase } from './database.ts';
import { openDatabase } from './platform/db/database.ts';
import { embeddedServerUrl } from './platform/db/embedded.ts';

/**
 * A running `tms serve` on the embedded database leaves a note in its data directory saying where
 * that database listens, so the commands run beside it use it instead of starting their own
 * server. The note holds the service's pid and the port; the password stays in the data
 * directory's own file, which only this account can read.
 */
const NOTE = 'service.json';

interface ServiceNote {
  pid: number;
  port: number;
  /** Where devices reach the service's embedded MQTT broker (`tms locker simulate` connects there). */
  mqtt?: string;
}

/** Writes the note (mode 0600); the function returned removes it, when the service stops. */
export async function announceRunningService(
  dataDir: string,
  port: number,
  more: { mqtt?: string } = {},
): Promise<() => Promise<void>> {
  const file = path.join(dataDir, NOTE);
  const note: ServiceNote = { pid: process.pid, port, ...more };
  await writeFile(file, `${JSON.stringify(note)}\n`, { mode: 0o600 });
  return () => rm(file, { force: true });
}

/** The note of a service whose process still runs; a killed service leaves one behind. */
async function runningService(dataDir: string): Promise<ServiceNote | undefined> {
  const text = await readFile(path.join(dataDir, NOTE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const note = JSON.parse(text) as Partial<ServiceNote>;
    if (!Number.isInteger(note.pid) || !Number.isInteger(note.port)) return undefined;
    process.kill(note.pid!, 0);
    return {
      pid: note.pid!,
      port: note.port!,
      ...(typeof note.mqtt === 'string' ? { mqtt: note.mqtt } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The embedded MQTT broker of the service running on `dataDir`, when one runs there. */
export async function runningServiceBroker(dataDir: string): Promise<string | undefined> {
  return (await runningService(dataDir))?.mqtt;
}

/**
 * The database for one command: DATABASE_URL when set; else the running service's embedded
 * server when one answers; else the embedded server started for this command alone. It says on
 * `log` which one it uses, and migrates it as the service does at its start. A running service's
 * server stays up; one started here stops with the command.
 */
export async function openCommandDatabase(
  config: Config,
  log: (line: string) => void,
): Promise<RunningDatabase> {
  if (config.databaseUrl) {
    log(`Using DATABASE_URL (${new URL(config.databaseUrl).host})`);
    return openServiceDatabase(config, log);
  }
  const service = await runningService(config.dataDir);
  if (service) {
    const url = await embeddedServerUrl(config.dataDir, service.port);
    const handle = openDatabase(url, { timeouts: config.databaseTimeouts });
    // The pid may have been reused since: only our own server accepts this data directory's
    // password, and the connect timeout bounds a port now held by something else.
    const answers = await handle.pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    if (answers) {
      log(`Using the running service's database (embedded, port ${service.port}, ${config.dataDir})`);
      let migrationsApplied: string[];
      try {
        // A checkout newer than the running service may bring migrations of its own.
        migrationsApplied = await migrateIfBehind(handle, url, log);
      } catch (error) {
        await handle.close();
        throw error;
      }
      // The service's server stays up: the command only closes its own connections.
      return { ...handle, url, embedded: true, migrationsApplied, shutdown: () => handle.close() };
    }
    await handle.close();
  }
  log(`Starting the embedded database in ${config.dataDir}`);
  // The line above says it already, on this command's terms.
  return openServiceDatabase(config, (line) => {
    if (!line.startsWith('Embedded PostgreSQL')) log(line);
  });
}
