import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { PROJECT_ROOT } from '../project.ts';
import type { Db } from './database.ts';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');

/** Plain numbered SQL files; each runs in its own transaction, under Kysely's migration lock. */
async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
}

class SqlFileMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = await migrationFiles();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const text = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      migrations[file.replace(/\.sql$/, '')] = {
        up: async (db) => {
          await sql.raw(text).execute(db);
        },
      };
    }
    return migrations;
  }
}

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies the pending migrations; with `until` (a migration's name, without .sql) only those up to
 * it, as a test of a migration that moves data sets up the schema it starts from.
 */
export async function migrateToLatest(db: Db, until?: string): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: new SqlFileMigrationProvider() });
  const { error, results = [] } = await (until ? migrator.migrateTo(until) : migrator.migrateToLatest());
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
  return { applied: results.filter((result) => result.status === 'Success').map((r) => r.migrationName) };
}

/**
 * Whether the database holds exactly the migration files, read in one statement: a restart
 * then skips the migrator, its lock and its connection. Any doubt (no table yet) answers false.
 */
export async function isMigrated(db: Db): Promise<boolean> {
  const names = (await migrationFiles()).map((file) => file.replace(/\.sql$/, ''));
  try {
    // Exactly the files: a migration the code does not know goes to the migrator, which refuses it.
    const { rows } = await sql<{ known: number; total: number }>`
      SELECT count(*) FILTER (WHERE name = ANY(${names}::text[]))::int AS known, count(*)::int AS total
      FROM kysely_migration`.execute(db);
    return rows[0]?.known === names.length && rows[0]?.total === names.length;
  } catch {
    return false;
  }
}
