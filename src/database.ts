import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './platform/db/database.ts';
import { startEmbeddedPostgres } from './platform/db/embedded.ts';
import { migrateToLatest } from './platform/db/migrate.ts';

export interface RunningDatabase extends DatabaseHandle {
  /** True when the service runs its own embedded PostgreSQL server. */
  embedded: boolean;
  /** Closes the pool, then stops the embedded server if there is one. */
  shutdown(): Promise<void>;
}

/** Opens the configured database (starting the embedded server when no DATABASE_URL is set) and migrates it. */
export async function openServiceDatabase(
  config: Config,
  log: (line: string) => void,
): Promise<RunningDatabase> {
  const server = config.databaseUrl ? undefined : await startEmbeddedPostgres({ directory: config.dataDir });
  if (server) log(`Embedded PostgreSQL ${server.created ? 'created and ' : ''}started in ${config.dataDir}`);
  const handle = openDatabase(config.databaseUrl ?? server!.url);
  try {
    const { applied } = await migrateToLatest(handle.db);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
  } catch (error) {
    await handle.close();
    await server?.stop();
    throw error;
  }
  return {
    ...handle,
    embedded: server !== undefined,
    shutdown: async () => {
      await handle.close();
      await server?.stop();
    },
  };
}
