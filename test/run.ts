/**
 * The test command. Prepares one migrated template database, on the embedded PostgreSQL server
 * (a throwaway cluster) or on DATABASE_URL's server, then runs every test file in parallel with
 * node's test runner; each file clones the template into a database of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { chromiumPath } from './support/browser.ts';
import { adminQuery, createTemplate, templateName } from './support/template.ts';

const ROOTS = ['src', 'test'];

async function findTestFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const root of ROOTS) {
    for (const entry of await readdir(root, { recursive: true })) {
      if (entry.endsWith('.test.ts')) files.push(path.join(root, entry));
    }
  }
  return files.sort();
}

const files = process.argv.length > 2 ? process.argv.slice(2) : await findTestFiles();
const external = process.env.DATABASE_URL;
const clusterDir = external ? undefined : await mkdtemp(path.join(tmpdir(), 'tms-test-pg-'));
const embedded = clusterDir
  ? await startEmbeddedPostgres({ directory: clusterDir, ephemeral: true })
  : undefined;
const adminUrl = external ?? embedded!.adminUrl;
const template = templateName();

process.stdout.write(
  `Test database: ${external ? `DATABASE_URL (${new URL(external).host})` : 'embedded PostgreSQL'}; ` +
    `template ${template}; ${files.length} test files\n`,
);

let exitCode = 1;
try {
  await createTemplate(adminUrl, template);

  // Unpacked once here, so files running in parallel never unpack the browser at the same time.
  const browser = await chromiumPath();
  exitCode = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        `--test-concurrency=${availableParallelism()}`,
        '--test-reporter=./test/support/progress-reporter.mjs',
        ...files,
      ],
      {
        stdio: 'inherit',
        env: {
          ...process.env,
          TMS_TEST_ADMIN_URL: adminUrl,
          TMS_TEST_TEMPLATE: template,
          CHROMIUM_PATH: browser,
          TMS_TEST_FILE_COUNT: String(files.length),
          // Servers the tests start search routes on one thread, so plans are the same on any machine.
          SOLVER_THREADS: process.env.SOLVER_THREADS ?? '1',
        },
      },
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
} finally {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template}`).catch((error) =>
    process.stderr.write(`Could not drop ${template}: ${error}\n`),
  );
  await embedded?.stop();
  if (clusterDir) await rm(clusterDir, { recursive: true, force: true });
}
process.exit(exitCode);
