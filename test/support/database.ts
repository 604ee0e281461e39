import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The database bounds of tests that do not test them: the service's own (5 s a statement, 3 s to
 * connect) are for answering 503 quickly, and a loaded 2-core machine running the suite can take
 * longer than that for ordinary work.
 */
export const TEST_DATABASE_TIMEOUTS = { statementMs: 60_000, connectMs: 30_000 };

/** The same server as `serverUrl`, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: requireEnv('TMS_TEST_ADMIN_URL') });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests with "npm test" (test/run.ts prepares the database)`);
  return value;
}

/** A fresh, migrated database of this test file's own, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = requireEnv('TMS_TEST_TEMPLATE');
  const name = `tms_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  // Two clones of one template at the same instant can collide; a short retry settles it.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (error) {
      if (attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  return {
    name,
    url: databaseUrl(requireEnv('TMS_TEST_ADMIN_URL'), name),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** An empty database of this test file's own (no migrations), for a test that migrates it step by step. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `tms_test_empty_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(requireEnv('TMS_TEST_ADMIN_URL'), name),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
