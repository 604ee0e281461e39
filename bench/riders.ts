/**
 * Instant riders under load: RIDERS online riders pinging every PING_SECONDS (1,000 every 5 s:
 * 200 pings a second over kept-alive HTTP) while ORDERS_PER_SECOND instant orders a second are
 * created (20). Two figures: from an order's creation request being sent to its first offer push
 * reaching a rider's MQTT subscription (targets: p99 < 200 ms), and a ping's request to its
 * answer (p99 < 20 ms).
 *
 *   node --import tsx bench/riders.ts     (RIDERS=1000 PING_SECONDS=5 ORDERS_PER_SECOND=20 SECONDS=30 WARMUP=5)
 *
 * The service runs in this process on a throwaway embedded PostgreSQL with its embedded MQTT
 * broker and outbox worker (what `tms serve` runs); the phones and the dispatcher run in a child
 * process of their own (bench/riders-load.ts). Riders are granted in SQL (setup only) and spread
 * over a 6 km square; each goes online through the API and holds its own MQTT connection. The
 * business offers each order to one rider at a time for 30 s (the defaults); nobody answers, so
 * each order holds one rider's offer for the run (30 s: at most 600 of the 1,000 riders).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { benchBusiness } from './day.ts';
import { withoutRequestLimits } from './limits.ts';
import type { RidersJob, RidersResult } from './riders-load.ts';
import { knob, percentile, say } from './support.ts';

const RIDERS = knob('RIDERS', 1000);
const PING_SECONDS = knob('PING_SECONDS', 5);
const ORDERS_PER_SECOND = knob('ORDERS_PER_SECOND', 20);
const SECONDS = knob('SECONDS', 30);
const WARMUP = knob('WARMUP', 5);
const CENTER = { lat: 48.8566, lng: 2.3522 };
/** Half the side of the square riders and pickups are spread over, in degrees (about 3 km). */
const SPREAD = 0.027;

const spot = () => ({
  lat: CENTER.lat + (Math.random() * 2 - 1) * SPREAD,
  lng: CENTER.lng + (Math.random() * 2 - 1) * SPREAD * 1.5,
});

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
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
  await app.startBackground(handle.pool);
  const api = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;

  say(`Making ${RIDERS} riders ...`);
  const { businessId, admin, drivers } = await benchBusiness(app.services.accounts, handle.db, {
    drivers: RIDERS,
    timeZone: 'Europe/Paris',
  });
  await sql`
    INSERT INTO riders (driver_user_id, business_id, granted_at)
    SELECT d, ${businessId}, now() FROM unnest(${sql.val(drivers.map((driver) => driver.id))}::bigint[]) AS d`.execute(
    handle.db,
  );
  const job: RidersJob = {
    api,
    broker: app.mqtt.where(),
    topicPrefix: config.mqtt.topicPrefix,
    businessId,
    admin,
    riders: drivers.map((driver) => ({ ...driver, ...spot() })),
    pickups: Array.from({ length: 1000 }, spot),
    pingSeconds: PING_SECONDS,
    ordersPerSecond: ORDERS_PER_SECOND,
    warmupSeconds: WARMUP,
    seconds: SECONDS,
  };

  say(
    `Riders online and subscribed, then ${WARMUP} s of warm-up and ${SECONDS} s measured: ${RIDERS / PING_SECONDS} pings/s, ${ORDERS_PER_SECOND} instant orders/s ...`,
  );
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const child = fork(fileURLToPath(new URL('./riders-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  const result = await new Promise<RidersResult>((resolve, reject) => {
    child.once('message', (message: { result?: RidersResult; error?: string }) =>
      message.error ? reject(new Error(message.error)) : resolve(message.result!),
    );
    child.once('exit', (code) => reject(new Error(`the load generator exited (${code})`)));
    child.send(job);
  });
  child.kill();
  loop.disable();

  const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
  const row = (name: string, values: number[], count: string) =>
    `| ${name} | ${count} | ${ms(values, 50)} | ${ms(values, 90)} | ${ms(values, 99)} | ${ms(values, 100)} |`;
  console.log(
    `${RIDERS} riders (${result.connections} MQTT connections), ${RIDERS / PING_SECONDS} pings/s, ${ORDERS_PER_SECOND} instant orders/s, ${SECONDS} s measured after ${WARMUP} s of warm-up\n`,
  );
  console.log('| measured | count | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(
    row(
      'order created -> first offer push',
      result.firstOffer,
      `${result.offered} of ${result.orders} orders (${result.ordersRefused} refused)`,
    ),
  );
  console.log(row('ping', result.ping, `${result.pings} (${result.pingsRefused} refused)`));
  if (result.ordersRefused + result.pingsRefused > 0)
    console.log(`\nRefused: ${JSON.stringify(result.refusals)}`);
  console.log(
    `\nEvent-loop delay p99: the service ${(loop.percentile(99) / 1e6).toFixed(1)} ms, the load generator ${result.loopDelayP99.toFixed(1)} ms`,
  );
  await app.http.close();
  await app.stopBackground();
} finally {
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
