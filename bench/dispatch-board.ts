import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { loadStartedDay, timeZoneAt } from './board-day.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say, seconds } from './support.ts';

// The dispatch board on a day of ROUTES started routes and ROUTES x STOPS orders (loaded in SQL
// by loadStartedDay in bench/board-day.ts, setup only), each driver with POSITIONS reported positions and
// WAITING orders on no route. Two figures, over real HTTP on loopback:
// - the snapshot: READS reads of GET /api/v1/client/dispatch/board, one after the other;
// - the delta delay: a live board open (server-sent events), COMPLETIONS stops completed as
//   delivered through a second instance of the service on the same database, one after the
//   other; for each, the time from the write's answer (its transaction committed before it) to
//   the `stop` message reaching the subscriber, and from the request being sent.

const ROUTES = knob('ROUTES', 250);
const STOPS = knob('STOPS', 20);
const POSITIONS = knob('POSITIONS', 20);
const WAITING = knob('WAITING', 200);
const READS = knob('READS', 300);
const COMPLETIONS = knob('COMPLETIONS', 300);
const WARMUP = knob('WARMUP', 20);
const ORDERS = ROUTES * STOPS;

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
const writerHandle = openDatabase(cluster.url);
const loader = openDatabase(cluster.url, { timeouts: 'none', maxConnections: 2 });
try {
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const config = {
    ...defaults,
    databaseUrl: cluster.url,
    limits: withoutRequestLimits(defaults.limits),
    mqtt: { ...defaults.mqtt, port: 0 },
  };
  // The instance the dispatcher's board is open on, and another one the drivers' phones reach.
  const app = await createApp(config, handle.db, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.services.boardFeed.start(handle.pool);
  const writer = await createApp(config, writerHandle.db, systemClock);
  await writer.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const writerUrl = `http://127.0.0.1:${(writer.http.server.address() as AddressInfo).port}`;
  const { accounts } = app.services;
  const db = loader.db;

  const step = performance.now();
  say(
    `Loading ${ROUTES} started routes, ${ORDERS.toLocaleString('en')} orders on them, ${WAITING} waiting, ${POSITIONS} positions a driver ...`,
  );
  const { businessId, admin, drivers } = await loadStartedDay(accounts, db, {
    routes: ROUTES,
    stops: STOPS,
    positions: POSITIONS,
    waiting: WAITING,
    timeZone: timeZoneAt(13),
  });
  say(`  loaded: ${seconds(step)}`);

  // ----- the snapshot -----
  const read = async () => {
    const sent = performance.now();
    const response = await fetch(`${baseUrl}/api/v1/client/dispatch/board`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const bytes = await response.arrayBuffer();
    const ms = performance.now() - sent;
    // Parsed after the clock stops: the reader shares this process with the service.
    const body = JSON.parse(Buffer.from(bytes).toString()) as {
      routes?: unknown[];
      totals?: Record<string, number>;
    };
    if (response.status !== 200 || body.routes?.length !== ROUTES) {
      throw new Error(`unexpected board: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    return { ms, body, bytes: bytes.byteLength };
  };
  say(`Reading the board ${WARMUP} times to warm up, then ${READS} times ...`);
  for (let n = 0; n < WARMUP; n++) await read();
  const reads: number[] = [];
  let totals: Record<string, number> = {};
  let size = 0;
  for (let n = 0; n < READS; n++) {
    const { ms, body, bytes } = await read();
    reads.push(ms);
    totals = body.totals!;
    size = bytes;
  }
  say(`  a board: ${JSON.stringify(totals)}, ${(size / 1024).toFixed(0)} KB`);

  // ----- the live board and the delta delay -----
  const abort = new AbortController();
  const stream = await fetch(`${baseUrl}/api/v1/client/dispatch/board`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${admin}` },
    signal: abort.signal,
  });
  const arrivals = new Map<number, number>();
  const waiters = new Map<number, () => void>();
  let snapshotSeen: () => void = () => {};
  const snapshot = new Promise<void>((resolve) => {
    snapshotSeen = resolve;
  });
  void (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        if (event === 'snapshot') snapshotSeen();
        if (event !== 'stop') continue;
        const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as {
          stop: { order_id: number; state: string };
        };
        if (data.stop.state !== 'done') continue;
        arrivals.set(data.stop.order_id, performance.now());
        waiters.get(data.stop.order_id)?.();
      }
    }
  })();
  await snapshot;
  const routes = (
    await sql<{ id: number; driver_user_id: number; order_id: number }>`
      SELECT r.id, r.driver_user_id, s.order_id FROM routes r JOIN route_stops s ON s.route_id = r.id
      WHERE r.business_id = ${businessId} AND s.sequence = 1 ORDER BY r.id`.execute(db)
  ).rows;
  const tokenOf = new Map(drivers.map((driver) => [driver.id, driver.token]));
  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  say(`Completing ${COMPLETIONS + WARMUP} stops through the other instance, one after the other ...`);
  for (let n = 0; n < Math.min(COMPLETIONS + WARMUP, routes.length * STOPS); n++) {
    const route = routes[n % routes.length]!;
    const orderId =
      n < routes.length
        ? route.order_id
        : (
            await sql<{ order_id: number }>`
              SELECT order_id FROM route_stops WHERE route_id = ${route.id} AND status = 'pending'
              ORDER BY sequence LIMIT 1`.execute(db)
          ).rows[0]!.order_id;
    const arrived = new Promise<void>((resolve) => waiters.set(orderId, resolve));
    const sent = performance.now();
    const response = await fetch(`${writerUrl}/api/v1/driver/routes/${route.id}/stops/${orderId}/complete`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf.get(route.driver_user_id)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        client_id: `c-${orderId}`,
        device_time: new Date().toISOString(),
        outcome: 'delivered',
        recipient: 'Concierge',
      }),
    });
    const answered = performance.now();
    if (response.status !== 200) throw new Error(`completion refused: ${await response.text()}`);
    await response.arrayBuffer();
    await arrived;
    const at = arrivals.get(orderId)!;
    if (n >= WARMUP) {
      fromAnswer.push(Math.max(0, at - answered));
      fromRequest.push(at - sent);
    }
  }
  abort.abort();

  const row = (label: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (p: number) => percentile(sorted, p).toFixed(1);
    return `| ${label} | ${sorted.length} | ${f(50)} | ${f(95)} | ${f(99)} | ${sorted.at(-1)!.toFixed(1)} |`;
  };
  console.log(
    `| ${ROUTES} routes, ${ORDERS.toLocaleString('en')} orders on them, ${WAITING} waiting | count | p50 ms | p95 ms | p99 ms | max ms |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row('snapshot: `GET /api/v1/client/dispatch/board`', reads));
  console.log(row('delta: write answered (committed) → `stop` at the subscriber', fromAnswer));
  console.log(row('delta: write sent → `stop` at the subscriber', fromRequest));
  say(`Whole run: ${seconds(started)}`);
  await writer.http.close();
  await app.http.close();
  await app.services.boardFeed.stop();
} finally {
  await loader.db.destroy();
  await writerHandle.db.destroy();
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
