/**
 * Imports beside everyone else: GET /api/health answered at a steady pace while 5,000-row
 * imports (dry runs of rows that all fail, the heaviest report to build) run back to back, against
 * health alone in the same run. Target: health p99 < 50 ms while an import runs.
 *
 * Then an import that saves: a 5,000-row dataset CSV whose addresses are matched against a
 * 10,000-entry address book (bench/address-book.ts), run as a job, timed from the POST to the
 * job's end (or CAP_SECONDS). Target: well inside the import's 300-second job budget.
 *
 *   node --import tsx bench/imports.ts
 *   SECONDS=10 ROUNDS=3 node --import tsx bench/imports.ts
 *   ROUNDS=0 BOOK=10000 MATCH_ROWS=5000 CAP_SECONDS=900 node --import tsx bench/imports.ts
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
import { bookEntries, deliveriesCsv, saveBook } from './address-book.ts';
import { withoutRequestLimits } from './limits.ts';
import type { PacedJob, PacedResult } from './paced-reads.ts';
import { knob, say } from './support.ts';

const SECONDS = knob('SECONDS', 10);
const ROUNDS = knob('ROUNDS', 3);
const ROWS = 5_000;
/** Entries of the address book the saving import matches against (0: no saving import). */
const BOOK = knob('BOOK', 10_000);
const MATCH_ROWS = knob('MATCH_ROWS', 5_000);
/** The saving import is given up after this long. */
const CAP_SECONDS = knob('CAP_SECONDS', 900);
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
/** The saving import did not succeed: its run may still hold a connection and a transaction. */
let capped = false;
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
  if (BOOK > 0) lines.push('', ...(await savingImport()));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await app.http.close();
  // An import given up still holds its connection: stopping the server ends it instead of waiting.
  if (capped) await cluster.stop();
  await app.stopBackground();
  await handle.close();
  if (!capped) await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}

/**
 * A dataset CSV import that saves, in a business of its own whose address book holds BOOK
 * entries: accepted as a job, followed until it ends or CAP_SECONDS pass, then its records
 * counted by how they were placed.
 */
async function savingImport(): Promise<string[]> {
  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'matcher', name: 'Matcher' });
  const userId = await accounts.createUser(handle.db, {
    kind: 'client_admin',
    email: 'admin@matcher.test',
    name: 'Admin',
    password: null,
    businessId,
  });
  const own = (await accounts.issueToken(handle.db, { userId, kind: 'personal' })).token;
  const headers = { authorization: `Bearer ${own}`, 'content-type': 'application/json' };
  say(`saving import: an address book of ${BOOK} entries ...`);
  const entries = bookEntries(BOOK);
  await saveBook(handle.db, businessId, entries);
  const created = await fetch(`${url}/api/v1/client/datasets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Deliveries',
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'site', type: 'address', required: true },
      ],
    }),
  });
  if (!created.ok) throw new Error(`dataset: ${created.status} ${await created.text()}`);
  const datasetId = ((await created.json()) as { dataset: { id: number } }).dataset.id;
  await app.startBackground(handle.pool);
  say(`saving import: ${MATCH_ROWS} rows, as a job, for at most ${CAP_SECONDS} s ...`);
  const started = performance.now();
  const accepted = await fetch(`${url}/api/v1/client/datasets/${datasetId}/import/csv`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ csv: deliveriesCsv(entries, MATCH_ROWS) }),
  });
  if (accepted.status !== 202) throw new Error(`import: ${accepted.status} ${await accepted.text()}`);
  const location = accepted.headers.get('location')!;
  type Job = { status: string; progress: number; result: { created: number; complete?: boolean } | null };
  let job: Job;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const answer = await fetch(`${url}${location}`, { headers });
    job = ((await answer.json()) as { job: Job }).job;
    if (job.status === 'succeeded' || job.status === 'failed') break;
    if (performance.now() - started > CAP_SECONDS * 1_000) break;
  }
  const elapsed = (performance.now() - started) / 1_000;
  // A job that failed may have left its first run going (taken for dead, it was not stopped).
  capped = job.status !== 'succeeded';
  const placed = await handle.db
    .selectFrom('dataset_records')
    .select(['geocoding_status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('dataset_id', '=', datasetId)
    .groupBy('geocoding_status')
    .execute();
  const count = (status: string) => placed.find((row) => row.geocoding_status === status)?.count ?? 0;
  const saved = placed.reduce((sum, row) => sum + row.count, 0);
  return [
    `A ${MATCH_ROWS}-row dataset CSV import (address field) in a business whose address book holds ${BOOK} entries, ` +
      `as a job over REST, followed every second for at most ${CAP_SECONDS} s:`,
    '',
    '| job status | progress | seconds | records saved | geocoded / not found | report complete |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${job.status} | ${job.progress} | ${elapsed.toFixed(1)} | ${saved} | ${count('geocoded')} / ${count('not_found')} | ` +
      `${job.result?.complete ?? (job.result ? 'yes' : '-')} |`,
  ];
}
