import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { formatLocalDateTime, systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { benchBusiness } from './day.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say, seconds } from './support.ts';

// The dispatch board on a day of ROUTES started routes and ROUTES x STOPS orders (loaded in SQL,
// setup only, as bench/working-day.ts does), each driver with POSITIONS reported positions and
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
/** A time zone where it is about 13:00 now: the morning's windows ended, the afternoon's not yet. */
const TIME_ZONE = (() => {
  const ahead = (((13 - new Date().getUTCHours()) % 24) + 24) % 24;
  const offset = ahead > 12 ? ahead - 24 : ahead;
  return offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
})();
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
  const today = formatLocalDateTime(new Date(), TIME_ZONE).slice(0, 10);

  const step = performance.now();
  say(
    `Loading ${ROUTES} started routes, ${ORDERS.toLocaleString('en')} orders on them, ${WAITING} waiting, ${POSITIONS} positions a driver ...`,
  );
  const { businessId, admin, drivers } = await benchBusiness(accounts, db, {
    drivers: ROUTES,
    timeZone: TIME_ZONE,
  });
  const driverIds = drivers.map((driver) => driver.id);
  // Orders 1..ORDERS on the routes, out for delivery, windows spread over the day (some ended); the rest waiting.
  await sql`
    INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, window_start, window_end,
                        dropoff, created_at, updated_at)
    SELECT ${businessId}, 'B' || i, 'local_delivery', 'D',
           CASE WHEN i <= ${ORDERS} THEN 'OUT_FOR_DELIVERY' ELSE 'NEW_ORDER' END, ${today}::date,
           make_time(8 + i % 10, 0, 0), make_time(10 + i % 10, 0, 0),
           jsonb_build_object('name', 'Customer ' || i, 'phone', '+33 1 00 00 ' || i, 'line1', i || ' Rue de Bercy',
                              'postal_code', '75012', 'city', 'Paris',
                              'lat', 48.76 + ((i * 7919) % 1000) / 5000.0, 'lng', 2.22 + ((i * 104729) % 1000) / 3600.0),
           now(), now()
    FROM generate_series(1, ${ORDERS + WAITING}) AS i`.execute(db);
  await sql`
    INSERT INTO packages (business_id, order_id, tracking_number, weight_grams)
    SELECT ${businessId}, o.id, 'BD' || lpad(substr(o.order_ref, 2), 9, '0'), 1500
    FROM orders o WHERE o.business_id = ${businessId}`.execute(db);
  await sql`
    INSERT INTO routes (business_id, driver_user_id, route_date, distance_meters, departure, return_time, created_at,
                        status, started_at, load_count)
    SELECT ${businessId}, d, ${today}::date, 40000, '08:00', '17:00', now(), 'started', now(), ${STOPS}
    FROM unnest(${sql.val(driverIds)}::bigint[]) AS d`.execute(db);
  await sql`
    WITH r AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM routes WHERE business_id = ${businessId}),
         o AS (SELECT id, substr(order_ref, 2)::int - 1 AS k FROM orders
               WHERE business_id = ${businessId} AND substr(order_ref, 2)::int <= ${ORDERS})
    INSERT INTO route_stops (route_id, sequence, order_id, leg, planned_arrival, planned_departure)
    SELECT r.id, o.k / ${ROUTES} + 1, o.id, 'delivery',
           make_time(8 + (o.k / ${ROUTES}) * 25 / 60, (o.k / ${ROUTES}) * 25 % 60, 0),
           make_time(8 + ((o.k / ${ROUTES}) * 25 + 5) / 60, ((o.k / ${ROUTES}) * 25 + 5) % 60, 0)
    FROM o JOIN r ON r.n = o.k % ${ROUTES}`.execute(db);
  await sql`
    UPDATE orders o SET route_id = s.route_id, driver_user_id = r.driver_user_id
    FROM route_stops s JOIN routes r ON r.id = s.route_id WHERE s.order_id = o.id`.execute(db);
  await sql`
    INSERT INTO driver_positions (business_id, driver_user_id, route_id, lat, lng, accuracy_meters, device_time, received_at)
    SELECT ${businessId}, r.driver_user_id, r.id, 48.8 + p / 1000.0, 2.3 + p / 1000.0, 10,
           now() - (p || ' minutes')::interval, now()
    FROM routes r CROSS JOIN generate_series(1, ${POSITIONS}) AS p WHERE r.business_id = ${businessId}`.execute(
    db,
  );
  await sql`VACUUM ANALYZE`.execute(db);
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
