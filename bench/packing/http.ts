/**
 * A 500-piece packing plan over HTTP: POST /api/v1/client/packing-plans on loopback against a
 * running service (its embedded PostgreSQL, the 12-carton catalog of the carton bench), timed at
 * the caller from request to the answer's last byte: what an integrator waits. The solver runs on
 * its thread with the operation's default budget (time_limit_ms 1000), so the figure is that
 * budget plus reading, checking, writing and answering the plan. Also a 2,000-box load plan of a
 * 40' high cube, the loading planner's largest.
 *
 *   node --import tsx bench/packing/http.ts    (PLANS=10 PIECES=500 LOAD_BOXES=2000)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { mulberry32 } from '../../src/platform/random.ts';
import { benchBusiness } from '../day.ts';
import { withoutRequestLimits } from '../limits.ts';
import { knob, percentile, say, seconds } from '../support.ts';
import { benchCatalog, generateOrder } from './carton-orders.ts';

const PLANS = knob('PLANS', 10);
const PIECES = knob('PIECES', 500);
const LOAD_BOXES = knob('LOAD_BOXES', 2000);

const started = performance.now();
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
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  const { admin } = await benchBusiness(app.services.accounts, handle.db, {
    drivers: 0,
    timeZone: 'Europe/Paris',
  });
  const post = async (url: string, body: unknown) => {
    const at = performance.now();
    const response = await fetch(baseUrl + url, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - at, body: JSON.parse(text), bytes: text.length };
  };
  for (const carton of benchCatalog()) {
    await post('/api/v1/client/packaging', {
      name: `Box ${carton.id}`,
      inner: { length_mm: carton.inner.length, width_mm: carton.inner.width, height_mm: carton.inner.height },
      outer: { length_mm: carton.outer.length, width_mm: carton.outer.width, height_mm: carton.outer.height },
      tare_grams: carton.tareGrams,
      max_gross_grams: carton.maxGrossGrams,
      cost: carton.costMinor / 100,
      currency: 'EUR',
    });
  }

  say(`${PLANS} plans of ${PIECES} pieces (in lines of 1 to 3), one after the other ...`);
  const random = mulberry32(7);
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof post>> | undefined;
  // One warm-up: the solver thread starts on first use.
  for (let n = 0; n <= PLANS; n++) {
    const items = generateOrder(random, PIECES).map((item) => ({
      length_mm: item.dimensions.length,
      width_mm: item.dimensions.width,
      height_mm: item.dimensions.height,
      weight_grams: item.weightGrams,
      quantity: item.quantity,
      may_rotate: item.mayRotate ?? true,
      this_side_up: item.thisSideUp ?? false,
    }));
    last = await post('/api/v1/client/packing-plans', { items, target_utilization_percent: 90 });
    if (n > 0) times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  const plan = last!.body.plan;
  say(
    `  last answer: ${plan.totals.package_count} packages, ${plan.unfit.length} unfit lines, ` +
      `search ${plan.search.elapsed_ms} ms, ${(last!.bytes / 1024).toFixed(0)} KB`,
  );

  say(`A load plan of ${LOAD_BOXES} boxes in a 40' high cube ...`);
  const loadItems = Array.from({ length: 20 }, (_, n) => ({
    length_mm: 300 + ((n * 37) % 400),
    width_mm: 250 + ((n * 53) % 300),
    height_mm: 200 + ((n * 71) % 300),
    weight_grams: 5000 + n * 500,
    quantity: LOAD_BOXES / 20,
  }));
  const load = await post('/api/v1/client/load-plans', { space: 'iso-40-hc', items: loadItems });

  const cell = (value: number) => value.toFixed(0);
  console.log('| request | count | p50 ms | p95 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| packing plan, ${PIECES} pieces | ${times.length} | ${cell(percentile(times, 50))} | ${cell(percentile(times, 95))} | ${cell(times.at(-1)!)} |`,
  );
  console.log(
    `| load plan, ${LOAD_BOXES} boxes, 40' HC (${load.body.plan.placements.length} placed, ${load.body.plan.volume_percent} %) | 1 | ${cell(load.ms)} | | |`,
  );
  await app.http.close();
} finally {
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
  say(`Done in ${seconds(started)}.`);
}
