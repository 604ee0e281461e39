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

// Dispatcher suggestions of a planned day: ROUTES routes of tomorrow holding ORDERS - UNPLANNED
// orders (each route a sector around the depot, its stops by distance from it), UNPLANNED orders
// of the day on no route and HELD held orders, every WINDOWED-th order with a 10:00-14:00 window
// and every TIGHT-th with 08:00-09:00 (late where it is far down its route), OVERLOADED routes'
// drivers with room for one parcel fewer than their route holds; loaded in SQL (setup only). Then READS reads of GET /api/v1/dispatch/suggestions one after the
// other over HTTP on loopback, each timed at the reader until its last byte.

const ROUTES = knob('ROUTES', 60);
const ORDERS = knob('ORDERS', 2000);
const UNPLANNED = knob('UNPLANNED', 200);
const HELD = knob('HELD', 20);
const WINDOWED = knob('WINDOWED', 10);
const TIGHT = knob('TIGHT', 40);
const OVERLOADED = knob('OVERLOADED', 6);
const READS = knob('READS', 100);
const WARMUP = knob('WARMUP', 5);
const TIME_ZONE = 'Europe/Paris';
const PLANNED = ORDERS - UNPLANNED;

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
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
  const app = await createApp(config, handle.db, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const db = loader.db;
  const tomorrow = formatLocalDateTime(new Date(Date.now() + 86_400_000), TIME_ZONE).slice(0, 10);

  const step = performance.now();
  say(`Loading ${ROUTES} routes holding ${PLANNED} orders, ${UNPLANNED} unplanned and ${HELD} held ...`);
  const { businessId, admin, drivers } = await benchBusiness(app.services.accounts, db, {
    drivers: ROUTES,
    timeZone: TIME_ZONE,
  });
  await sql`UPDATE driver_profiles SET shift_start = '08:00', shift_end = '20:00' WHERE business_id = ${businessId}`.execute(
    db,
  );
  // Orders in a disc of 1 to 15 km around the depot (48.85, 2.35): angle and radius from two hashes of i.
  await sql`
    INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, window_start, window_end,
                        dropoff, created_at, updated_at)
    SELECT ${businessId}, 'S' || i, 'local_delivery', 'D',
           CASE WHEN i <= ${PLANNED} THEN 'PLANNED' WHEN i <= ${ORDERS} THEN 'NEW_ORDER' ELSE 'HOLD' END,
           ${tomorrow}::date,
           CASE WHEN i % ${TIGHT} = 0 THEN '08:00'::time WHEN i % ${WINDOWED} = 0 THEN '10:00'::time END,
           CASE WHEN i % ${TIGHT} = 0 THEN '09:00'::time WHEN i % ${WINDOWED} = 0 THEN '14:00'::time END,
           jsonb_build_object('line1', i || ' Rue de Bercy', 'city', 'Paris',
             'lat', 48.85 + (1 + ((i * 104729) % 1400) / 100.0) * cos(radians(((i * 7919) % 3600) / 10.0)) / 111.2,
             'lng', 2.35 + (1 + ((i * 104729) % 1400) / 100.0) * sin(radians(((i * 7919) % 3600) / 10.0)) / 73.2),
           now(), now()
    FROM generate_series(1, ${ORDERS + HELD}) AS i`.execute(db);
  await sql`
    INSERT INTO packages (business_id, order_id, tracking_number, weight_grams)
    SELECT ${businessId}, o.id, 'SG' || lpad(substr(o.order_ref, 2), 9, '0'), 1500
    FROM orders o WHERE o.business_id = ${businessId}`.execute(db);
  const driverIds = drivers.map((driver) => driver.id);
  await sql`
    INSERT INTO routes (business_id, driver_user_id, route_date, distance_meters, departure, return_time, created_at,
                        depot_id)
    SELECT ${businessId}, d, ${tomorrow}::date, 40000, '08:00', '17:00', now(),
           (SELECT depot_id FROM driver_profiles p WHERE p.business_id = ${businessId} AND p.user_id = d)
    FROM unnest(${sql.val(driverIds)}::bigint[]) AS d`.execute(db);
  // Each route the orders of one sector, nearest the depot first, five minutes apart.
  await sql`
    WITH r AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM routes WHERE business_id = ${businessId}),
         o AS (SELECT id, substr(order_ref, 2)::int AS i FROM orders
               WHERE business_id = ${businessId} AND substr(order_ref, 2)::int <= ${PLANNED}),
         placed AS (SELECT o.id, (((o.i * 7919) % 3600) * ${ROUTES}) / 3600 AS sector,
                           row_number() OVER (PARTITION BY (((o.i * 7919) % 3600) * ${ROUTES}) / 3600
                                              ORDER BY (o.i * 104729) % 1400, o.id) AS sequence
                    FROM o)
    INSERT INTO route_stops (route_id, sequence, order_id, leg, planned_arrival, planned_departure)
    SELECT r.id, p.sequence, p.id, 'delivery',
           make_time((8 + (p.sequence * 8) / 60 % 16)::int, ((p.sequence * 8) % 60)::int, 0),
           make_time((8 + (p.sequence * 8 + 5) / 60 % 16)::int, ((p.sequence * 8 + 5) % 60)::int, 0)
    FROM placed p JOIN r ON r.n = p.sector`.execute(db);
  await sql`
    UPDATE orders o SET route_id = s.route_id, driver_user_id = r.driver_user_id
    FROM route_stops s JOIN routes r ON r.id = s.route_id WHERE s.order_id = o.id`.execute(db);
  await sql`
    UPDATE routes r SET load_count = c.n, load_weight_grams = c.n * 1500
    FROM (SELECT route_id, count(*)::int AS n FROM route_stops GROUP BY route_id) c WHERE c.route_id = r.id`.execute(
    db,
  );
  await sql`
    UPDATE driver_profiles p SET capacity_count = r.load_count - 1
    FROM routes r WHERE r.driver_user_id = p.user_id AND r.business_id = ${businessId}
      AND r.driver_user_id = ANY(${sql.val(driverIds.slice(0, OVERLOADED))}::bigint[])`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  say(`  loaded: ${seconds(step)}`);
  const on = await fetch(`${baseUrl}/api/v1/client/feature-families/operations_agent`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true }),
  });
  if (on.status !== 200) throw new Error(`family refused: ${on.status} ${await on.text()}`);

  const read = async () => {
    const sent = performance.now();
    const response = await fetch(`${baseUrl}/api/v1/dispatch/suggestions?date=${tomorrow}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const bytes = await response.arrayBuffer();
    const ms = performance.now() - sent;
    const body = JSON.parse(Buffer.from(bytes).toString()) as {
      total?: number;
      suggestions?: Array<{ kind: string; write: unknown }>;
    };
    if (response.status !== 200 || body.suggestions === undefined) {
      throw new Error(`unexpected answer: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    return { ms, body, bytes: bytes.byteLength };
  };
  say(`Reading the suggestions ${WARMUP} times to warm up, then ${READS} times ...`);
  for (let n = 0; n < WARMUP; n++) await read();
  const reads: number[] = [];
  let last: Awaited<ReturnType<typeof read>> | undefined;
  for (let n = 0; n < READS; n++) {
    last = await read();
    reads.push(last.ms);
  }
  const kinds: Record<string, number> = {};
  for (const s of last!.body.suggestions!)
    kinds[`${s.kind}${s.write ? '' : ' (no write)'}`] =
      (kinds[`${s.kind}${s.write ? '' : ' (no write)'}`] ?? 0) + 1;
  say(
    `  an answer: ${last!.body.total} suggestions, ${(last!.bytes / 1024).toFixed(0)} KB, ${JSON.stringify(kinds)}`,
  );

  reads.sort((a, b) => a - b);
  const cell = (value: number) => value.toFixed(1);
  console.log('| request | count | p50 | p95 | p99 | max |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(
    `| suggestions | ${reads.length} | ${cell(percentile(reads, 50))} | ${cell(percentile(reads, 95))} | ${cell(percentile(reads, 99))} | ${cell(reads.at(-1)!)} |`,
  );
  await app.http.close();
} finally {
  await loader.db.destroy();
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
  say(`Done in ${seconds(started)}.`);
}
