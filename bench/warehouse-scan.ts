import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { formatLocalDateTime, systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say, seconds } from './support.ts';
import type { ScanJob, ScanKind, ScanResult } from './warehouse-scan-load.ts';

// Warehouse scans against one warehouse holding 100,000 packages: the packages, their orders,
// the day's routes and the warehouse's inventory rows are loaded in SQL (setup only); the scans
// are then sent over HTTP at a fixed rate by scanners in a child process (bench/warehouse-scan-load.ts,
// an open loop: one every 1/RATE s, whether or not the previous one answered), mixing receiving
// scans of parcels coming in, route-sorting scans and double scans, and each answer's time is
// measured at the scanner.

const HELD = knob('HELD', 100_000);
const RATE = knob('RATE', 50);
const SECONDS = knob('SECONDS', 60);
const ROUTES = knob('ROUTES', 40);
const WARMUP = knob('WARMUP', 100);
/** 1: the incoming parcels come in straight from their senders (NEW_ORDER: picked up, then at the warehouse, in one scan). */
const STRAIGHT = knob('STRAIGHT', 0) === 1;
/** 1: the business has webhooks on (order and tracking events): each scan also writes their outbox rows. */
const WEBHOOKS = knob('WEBHOOKS', 0) === 1;
const TIME_ZONE = 'Europe/Paris';
const SCANS = RATE * SECONDS;
/** Each kind of scan gets a third of the ticks. */
const PER_KIND = Math.ceil(SCANS / 3) + WARMUP;

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster (fsync off) ...');
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
    // Nothing is delivered (the outbox worker is not started): the URLs only have to be accepted.
    webhooks: { ...defaults.webhooks, allow: { ...defaults.webhooks.allow, loopback: true } },
  };
  const app = await createApp(config, handle.db, systemClock);
  // The service's own time for each scan (Fastify's, from the request's arrival to its answer's
  // end), beside the scanner's: what the network and the scanner add is their difference.
  const served: Record<'receive' | 'sort', number[]> = { receive: [], sort: [] };
  let measuring = false;
  app.http.addHook('onResponse', async (request, reply) => {
    const endpoint = request.url.split('/').at(-1);
    if (measuring && (endpoint === 'receive' || endpoint === 'sort'))
      served[endpoint].push(reply.elapsedTime);
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const { accounts } = app.services;
  const db = loader.db;

  const businessId = await accounts.createBusiness(db, { code: 'bench', name: 'Bench', timeZone: TIME_ZONE });
  const password = 'bench password';
  await accounts.createUser(db, {
    kind: 'client_admin',
    email: 'admin@bench.test',
    name: 'Admin',
    password,
    businessId,
  });
  const drivers: number[] = [];
  for (let n = 0; n < ROUTES; n++) {
    drivers.push(
      await accounts.createUser(db, {
        kind: 'driver',
        email: `d${n}@bench.test`,
        name: `Driver ${n}`,
        password,
        businessId,
      }),
    );
  }
  const login = (await (
    await fetch(`${baseUrl}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@bench.test', password }),
    })
  ).json()) as { access_token: string };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` };
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of JSON answers
  const call = async (method: string, route: string, body?: unknown): Promise<any> => {
    const answer = await fetch(`${baseUrl}/api${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await answer.json();
    if (answer.status !== 200)
      throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };
  const today = formatLocalDateTime(new Date(), TIME_ZONE).slice(0, 10);

  // ----- the warehouse, through the API -----
  const { warehouse } = await call('POST', '/v1/client/warehouses', {
    code: 'BENCH',
    name: 'Bench warehouse',
    line1: '1 Bench street',
    postal_code: '75012',
    city: 'Paris',
    country: 'FR',
    lat: 48.84,
    lng: 2.38,
    time_zone: TIME_ZONE,
    postal_prefixes: ['75'],
  });
  for (let n = 0; n < ROUTES; n++) {
    await call('POST', `/v1/client/warehouses/${warehouse.id}/locations`, {
      code: `LANE-${n}`,
      kind: 'staging_lane',
      capacity: 1000,
    });
  }

  if (WEBHOOKS) {
    const hooks = 'http://127.0.0.1:9';
    await call('PUT', '/v1/webhook-settings', {
      urls: {
        'order.status_changed': `${hooks}/status`,
        'tracking.event': `${hooks}/tracking`,
      },
      generate_secret: true,
    });
  }

  // ----- setup in SQL: orders with one package each -----
  // 1 .. HELD: at the warehouse already (the first ROUTES x PER_ROUTE of them on today's routes);
  // then PER_KIND picked up and on their way in (STRAIGHT: not yet picked up), for the receiving scans.
  const step = performance.now();
  const incoming = PER_KIND;
  const total = HELD + incoming;
  const perRoute = Math.ceil(PER_KIND / ROUTES);
  const routed = perRoute * ROUTES;
  say(
    `Loading ${total.toLocaleString('en')} orders and packages (${HELD.toLocaleString('en')} held, ${routed} on ${ROUTES} routes) ...`,
  );
  await sql`
    INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, dropoff, created_at, updated_at)
    SELECT ${businessId}, 'W' || i, 'local_delivery', 'D',
           CASE WHEN i <= ${HELD} THEN 'AT_WAREHOUSE' ELSE ${STRAIGHT ? 'NEW_ORDER' : 'PICKED_UP'} END, ${today}::date,
           jsonb_build_object('line1', i || ' Rue de Bercy', 'postal_code', '75012', 'city', 'Paris'),
           now(), now()
    FROM generate_series(1, ${total}) AS i`.execute(db);
  await sql`
    INSERT INTO packages (business_id, order_id, tracking_number)
    SELECT ${businessId}, o.id, 'BW' || lpad(substr(o.order_ref, 2), 9, '0')
    FROM orders o WHERE o.business_id = ${businessId}`.execute(db);
  await sql`
    INSERT INTO routes (business_id, driver_user_id, route_date, distance_meters, departure, return_time, created_at)
    SELECT ${businessId}, d, ${today}::date, 10000, '08:00', '17:00', now()
    FROM unnest(${sql.val(drivers)}::bigint[]) AS d`.execute(db);
  await sql`
    WITH r AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM routes WHERE business_id = ${businessId}),
         o AS (SELECT id, substr(order_ref, 2)::int - 1 AS k FROM orders WHERE business_id = ${businessId}
               AND substr(order_ref, 2)::int <= ${routed})
    INSERT INTO route_stops (route_id, sequence, order_id, leg, planned_arrival, planned_departure)
    SELECT r.id, o.k / ${ROUTES} + 1, o.id, 'delivery', '09:00', '09:05' FROM o JOIN r ON r.n = o.k % ${ROUTES}`.execute(
    db,
  );
  await sql`
    UPDATE orders o SET route_id = s.route_id, driver_user_id = r.driver_user_id
    FROM route_stops s JOIN routes r ON r.id = s.route_id WHERE s.order_id = o.id`.execute(db);
  // The warehouse's inventory: the held packages, received (setup: their movement is not replayed).
  await sql`
    INSERT INTO warehouse_packages (package_id, business_id, warehouse_id, order_id, tracking_number, state,
                                    received_at, last_movement_id, updated_at)
    SELECT p.id, ${businessId}, ${warehouse.id}, p.order_id, p.tracking_number, 'received', now(), 0, now()
    FROM packages p JOIN orders o ON o.id = p.order_id
    WHERE p.business_id = ${businessId} AND o.status = 'AT_WAREHOUSE'`.execute(db);
  // Vacuumed as a warehouse in steady state is: a fresh bulk load would otherwise be vacuumed
  // (and its pages first written again) in the middle of the measurement.
  await sql`VACUUM ANALYZE`.execute(db);
  say(`  loaded: ${seconds(step)}`);
  const held = await call('GET', `/v1/client/inventory?warehouse_id=${warehouse.id}&per_page=1`);
  if (held.total !== HELD) throw new Error(`the warehouse holds ${held.total}, not ${HELD}`);

  // ----- the scans, from a child process -----
  say(`Warming up: ${WARMUP} scans of each kind, one at a time ...`);
  say(`Then scanning: ${SCANS} scans at ${RATE} a second (${SECONDS} s), a third of each kind ...`);
  const scanners = fork(fileURLToPath(new URL('./warehouse-scan-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  const job: ScanJob = {
    baseUrl,
    token: login.access_token,
    warehouseId: warehouse.id,
    date: today,
    first: { receive: HELD + 1, sort: 1, 'double scan': routed + 1 },
    rate: RATE,
    seconds: SECONDS,
    warmup: WARMUP,
  };
  const outcome = await new Promise<{ result?: ScanResult; error?: string }>((resolve) => {
    scanners.on('message', (message: { warmed?: true; result?: ScanResult; error?: string }) => {
      if (message.warmed) measuring = true;
      else resolve(message);
    });
    scanners.send(job);
  });
  measuring = false;
  scanners.kill();
  if (!outcome.result) throw new Error(outcome.error);
  const { times, health, wrong, elapsedSeconds: elapsed } = outcome.result;
  if (wrong.length > 0) throw new Error(`unexpected outcomes: ${wrong.slice(0, 5).join(', ')}`);
  const kinds: ScanKind[] = ['receive', 'sort', 'double scan'];

  const after = await call('GET', `/v1/client/inventory?warehouse_id=${warehouse.id}&per_page=1`);
  say(
    `Sent ${SCANS} scans in ${elapsed.toFixed(1)} s (${(SCANS / elapsed).toFixed(1)} a second); the warehouse now holds ${after.total.toLocaleString('en')} packages.`,
  );
  const row = (label: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (p: number) => percentile(sorted, p).toFixed(1);
    return `| ${label} | ${sorted.length} | ${f(50)} | ${f(95)} | ${f(99)} | ${sorted.at(-1)!.toFixed(1)} |`;
  };
  console.log('| scan | count | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const kind of kinds) console.log(row(kind, times[kind]));
  console.log(
    row(
      'all scans',
      kinds.flatMap((kind) => times[kind]),
    ),
  );
  console.log(row('GET /api/health (reference)', health));
  console.log(row('served: receive (new and double scans)', served.receive));
  console.log(row('served: sort', served.sort));

  // ----- get_inventory over the 100,000 packages, one call at a time -----
  const INVENTORY_CALLS = 30;
  say(`Reading the inventory: ${INVENTORY_CALLS} calls of each kind, one at a time ...`);
  const reads: Record<string, string> = {
    'get_inventory, first page (50) and counts': `warehouse_id=${warehouse.id}&per_page=50`,
    'get_inventory, a late page (page 1,000)': `warehouse_id=${warehouse.id}&per_page=50&page=1000`,
    'get_inventory, one route': `warehouse_id=${warehouse.id}&route_id=${(await call('GET', `/v1/client/inventory?warehouse_id=${warehouse.id}&state=sorted&per_page=1`)).packages[0].route_id}`,
    'get_inventory, one tracking number': `tracking_number=BW000050000`,
  };
  for (const [label, query] of Object.entries(reads)) {
    const spent: number[] = [];
    for (let i = 0; i < INVENTORY_CALLS; i++) {
      const sent = performance.now();
      await call('GET', `/v1/client/inventory?${query}`);
      spent.push(performance.now() - sent);
    }
    console.log(row(label, spent));
  }
  say(`Whole run: ${seconds(started)}`);
  await app.http.close();
} finally {
  await loader.db.destroy();
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
