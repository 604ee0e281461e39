import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { loadStartedDay, timeZoneAt } from './board-day.ts';
import { withoutRequestLimits } from './limits.ts';
import type { LoadJob, LoadResult, PlannedRequest } from './request-load.ts';
import { knob, percentile, say, seconds } from './support.ts';

// A working day of ROUTES routes and ROUTES x STOPS orders, under way: the business, its drivers,
// their profiles, the orders and the day's started routes are loaded in SQL (setup only, by
// loadStartedDay in bench/board-day.ts, without windows). Then,
// over HTTP from a child process at a fixed rate, dispatchers edit the plan (a late order
// assigned where it costs least, a stop moved to another route, a route re-sequenced) while
// drivers complete their stops as delivered (without a photo, each write with its client id);
// each answer's time is measured at the sender.

const ROUTES = knob('ROUTES', 250);
const STOPS = knob('STOPS', 20);
const EDITS = knob('EDITS', 600);
const COMPLETIONS = knob('COMPLETIONS', 1500);
const RATE = knob('RATE', 30);
const WARMUP = knob('WARMUP', 30);
/**
 * A time zone where it is about 09:00 now, so that the day under way has its working hours ahead
 * whatever the hour the bench runs at (edits time a started route's pending stops from now).
 */
const TIME_ZONE = timeZoneAt(9);
const ORDERS = ROUTES * STOPS;
/** Orders waiting in the pool, for the late-order edits. */
const LATE = Math.ceil(EDITS / 3) + WARMUP;

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
const loader = openDatabase(cluster.url, { timeouts: 'none', maxConnections: 2 });
try {
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const config = { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) };
  const app = await createApp(config, handle.db, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const { accounts } = app.services;
  const db = loader.db;

  const step = performance.now();
  say(
    `Loading ${ROUTES} drivers and started routes, ${ORDERS.toLocaleString('en')} orders on them, ${LATE} waiting ...`,
  );
  const { businessId, admin, drivers } = await loadStartedDay(accounts, db, {
    routes: ROUTES,
    stops: STOPS,
    positions: 0,
    waiting: LATE,
    timeZone: TIME_ZONE,
    windows: false,
  });
  say(`  loaded: ${seconds(step)}`);

  // ----- what is sent: edits by the dispatcher, completions by the drivers -----
  const routes = (
    await sql<{ id: number; driver_user_id: number }>`
      SELECT id, driver_user_id FROM routes WHERE business_id = ${businessId} ORDER BY id`.execute(db)
  ).rows;
  const stopsOf = new Map<number, number[]>();
  for (const row of (
    await sql<{ route_id: number; order_id: number }>`
      SELECT route_id, order_id FROM route_stops s JOIN routes r ON r.id = s.route_id
      WHERE r.business_id = ${businessId} ORDER BY route_id, sequence`.execute(db)
  ).rows) {
    stopsOf.set(row.route_id, [...(stopsOf.get(row.route_id) ?? []), row.order_id]);
  }
  const waiting = (
    await sql<{ id: number }>`
      SELECT id FROM orders WHERE business_id = ${businessId} AND status = 'NEW_ORDER' ORDER BY id`.execute(
      db,
    )
  ).rows.map((row) => row.id);
  const tokenOf = new Map(drivers.map((driver) => [driver.id, driver.token]));

  // Routes 0..half-1 are edited; the others are worked by their drivers, each stop once.
  const half = Math.floor(routes.length / 2);
  const edited = routes.slice(0, half);
  const worked = routes.slice(half);
  const edits: PlannedRequest[] = [];
  const options = { confirm_violations: true };
  for (let n = 0; n < EDITS + WARMUP * 3; n++) {
    const route = edited[n % edited.length]!;
    const other = edited[(n * 7 + 3) % edited.length]!;
    const stops = stopsOf.get(route.id)!;
    const kind = n % 3;
    if (kind === 0) {
      const order = waiting.shift();
      if (order === undefined) continue;
      edits.push({
        label: 'assign_order_to_route (best place)',
        method: 'POST',
        path: `/v1/client/routes/${route.id}/stops`,
        token: admin,
        body: { order_id: order, ...options },
      });
      stops.push(order);
    } else if (kind === 1 && stops.length > 2) {
      const order = stops.pop()!;
      edits.push({
        label: 'move_route_stop (to another route)',
        method: 'POST',
        path: `/v1/client/routes/${route.id}/stops/${order}/move`,
        token: admin,
        body: { to_route_id: other.id, ...options },
      });
      stopsOf.get(other.id)!.push(order);
    } else {
      edits.push({
        label: 'resequence_route (optimize)',
        method: 'POST',
        path: `/v1/client/routes/${route.id}/sequence`,
        token: admin,
        body: { optimize: true, ...options },
      });
    }
  }
  const completions: PlannedRequest[] = [];
  for (let n = 0; completions.length < COMPLETIONS + WARMUP; n++) {
    const route = worked[n % worked.length]!;
    const order = stopsOf.get(route.id)![Math.floor(n / worked.length)];
    if (order === undefined) break;
    completions.push({
      label: 'complete_stop (delivered, no photo)',
      method: 'POST',
      path: `/v1/driver/routes/${route.id}/stops/${order}/complete`,
      token: tokenOf.get(route.driver_user_id)!,
      // The phone's time when it was written, a little before it is sent, as a real one's is.
      body: {
        client_id: `c-${order}`,
        device_time: new Date().toISOString(),
        outcome: 'delivered',
        recipient: 'Concierge',
      },
    });
  }
  // Each edited route is first re-timed on the travel matrix, as a plan built by the service is:
  // the loaded planned times are placeholders, and re-timing them would tell every customer of a
  // new arrival time on the first edit (a tracking event each) and on none after.
  const retime: PlannedRequest[] = edited.map((route) => ({
    label: 'retime',
    method: 'POST',
    path: `/v1/client/routes/${route.id}/sequence`,
    token: admin,
    body: { optimize: true, ...options },
  }));
  const warmup = [...retime, ...edits.splice(0, WARMUP * 3), ...completions.splice(0, WARMUP)];
  // Interleaved as the day mixes them: a dispatcher's edit between driver writes.
  const mixed: PlannedRequest[] = [];
  const ratio = completions.length / Math.max(1, edits.length);
  for (let e = 0, c = 0; e < edits.length || c < completions.length; ) {
    if (e < edits.length && (c >= completions.length || c >= (e + 1) * ratio)) mixed.push(edits[e++]!);
    else mixed.push(completions[c++]!);
  }
  say(`Warming up: ${warmup.length} requests one at a time ...`);
  say(
    `Then ${mixed.length} requests at ${RATE} a second (${(mixed.length / RATE).toFixed(0)} s): ${edits.length} edits, ${completions.length} completions ...`,
  );
  const sender = fork(fileURLToPath(new URL('./request-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  const job: LoadJob = { baseUrl, warmup, requests: mixed, rate: RATE };
  const outcome = await new Promise<{ result?: LoadResult; error?: string }>((resolve) => {
    sender.on('message', (message: { warmed?: true; result?: LoadResult; error?: string }) => {
      if (!message.warmed) resolve(message);
    });
    sender.send(job);
  });
  sender.kill();
  if (!outcome.result) throw new Error(outcome.error);
  const { times, health, wrong, elapsedSeconds } = outcome.result;
  if (wrong.length > 0) throw new Error(`unexpected answers:\n${wrong.slice(0, 5).join('\n')}`);
  say(`Sent ${mixed.length} requests in ${elapsedSeconds.toFixed(1)} s.`);

  const row = (label: string, values: number[]) => {
    if (values.length === 0) return `| ${label} | 0 | | | | |`;
    const sorted = [...values].sort((a, b) => a - b);
    const f = (p: number) => percentile(sorted, p).toFixed(1);
    return `| ${label} | ${sorted.length} | ${f(50)} | ${f(95)} | ${f(99)} | ${sorted.at(-1)!.toFixed(1)} |`;
  };
  console.log(
    `| request (${ROUTES} routes, ${ORDERS.toLocaleString('en')} orders) | count | p50 ms | p95 ms | p99 ms | max ms |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [label, values] of Object.entries(times)) console.log(row(label, values));
  const allEdits = Object.entries(times)
    .filter(([label]) => !label.startsWith('complete_stop'))
    .flatMap(([, values]) => values);
  console.log(row('all plan edits', allEdits));
  console.log(row('GET /api/health (reference)', health));
  say(`Whole run: ${seconds(started)}`);
  await app.http.close();
  await app.stopBackground();
} finally {
  await loader.db.destroy();
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
