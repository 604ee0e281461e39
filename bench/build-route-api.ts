/**
 * Route building through the whole service: POST /api/v3/client/build-route over loopback HTTP on
 * a real PostgreSQL (a throwaway embedded cluster), against the solver alone on the same
 * instance in the same run; the answer's search.elapsed_ms splits the call's time into the
 * solver's and the rest (reading the pool, saving routes, planning every order with its event).
 *
 *   [SOLVER_THREADS=2] node --import tsx bench/build-route-api.ts
 *
 * Each seed gets a business of its own with 10 drivers and 200 generated orders. While the build
 * runs, GET /api/health is asked again and again: how many answered, and the slowest, show
 * whether the search ever held the event loop.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { DEFAULT_STRAIGHT_LINE } from '../src/modules/dispatch/roads.ts';
import { haversineMeters } from '../src/modules/dispatch/solver/distance.ts';
import { asDriverProfile, asOrder, generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { solveRoutes } from '../src/modules/dispatch/solver/solve.ts';
import type { Point } from '../src/modules/dispatch/solver/types.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { say } from './support.ts';

const SEEDS = [1, 2, 3];
const DATE = '2026-11-10';
const TIME_LIMIT_MS = 2000;

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent', SOLVER_THREADS: process.env.SOLVER_THREADS });
const config = { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) };
const app = await createApp(config, handle.db, new ManualClock(new Date('2026-11-02T09:30:00Z')));
await app.http.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;

async function call<T = unknown>(method: string, route: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(base + route, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** The service's default stand-in for roads: straight lines times the circuity factor. */
const STRAIGHT_LINES = {
  distance: (a: Point, b: Point) => haversineMeters(a, b) * DEFAULT_STRAIGHT_LINE.circuity,
  speedMetersPerSecond: DEFAULT_STRAIGHT_LINE.speedMetersPerSecond,
};

// Warm up: the solver's first run pays for compiling it, in both columns alike.
solveRoutes({
  ...generateInstance({ stops: 200, vehicles: 10, seed: 99 }),
  ...STRAIGHT_LINES,
  timeLimitMs: TIME_LIMIT_MS,
  seed: 1,
});

// The service keeps its solver threads once started: start them before timing, as a running service has.
await Promise.all(
  Array.from({ length: config.solverThreads }, () =>
    app.services.solvers.run('routes', { input: { stops: [], vehicles: [] } }, 1000),
  ),
);

const rows: string[] = [];
try {
  const { accounts } = app.services;
  for (const seed of SEEDS) {
    say(`Seed ${seed}: creating 10 drivers and 200 orders ...`);
    const instance = generateInstance({ stops: 200, vehicles: 10, seed });
    const businessId = await accounts.createBusiness(handle.db, {
      code: `bench-${seed}`,
      name: `Bench ${seed}`,
    });
    const adminId = await accounts.createUser(handle.db, {
      kind: 'client_admin',
      email: `admin@bench-${seed}.test`,
      name: 'Bench admin',
      password: null,
      businessId,
    });
    const { token } = await accounts.issueToken(handle.db, { userId: adminId, kind: 'personal' });
    const depot = await call<{ depot: { id: number } }>('POST', '/v1/client/depots', token, {
      name: 'Main',
      ...instance.vehicles[0]!.start,
    });
    for (const [index, vehicle] of instance.vehicles.entries()) {
      const driverId = await accounts.createUser(handle.db, {
        kind: 'driver',
        email: `van-${index}@bench-${seed}.test`,
        name: `Van ${index}`,
        password: null,
        businessId,
      });
      await call(
        'PUT',
        `/v1/client/drivers/${driverId}/profile`,
        token,
        asDriverProfile(vehicle, depot.depot.id),
      );
    }
    const orders = instance.stops.map((stop) => asOrder(stop, DATE));
    for (let i = 0; i < orders.length; i += 100) {
      await call('POST', '/v1/client/orders/bulk', token, { orders: orders.slice(i, i + 100) });
    }

    // The solver alone, on the instance as the service sees it (windows rounded to minutes).
    const started = performance.now();
    const alone = solveRoutes({
      ...instance,
      ...STRAIGHT_LINES,
      timeLimitMs: TIME_LIMIT_MS,
      seed: 1,
    });
    const solverMs = performance.now() - started;

    say(`Seed ${seed}: POST /v3/client/build-route ...`);
    const before = performance.now();
    let building = true;
    const building$ = call<{
      totals: { orders: number; assigned: number; routes: number; distance_meters: number };
      search: { elapsed_ms: number };
    }>('POST', '/v3/client/build-route', token, {
      date: DATE,
      time_limit_ms: TIME_LIMIT_MS,
    }).finally(() => {
      building = false;
    });
    const healthMs: number[] = [];
    while (building) {
      const asked = performance.now();
      const health = await fetch(`${base}/health`);
      await health.arrayBuffer();
      if (building) healthMs.push(performance.now() - asked);
    }
    const built = await building$;
    const apiMs = performance.now() - before;
    rows.push(
      `| ${seed} | ${built.totals.orders} | ${built.totals.assigned} | ${built.totals.routes} | ` +
        `${(built.totals.distance_meters / 1000).toFixed(1)} | ${apiMs.toFixed(0)} | ${solverMs.toFixed(0)} | ` +
        `${(alone.totals.distanceMeters / 1000).toFixed(1)} | ${built.search.elapsed_ms} | ` +
        `${(apiMs - built.search.elapsed_ms).toFixed(0)} | ${healthMs.length} | ${Math.max(...healthMs).toFixed(1)} |`,
    );
  }
} finally {
  await app.http.close();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}

process.stdout.write(
  [
    `SOLVER_THREADS=${config.solverThreads}; the solver alone runs one search on the main thread.`,
    '',
    '| seed | pool | assigned | routes | km (API) | API ms | solver alone ms | km (solver alone) | solver in the API ms | API outside the solver ms (pool read, save, plan orders, HTTP) | health answers during the build | slowest health answer ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n'),
);
