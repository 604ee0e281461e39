/**
 * The service answering while it reads labels: GET /api/health read every 10 ms over loopback
 * HTTP, first with nothing else to do, then while 8 labels are posted to POST /api/v1/labels/parse
 * at once (the reader's threads at their default, the cores but one). Reports the health reads'
 * p50, p99 and longest time in both phases, and how long the 8 labels took.
 *
 *   node --import tsx bench/ocr-responsive.ts
 */
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { renderLabelPdf } from '../src/modules/shipping/labels/render.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { percentile, say } from './support.ts';

const LABELS = 8;
const EVERY_MS = 10;

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent', LABEL_READER_QUEUE_LIMIT: String(LABELS) });
const config = { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) };
const app = await createApp(config, handle.db, new ManualClock(new Date('2026-11-27T09:30:00Z')));
await app.http.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;

try {
  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'bench-ocr', name: 'Bench OCR' });
  const adminId = await accounts.createUser(handle.db, {
    kind: 'client_admin',
    email: 'admin@bench-ocr.test',
    name: 'Bench admin',
    password: null,
    businessId,
  });
  const { token } = await accounts.issueToken(handle.db, { userId: adminId, kind: 'personal' });
  const labels = await Promise.all(
    Array.from({ length: LABELS }, (_, n) =>
      renderLabelPdf({
        trackingNumber: `BENCH${String(n).padStart(8, '0')}`,
        carrierName: 'Own Fleet',
        serviceName: 'Next day',
        sender: {
          name: 'Acme Parts',
          line1: '12 Rue de Rivoli',
          postal_code: '75001',
          city: 'Paris',
          country: 'FR',
        },
        recipient: {
          name: `Customer ${n}`,
          line1: '500 Main Street',
          postal_code: '10001',
          city: 'New York',
          country: 'US',
        },
        billableWeightGrams: 1000 + n,
        packageNumber: 1,
        packageCount: 1,
        orderRef: `ORD-${n}`,
        trackingUrl: `${config.publicBaseUrl}/track/BENCH${n}`,
        createdAt: new Date('2026-11-27T00:00:00Z'),
      } as never),
    ),
  );
  const parse = async (pdf: Buffer) => {
    const response = await fetch(`${base}/v1/labels/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
      body: pdf,
    });
    if (!response.ok) throw new Error(`parse: ${response.status} ${await response.text()}`);
    await response.json();
  };
  // The reader thread's first label pays for loading the recogniser: not part of either phase.
  say('Warming the reader up ...');
  await parse(labels[0]!);

  /** Health reads every EVERY_MS until `until` settles, each timed from send to answer. */
  const healthWhile = async (until: Promise<unknown>) => {
    const times: number[] = [];
    let done = false;
    void until.finally(() => {
      done = true;
    });
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${base}/health`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`health: ${response.status}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    return times.sort((a, b) => a - b);
  };
  const row = (name: string, times: number[], extra: string) =>
    `| ${name} | ${times.length} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 99).toFixed(1)} ms | ${times.at(-1)!.toFixed(1)} ms | ${extra} |`;

  say('Health reads with nothing else to do ...');
  const idle = await healthWhile(new Promise((resolve) => setTimeout(resolve, 3000)));
  say(`Health reads while ${LABELS} labels are read ...`);
  const started = performance.now();
  const reading = Promise.all(labels.map(parse));
  const busy = await healthWhile(reading);
  await reading;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log('| phase | health reads | p50 | p99 | longest | labels |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row('idle', idle, '–'));
  console.log(row(`${LABELS} labels being read`, busy, `${LABELS} read in ${seconds} s`));
} finally {
  await app.http.close();
  await handle.close();
  await cluster.stop();
}
