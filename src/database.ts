import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './platform/db/database.ts';
import { startEmbeddedPostgres } from './platform/db/embedded.ts';
import { isMigrated, migrateToLatest } from './platform/db/migrate.ts';

export interface RunningDatabase extends DatabaseHandle {
  /** True when the service runs its own embedded PostgreSQL server. */
  embedded: boolean;
  /** The embedded server's port, told to the commands run beside the service. */
  embeddedPort?: number;
  /** Where it is reached (the embedded server's address, or DATABASE_URL). */
  url: string;
  /** The migrations applied while opening it, in order: none when it was up to date. */
  migrationsApplied: string[];
  /** Closes the pool, then stops the embedded server if there is one. */
  shutdown(): Promise<void>;
}

/** Opens the configured database (starting the embedded server when no DATABASE_URL is set) and migrates it. */
export async function openServiceDatabase(
  config: Config,
  log: (line: string) => void,
  moments: {
    /** Once the database's own processes work (at once with DATABASE_URL), and in any case before this answers. */
    spawned?: () => void;
    /** Once the server answers, before the migrations. */
    up?: () => void;
  } = {},
): Promise<RunningDatabase> {
  const spawned = moments.spawned ?? (() => {});
  if (config.databaseUrl) spawned();
  const server = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ directory: config.dataDir, spawned }).finally(spawned);
  if (server) log(`Embedded PostgreSQL ${server.created ? 'created and ' : ''}started in ${config.dataDir}`);
  moments.up?.();
  const url = config.databaseUrl ?? server!.url;
  const handle = openDatabase(url, { timeouts: config.databaseTimeouts });
  let migrationsApplied: string[];
  try {
    migrationsApplied = await migrateIfBehind(handle, url, log);
  } catch (error) {
    await handle.close();
    await server?.stop();
    throw error;
  }
  return {
    ...handle,
    url,
    embedded: server !== undefined,
    migrationsApplied,
    embeddedPort: server ? Number(new URL(server.url).port) : undefined,
    shutdown: async () => {
      await handle.close();
      await server?.stop();
    },
  };
}

/**
 * Applies the migrations the database lacks. A restart finds every one applied: one read instead
 * of the migrator's lock and connection. Migrations may take long, and wait for another
 * instance's: no statement limit for them. Answers the names of those it applied.
 */
export async function migrateIfBehind(
  handle: DatabaseHandle,
  url: string,
  log: (line: string) => void,
): Promise<string[]> {
  if (await isMigrated(handle.db)) return [];
  const migrating = openDatabase(url, { maxConnections: 1, timeouts: 'none' });
  try {
    const { applied } = await migrateToLatest(migrating.db);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
    return applied;
  } finally {
    await migrating.close();
  }
}
