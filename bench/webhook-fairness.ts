/**
 * Webhook fairness: one business has hundreds of deliveries queued for a receiver that takes
 * 5 s to answer, while another business creates an order every 200 ms and its receiver notes when
 * each order.created arrives. A receiver that slow keeps every one of the first business's
 * slots busy for the whole run, so a worker that waits on a delivery in hand before claiming
 * again shows up as the other business waiting seconds. Run twice on a fresh embedded
 * PostgreSQL each: no per-business share (OUTBOX_PER_BUSINESS = OUTBOX_CONCURRENCY), then the
 * defaults. Target: the other business's webhooks arrive within 200 ms, p99.
 *
 *   node --import tsx bench/webhook-fairness.ts
 *   FLOOD=100 SECONDS=10 node --import tsx bench/webhook-fairness.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say } from './support.ts';

const FLOOD = knob('FLOOD', 300);
const SECONDS = knob('SECONDS', 20);
const SLOW_MS = knob('SLOW_MS', 5000);
const VICTIM_EVERY_MS = 200;
const TARGET_P99_MS = 200;

/** A receiver on loopback answering 200 after `delayMs`, calling `onBody` with each body. */
async function receiver(delayMs: number, onBody: (body: string) => void) {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      onBody(body);
      setTimeout(() => response.writeHead(200).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

async function scenario(label: string, outbox: { concurrency: number; perBusiness: number }) {
  const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
  const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
  const handle = openDatabase(cluster.url);
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await createApp(
    {
      ...defaults,
      databaseUrl: cluster.url,
      webhooks: { ...defaults.webhooks, allow: { ...defaults.webhooks.allow, loopback: true } },
      limits: withoutRequestLimits(defaults.limits),
      outboxConcurrency: outbox.concurrency,
      outboxPerBusiness: outbox.perBusiness,
    },
    handle.db,
    systemClock,
  );
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  let flooded = 0;
  const latencies: number[] = [];
  const slow = await receiver(SLOW_MS, () => flooded++);
  // The delay is counted from the event (the envelope's created_at, stamped as the order is
  // written) to its arrival: the create request's own time, long on a busy machine, is not in it.
  const fast = await receiver(0, (body) =>
    latencies.push(Date.now() - Date.parse(JSON.parse(body).created_at)),
  );
  try {
    const { accounts } = app.services;
    const tokenOf = async (code: string, hook: string) => {
      const businessId = await accounts.createBusiness(handle.db, { code, name: code });
      const userId = await accounts.createUser(handle.db, {
        kind: 'client_admin',
        email: `admin@${code}.test`,
        name: code,
        password: null,
        businessId,
      });
      const { token } = await accounts.issueToken(handle.db, { userId, kind: 'personal' });
      const settings = await fetch(`${base}/api/v1/webhook-settings`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ urls: { 'order.created': hook } }),
      });
      if (!settings.ok) throw new Error(`settings: ${settings.status} ${await settings.text()}`);
      return token;
    };
    const flooder = await tokenOf('flooder', slow.url);
    const victim = await tokenOf('victim', fast.url);
    const post = async (token: string, path: string, body: unknown) => {
      const answer = await fetch(base + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return answer.json() as Promise<Record<string, unknown>>;
    };
    say(`${label}: queueing ${FLOOD} order.created deliveries for the flooder's slow receiver ...`);
    for (let made = 0; made < FLOOD; made += 100) {
      const orders = Array.from({ length: Math.min(100, FLOOD - made) }, (_, i) => ({
        order_ref: `F-${made + i}`,
        dropoff: { line1: `${i} Quai`, city: 'Lyon' },
      }));
      await post(flooder, '/api/v1/client/orders/bulk', { orders });
    }
    await app.startBackground(handle.pool);
    say(`${label}: the victim creates an order every ${VICTIM_EVERY_MS} ms for ${SECONDS} s ...`);
    const started = performance.now();
    let created = 0;
    while (performance.now() - started < SECONDS * 1000) {
      await post(victim, '/api/v1/client/orderCreate', {
        dropoff: { line1: 'Victim street', city: 'Nantes' },
      });
      created++;
      await new Promise((resolve) => setTimeout(resolve, VICTIM_EVERY_MS));
    }
    const floodedDuring = flooded;
    // The victim's last webhooks may still be on their way: wait for them, up to a minute.
    const waitUntil = performance.now() + 60_000;
    while (latencies.length < created && performance.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      label,
      created,
      arrived: latencies.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      floodPerSecond: floodedDuring / SECONDS,
    };
  } finally {
    await app.stopBackground();
    await app.http.close();
    slow.server.closeAllConnections();
    fast.server.closeAllConnections();
    slow.server.close();
    fast.server.close();
    await handle.close();
    await cluster.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

const { outboxConcurrency, outboxPerBusiness } = loadConfig({});
const before = await scenario('no per-business share', {
  concurrency: outboxConcurrency,
  perBusiness: outboxConcurrency,
});
const after = await scenario('defaults', { concurrency: outboxConcurrency, perBusiness: outboxPerBusiness });
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'never');
process.stdout.write(
  `${[
    `Node ${process.version}; ${FLOOD} deliveries queued for a receiver answering in ${SLOW_MS} ms; ` +
      `the victim creates an order every ${VICTIM_EVERY_MS} ms for ${SECONDS} s.`,
    '',
    "| outbox | victim's webhooks arrived | p50 | p99 | max | flooder's deliveries/s |",
    '| --- | --- | --- | --- | --- | --- |',
    ...[before, after].map(
      (run) =>
        `| ${run.label} | ${run.arrived} of ${run.created} | ${ms(run.p50)} | ${ms(run.p99)} | ${ms(run.max)} | ${run.floodPerSecond.toFixed(1)} |`,
    ),
    '',
    `Target: the victim's p99 within ${TARGET_P99_MS} ms with the defaults: ${after.p99 < TARGET_P99_MS && after.arrived === after.created ? 'met' : 'not met'}.`,
  ].join('\n')}\n`,
);
