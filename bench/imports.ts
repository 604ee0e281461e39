/**
 * Imports beside everyone else: GET /api/health answered at a steady pace while 5,000-row
 * imports (dry runs of rows that all fail, the heaviest report to build) run back to back, against
 * health alone in the same run. Target: health p99 < 50 ms while an import runs.
 *
 *   node --import tsx bench/imports.ts
 *   SECONDS=10 ROUNDS=3 node --import tsx bench/imports.ts
 *
 * The health reader (on a fixed schedule, so a stall counts in full) and the importer are child
 * processes of their own (bench/paced-reads.ts), so neither shares an event loop with the service
 * it measures; request limits are off.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import type { PacedJob, PacedResult } from './paced-reads.ts';
import { knob, say } from './support.ts';

const SECONDS = knob('SECONDS', 10);
const ROUNDS = knob('ROUNDS', 3);
const ROWS = 5_000;
/** A health read every this many ms: a monitor and a few dashboards. */
const HEALTH_EVERY_MS = 20;

const loaderPath = fileURLToPath(new URL('./paced-reads.ts', import.meta.url));
function load(job: PacedJob): Promise<PacedResult> {
  const child: ChildProcess = fork(loaderPath, [], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: PacedResult; error?: string }) => {
      child.kill();
      if (message.error) reject(new Error(message.error));
      else resolve(message.result!);
    });
    child.send({ job });
  });
}

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent' });
const app = await createApp(
  { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) },
  handle.db,
  systemClock,
);
await app.http.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;

const lines: string[] = [];
try {
  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'importer', name: 'Importer' });
  const userId = await accounts.createUser(handle.db, {
    kind: 'client_admin',
    email: 'admin@importer.test',
    name: 'Admin',
    password: null,
    businessId,
  });
  const token = (await accounts.issueToken(handle.db, { userId, kind: 'personal' })).token;
  const headers = { authorization: `Bearer ${token}`, 'x-dry-run': '1' };
  const created = await fetch(`${url}/api/v1/client/datasets`, {
    method: 'POST',
    headers: { ...headers, 'x-dry-run': '0', 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Sites',
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'docks', type: 'number', required: true },
        { name: 'kind', type: 'enum', values: ['depot', 'shop'] },
        { name: 'site', type: 'address' },
        { name: 'opened', type: 'date' },
      ],
    }),
  });
  if (!created.ok) throw new Error(`dataset: ${created.status} ${await created.text()}`);
  const datasetId = ((await created.json()) as { dataset: { id: number } }).dataset.id;

  // Every row fails several checks: each gets a localised report with its fields named.
  const datasetCsv = [
    'name,docks,kind,site,site.lat,site.lng,opened,extra',
    ...Array.from({ length: ROWS }, (_, i) => `Site ${i},many,hub,8 Quai Perrache Lyon,99,200,2026-13-45,x`),
  ].join('\n');
  const records = Array.from({ length: ROWS }, (_, i) => ({
    name: `Site ${i}`,
    docks: 'many',
    kind: 'hub',
    site: { text: '8 Quai Perrache Lyon', lat: 99, lng: 200 },
    opened: '2026-13-45',
    extra: 'x',
  }));
  const addressCsv = [
    'label,name,line1,postal_code,city,country,lat,lng',
    ...Array.from({ length: ROWS }, (_, i) => `Site ${i},,,69002,Lyon,France,99,200`),
  ].join('\n');
  const imports: Array<{ label: string; path: string; body: string }> = [
    {
      label: 'a dataset CSV import',
      path: `/api/v1/client/datasets/${datasetId}/import/csv`,
      body: JSON.stringify({ csv: datasetCsv }),
    },
    {
      label: 'a dataset JSON import',
      path: `/api/v1/client/datasets/${datasetId}/import`,
      body: JSON.stringify({ records }),
    },
    {
      label: 'an address book CSV import',
      path: '/api/v1/client/addresses/import',
      body: JSON.stringify({ csv: addressCsv }),
    },
  ];
  for (const job of imports) {
    const answer = await fetch(`${url}${job.path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: job.body,
    });
    const report = (await answer.json()) as { refused?: number; error_code?: string };
    if (answer.status !== 200 || report.refused !== ROWS)
      throw new Error(`${job.label}: ${answer.status} ${JSON.stringify(report).slice(0, 300)}`);
  }

  const health = (): PacedJob => ({
    kind: 'paced',
    url: `${url}/api/health`,
    everyMs: HEALTH_EVERY_MS,
    seconds: SECONDS,
  });
  const importing = (job: (typeof imports)[number]): PacedJob => ({
    kind: 'repeat',
    url: `${url}${job.path}`,
    headers,
    body: job.body,
    seconds: SECONDS,
  });
  const row = (label: string, result: PacedResult) =>
    `| ${label} | ${result.answered} / ${result.sent} | ${result.p50} / ${result.p99} / ${result.max} |`;
  const table: string[] = [];
  const importTable: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    say(`round ${round}: health alone, ${SECONDS} s ...`);
    table.push(row(`round ${round}: health alone`, await load(health())));
    for (const job of imports) {
      say(`round ${round}: health beside ${job.label} ...`);
      const [reads, runs] = await Promise.all([load(health()), load(importing(job))]);
      table.push(row(`round ${round}: health beside ${job.label}`, reads));
      importTable.push(row(`round ${round}: ${job.label}`, runs));
    }
  }
  lines.push(
    `Node ${process.version}; ${SECONDS} s per measurement, ${ROUNDS} rounds; GET /api/health every ${HEALTH_EVERY_MS} ms, ` +
      `each timed from when it was due; imports of ${ROWS} rows that all fail, as dry runs (X-Dry-Run: 1), one after another.`,
    '',
    '| health reads | answered / sent | p50 / p99 / max ms |',
    '| --- | --- | --- |',
    ...table,
    '',
    '| imports | answered / sent | p50 / p99 / max ms |',
    '| --- | --- | --- |',
    ...importTable,
  );
} finally {
  await app.http.close();
  await app.stopBackground();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
process.stdout.write(`${lines.join('\n')}\n`);
