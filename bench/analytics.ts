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
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say, seconds } from './support.ts';

// The analytics operations at 1,000,000 orders of one business: orders and their audit trail
// loaded in SQL, the rollup made by the rebuild production uses (`tms analytics rebuild`), then
// get_orders_summary and daily_digest timed over HTTP, one call at a time, beside GET /health in
// the same run (the machine is shared: the ratio is what compares across runs).

const ORDERS = knob('ORDERS', 1_000_000);
const DAYS = knob('DAYS', 400);
const CUSTOMERS = knob('CUSTOMERS', 50);
const DRIVERS = knob('DRIVERS', 20);
const CALLS = knob('CALLS', 300);
const WARMUP = knob('WARMUP', 30);
const TIME_ZONE = 'Europe/Paris';

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster (fsync off) ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
// The service with its own pool and statement limit, as in production; the loading without a limit.
const handle = openDatabase(cluster.url);
const loader = openDatabase(cluster.url, { timeouts: 'none', maxConnections: 2 });
try {
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const config = { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) };
  const app = await createApp(config, handle.db, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const { accounts, analytics } = app.services;
  const db = loader.db;

  const businessId = await accounts.createBusiness(db, { code: 'bench', name: 'Bench', timeZone: TIME_ZONE });
  const user = (kind: 'client_admin' | 'customer' | 'driver', n: number) =>
    accounts.createUser(db, {
      kind,
      email: `${kind}-${n}@bench.test`,
      name: `${kind} ${n}`,
      password: 'bench password',
      businessId,
    });
  const adminId = await user('client_admin', 0);
  const customers: number[] = [];
  for (let n = 0; n < CUSTOMERS; n++) customers.push(await user('customer', n));
  const drivers: number[] = [];
  for (let n = 0; n < DRIVERS; n++) drivers.push(await user('driver', n));
  const today = formatLocalDateTime(new Date(), TIME_ZONE).slice(0, 10);
  const firstDay = new Date(`${today}T00:00:00Z`);
  firstDay.setUTCDate(firstDay.getUTCDate() - DAYS);

  // ----- orders: DAYS days up to now, in the business's local time -----
  let step = performance.now();
  say(`Loading ${ORDERS.toLocaleString('en')} orders over ${DAYS} days ...`);
  // Each order: a seeded fraction u picks family, customer, window, price and fate, so runs load the same rows.
  await sql`
    INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, window_start, window_end,
                        dropoff, customer_user_id, currency, shipping_price_minor, surcharges, created_at, updated_at)
    SELECT ${businessId}, 'B' || i, g.family, CASE WHEN g.family = 'local_delivery' THEN 'D' END,
           'NEW_ORDER', (g.created AT TIME ZONE ${TIME_ZONE})::date + (i % 2)::int,
           CASE WHEN i % 10 < 6 THEN CASE WHEN i % 3 = 0 THEN time '09:00' ELSE time '13:00' END END,
           CASE WHEN i % 10 < 6 THEN CASE WHEN i % 3 = 0 THEN time '12:00' ELSE time '18:00' END END,
           '{"line1":"1 Main street"}'::jsonb,
           CASE WHEN i % 5 = 0 THEN NULL ELSE (${sql.val(customers)}::bigint[])[1 + (i * 7919) % ${CUSTOMERS}] END,
           'EUR', 500 + (i * 31) % 2500,
           CASE WHEN i % 3 = 0 THEN '[{"code":"fuel","amount_minor":120}]'::jsonb END,
           g.created, g.created
    FROM generate_series(1::bigint, ${ORDERS}) AS i,
    LATERAL (SELECT
      ${firstDay.toISOString()}::timestamptz + (i::float8 / ${ORDERS}) * ${DAYS} * interval '1 day'
        + ((i * 104729) % 3600) * interval '1 second' AS created,
      CASE WHEN i % 100 < 70 THEN 'local_delivery' WHEN i % 100 < 80 THEN 'shipping_service'
           WHEN i % 100 < 88 THEN 'label_service' WHEN i % 100 < 93 THEN 'ltl_service'
           WHEN i % 100 < 96 THEN 'storage_service' WHEN i % 100 < 98 THEN 'moving_service'
           ELSE 'device_order' END AS family) g`.execute(db);
  say(`  orders: ${seconds(step)}`);

  // ----- fates, written to the order and its audit trail as the status changes would -----
  step = performance.now();
  say(
    'Writing fates and the audit trail (created, delivered on time or late, failed, returned, cancelled) ...',
  );
  const now = new Date().toISOString();
  // The fate of each order finished by now: 84 % delivered (a tenth of those with a window late), 4 % failed
  // then returned, 4 % failed and still waiting, 5 % cancelled; the last two days' partly open.
  await sql`
    CREATE TEMP TABLE fates AS
    SELECT o.id, o.created_at, o.window_start, o.window_end, o.scheduled_date,
           CASE WHEN o.id % 100 < 84 THEN 'DELIVERED' WHEN o.id % 100 < 88 THEN 'RETURNED'
                WHEN o.id % 100 < 92 THEN 'FAILED_ATTEMPT' WHEN o.id % 100 < 97 THEN 'CANCELLED'
                ELSE 'OUT_FOR_DELIVERY' END AS fate,
           ((o.scheduled_date + coalesce(o.window_start, time '10:00'))
             + ((o.id * 37) % 150 + CASE WHEN o.id % 10 = 3 THEN 400 ELSE 0 END) * interval '1 minute')
             AT TIME ZONE ${TIME_ZONE} AS done_at
    FROM orders o WHERE o.business_id = ${businessId}`.execute(db);
  await sql`DELETE FROM fates WHERE done_at > ${now}::timestamptz`.execute(db);
  await sql`
    UPDATE orders o SET status = f.fate, updated_at = f.done_at FROM fates f WHERE o.id = f.id`.execute(db);
  await sql`
    INSERT INTO order_events (business_id, order_id, at, source, action, changes)
    SELECT ${businessId}, id, created_at, 'rest', 'created', '{"status":{"from":null,"to":"NEW_ORDER"}}'::jsonb
    FROM orders WHERE business_id = ${businessId}`.execute(db);
  say(`  created events: ${seconds(step)}`);
  await sql`
    INSERT INTO order_events (business_id, order_id, at, source, action, changes)
    SELECT ${businessId}, id, done_at - interval '90 minutes', 'rest', 'status_changed',
           '{"status":{"from":"NEW_ORDER","to":"PICKED_UP"}}'::jsonb
    FROM fates WHERE fate <> 'CANCELLED'`.execute(db);
  say(`  pickups: ${seconds(step)}`);
  await sql`
    INSERT INTO order_events (business_id, order_id, at, source, action, changes)
    SELECT ${businessId}, id,
           CASE WHEN fate = 'RETURNED' THEN done_at - interval '30 minutes' ELSE done_at END,
           'rest', 'status_changed',
           CASE fate
             WHEN 'CANCELLED' THEN '{"status":{"from":"NEW_ORDER","to":"CANCELLED"}}'::jsonb
             WHEN 'OUT_FOR_DELIVERY' THEN '{"status":{"from":"PICKED_UP","to":"OUT_FOR_DELIVERY"}}'::jsonb
             WHEN 'DELIVERED' THEN '{"status":{"from":"PICKED_UP","to":"DELIVERED"}}'::jsonb
             ELSE jsonb_build_object('status', '{"from":"PICKED_UP","to":"FAILED_ATTEMPT"}'::jsonb,
                    'incident_reason', jsonb_build_object('from', NULL, 'to', jsonb_build_object('code',
                      (ARRAY['recipient_absent','address_not_found','refused','damaged'])[1 + id % 4])))
           END
    FROM fates`.execute(db);
  await sql`
    INSERT INTO order_events (business_id, order_id, at, source, action, changes)
    SELECT ${businessId}, id, done_at, 'rest', 'status_changed',
           '{"status":{"from":"FAILED_ATTEMPT","to":"RETURNED"},"return_reason":{"from":null,"to":{"code":"refused"}}}'::jsonb
    FROM fates WHERE fate = 'RETURNED'`.execute(db);
  say(`  outcomes: ${seconds(step)}`);

  // ----- routes: each driver one route a day; stops for the last fortnight's orders -----
  step = performance.now();
  await sql`
    INSERT INTO routes (business_id, driver_user_id, route_date, distance_meters, departure, return_time, created_at)
    SELECT ${businessId}, d.driver, day::date, 40000 + (d.n * 1733) % 30000, time '08:00', time '17:00', day
    FROM generate_series(${firstDay.toISOString()}::date, ${today}::date, interval '1 day') AS day,
         unnest(${sql.val(drivers)}::bigint[]) WITH ORDINALITY AS d(driver, n)`.execute(db);
  await sql`
    INSERT INTO route_stops (route_id, sequence, order_id, planned_arrival, planned_departure)
    SELECT r.id, row_number() OVER (PARTITION BY r.id ORDER BY o.id), o.id, time '09:00', time '09:05'
    FROM orders o
    JOIN LATERAL (
      SELECT id FROM routes WHERE business_id = ${businessId} AND route_date = o.scheduled_date
      ORDER BY id OFFSET (o.id % ${DRIVERS}) LIMIT 1
    ) r ON true
    WHERE o.business_id = ${businessId} AND o.family = 'local_delivery'
      AND o.scheduled_date >= ${today}::date - 15`.execute(db);
  await sql`DROP TABLE fates`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  const [{ events }] = (
    await sql<{ events: number }>`SELECT count(*)::int AS events FROM order_events`.execute(db)
  ).rows as [{ events: number }];
  say(
    `  routes, stops, VACUUM ANALYZE: ${seconds(step)}; ${events.toLocaleString('en')} audit events in all`,
  );

  // ----- the rollup, as production builds it for a database that already holds orders -----
  step = performance.now();
  say('Rebuilding the analytics rollup (the path of `tms analytics rebuild`) ...');
  const written = await analytics.rebuild(db, businessId, (what) => say(`  ${seconds(step)} ${what}`));
  const rebuildSeconds = (performance.now() - step) / 1000;
  say(`  rebuilt in ${rebuildSeconds.toFixed(1)} s: ${JSON.stringify(written)}`);
  await sql`VACUUM ANALYZE`.execute(db);

  // ----- the calls -----
  const token = async (userId: number) => (await accounts.issueToken(db, { userId, kind: 'personal' })).token;
  const admin = await token(adminId);
  const customer = await token(customers[0]!);
  const yearAgo = new Date(`${today}T00:00:00Z`);
  yearAgo.setUTCDate(yearAgo.getUTCDate() - 365);
  const calls: Array<{ name: string; path: string; token?: string }> = [
    { name: 'GET /health (reference)', path: '/api/health' },
    { name: 'summary today', path: '/api/v1/analytics/orders-summary?period=today', token: admin },
    { name: 'summary week', path: '/api/v1/analytics/orders-summary?period=week', token: admin },
    { name: 'summary month', path: '/api/v1/analytics/orders-summary?period=month', token: admin },
    {
      name: 'summary 366 days',
      path: `/api/v1/analytics/orders-summary?from=${yearAgo.toISOString().slice(0, 10)}&to=${today}`,
      token: admin,
    },
    {
      name: "summary a customer's month",
      path: '/api/v1/analytics/orders-summary?period=month',
      token: customer,
    },
    { name: 'daily digest (yesterday)', path: '/api/v1/analytics/daily-digest', token: admin },
  ];
  const once = async (call: (typeof calls)[number]) => {
    const t0 = performance.now();
    const response = await fetch(baseUrl + call.path, {
      headers: call.token ? { authorization: `Bearer ${call.token}` } : {},
    });
    const body = await response.text();
    const ms = performance.now() - t0;
    if (response.status !== 200) throw new Error(`${call.name}: ${response.status} ${body}`);
    return { ms, body };
  };

  // What the range summary says against the orders table itself.
  const range = JSON.parse((await once(calls[4]!)).body);
  const [direct] = (
    await sql<{ created: number; delivered: number }>`
      SELECT count(*) FILTER (WHERE (created_at AT TIME ZONE ${TIME_ZONE})::date BETWEEN ${range.period.from}::date AND ${range.period.to}::date)::int AS created,
             (SELECT count(*) FROM order_events e WHERE e.business_id = ${businessId}
                AND e.changes -> 'status' ->> 'to' = 'DELIVERED'
                AND (e.at AT TIME ZONE ${TIME_ZONE})::date BETWEEN ${range.period.from}::date AND ${range.period.to}::date)::int AS delivered
      FROM orders WHERE business_id = ${businessId}`.execute(db)
  ).rows;
  say(
    `366-day summary: created ${range.created} (orders table: ${direct!.created}), delivered ${range.delivered} ` +
      `(audit trail: ${direct!.delivered}), on-time rate ${range.on_time.rate}`,
  );
  if (range.created !== direct!.created || range.delivered !== direct!.delivered) {
    throw new Error('the rollup disagrees with the orders');
  }

  say(`Timing ${CALLS} calls of each (after ${WARMUP} warm-up calls), one at a time, interleaved ...`);
  for (let i = 0; i < WARMUP; i++) for (const call of calls) await once(call);
  const times = new Map(calls.map((call) => [call.name, [] as number[]]));
  for (let i = 0; i < CALLS; i++) {
    for (const call of calls) times.get(call.name)!.push((await once(call)).ms);
  }
  const reference = [...times.get(calls[0]!.name)!].sort((a, b) => a - b);
  const rows = calls.map((call) => {
    const sorted = [...times.get(call.name)!].sort((a, b) => a - b);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p)) as [number, number, number];
    return `| ${call.name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${p99.toFixed(1)} | ${(p50 / percentile(reference, 50)).toFixed(1)} |`;
  });
  process.stdout.write(
    [
      `${ORDERS.toLocaleString('en')} orders over ${DAYS} days, ${events.toLocaleString('en')} audit events; ` +
        `rollup rebuilt in ${rebuildSeconds.toFixed(1)} s (${JSON.stringify(written)}); whole run ${seconds(started)}`,
      '',
      '| call | p50 ms | p95 ms | p99 ms | p50 / reference p50 |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  await app.http.close();
} finally {
  await handle.db.destroy();
  await loader.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
