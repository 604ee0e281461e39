/** The migrated template database a test run clones for each file (test/run.ts, bench/mutation). */
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { databaseUrl } from './database.ts';

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new name for this process's template. */
export function templateName(): string {
  return `tms_template_${process.pid}_${Date.now().toString(36)}`;
}

/** Creates the template on the server at `adminUrl` and migrates it to the latest schema. */
export async function createTemplate(adminUrl: string, template: string): Promise<void> {
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
  const handle = openDatabase(databaseUrl(adminUrl, template), { maxConnections: 1, timeouts: 'none' });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}
