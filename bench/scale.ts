/**
 * Several instances on one PostgreSQL and one Redis (docs/scaling.md):
 * 1. the throughput of a mixed read/write workload with 1, 2 and 3 `tms serve` processes, the
 *    load spread over them in turn as a round-robin balancer would;
 * 2. the time from a job's enqueue to its start, with jobs posted at 50 a second.
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). On a 2-core machine the instances,
 * PostgreSQL and the load generator share two cores: more instances can only add as much as the
 * cores left idle by one, which is the point of the measure.
 *
 *   node --import tsx bench/scale.ts        (SECONDS=20 CONNECTIONS=24 JOBS_PER_SECOND=50 JOB_SECONDS=10)
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { createServices } from '../src/services.ts';
import { send } from './kept-alive.ts';
import type { MixedRequest, ScaleLoad, ScaleResult } from './scale-load.ts';
import { freePort, knob, percentile, say, seconds } from './support.ts';

const SECONDS = knob('SECONDS', 20);
const CONNECTIONS = knob('CONNECTIONS', 24);
const JOBS_PER_SECOND = knob('JOBS_PER_SECOND', 50);
const JOB_SECONDS = knob('JOB_SECONDS', 10);
const ORDERS = 1_000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Instance {
  baseUrl: string;
  child: ChildProcess;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/main.ts'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), MQTT_PORT: '0', LOG_LEVEL: 'warn' },
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('TMS listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`an instance ended (${code}):\n${output}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child };
}

async function stopInstance(instance: Instance): Promise<void> {
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await exited;
}

/** The machine's CPU time so far, busy and in all, over every core. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

/** The share of the machine's cores busy between two readings (the instances, PostgreSQL and the load alike). */
function busyShare(before: { busy: number; total: number }, after: { busy: number; total: number }): number {
  return (after.busy - before.busy) / (after.total - before.total);
}

function runLoad(load: ScaleLoad): Promise<ScaleResult> {
  const child = fork(path.resolve('bench/scale-load.ts'), { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: ScaleResult; error?: string }) =>
      message.result ? resolve(message.result) : reject(new Error(message.error)),
    );
    child.send(load);
  });
}

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const services = createServices(loadConfig({ LOG_LEVEL: 'silent' }), systemClock);
const businessId = await services.accounts.createBusiness(handle.db, {
  code: 'bench-scale',
  name: 'Bench scale',
});
const adminId = await services.accounts.createUser(handle.db, {
  kind: 'client_admin',
  email: 'admin@bench-scale.test',
  name: 'Bench admin',
  password: null,
  businessId,
});
const { token } = await services.accounts.issueToken(handle.db, { userId: adminId, kind: 'personal' });
const env = {
  DATABASE_URL: cluster.url,
  REDIS_URL,
  REDIS_PREFIX: `tms-bench-${process.pid}`,
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
  RATE_LIMIT_BUSINESS_PER_MINUTE: '10000000',
  RATE_LIMIT_ADDRESS_PER_MINUTE: '1000000',
  EXPENSIVE_CONCURRENCY_PER_BUSINESS: '1000',
};
const instances: Instance[] = [];
try {
  say('Starting the first instance ...');
  instances.push(await startInstance(env));
  // The bulk intake takes 100 orders a call.
  for (let batch = 0; batch < ORDERS / 100; batch++) {
    const seeded = await send(`${instances[0]!.baseUrl}/api/v1/client/orders/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        orders: Array.from({ length: 100 }, (_, n) => ({
          order_ref: `SCALE-${batch}-${n}`,
          dropoff: { line1: `${n} Main St` },
        })),
      }),
    });
    if (seeded.status !== 200) throw new Error(`seeding: ${seeded.status} ${seeded.body.slice(0, 300)}`);
  }
  const orders = (await handle.db
    .selectFrom('orders')
    .innerJoin('packages', 'packages.order_id', 'orders.id')
    .select(['orders.id', 'packages.tracking_number'])
    .where('orders.business_id', '=', businessId)
    .execute()) as Array<{ id: number; tracking_number: string }>;
  // Seven reads for three writes: a console's and a tracking page's reads, a shop's orders.
  const mix: MixedRequest[] = [];
  for (let n = 0; n < 100; n++) {
    const order = orders[(n * 37) % orders.length]!;
    mix.push({ label: 'GET order', method: 'GET', path: `/v1/client/orders/${order.id}` });
    mix.push({ label: 'GET tracking', method: 'GET', path: `/v1/tracking/${order.tracking_number}` });
    if (n % 2 === 0)
      mix.push({ label: 'GET orders list', method: 'GET', path: '/v1/client/orders?limit=20' });
    mix.push({
      label: 'POST orderCreate',
      method: 'POST',
      path: '/v1/client/orderCreate',
      body: JSON.stringify({ dropoff: { line1: `${n} Load St` } }),
    });
    if (n % 2 === 1) mix.push({ label: 'GET order', method: 'GET', path: `/v1/client/orders/${order.id}` });
  }

  const rows: string[] = [];
  for (const count of [1, 2, 3]) {
    while (instances.length < count) {
      say(`Starting instance ${instances.length + 1} ...`);
      instances.push(await startInstance(env));
    }
    say(`${count} instance(s): ${CONNECTIONS} connections for ${SECONDS} s ...`);
    const before = cpuTimes();
    const started = performance.now();
    const result = await runLoad({
      baseUrls: instances.map((instance) => instance.baseUrl),
      token,
      mix,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const busy = busyShare(before, cpuTimes());
    say(
      `  ${Math.round(result.perSecond)} answers a second, cores ${Math.round(busy * 100)} % busy (${seconds(started)})`,
    );
    if (result.wrong.length > 0) say(`  not 200: ${result.wrong.slice(0, 3).join(' | ')}`);
    const labels = Object.entries(result.byLabel)
      .map(([label, at]) => `${label} ${at.p50.toFixed(1)} / ${at.p99.toFixed(1)}`)
      .join('; ');
    rows.push(
      `| ${count} | ${Math.round(result.perSecond)} | ${Math.round(busy * 100)} % | ${result.failed} | ${labels} |`,
    );
  }
  process.stdout.write(
    `\n| instances | answers a second | cores busy | not 200 | p50 / p99 ms by request |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`,
  );

  // Jobs posted at JOBS_PER_SECOND, in turn to the three instances (each runs jobs, 2 at a time):
  // a one-line address import asked to run as a job, so the queue is measured, not the work.
  const total = JOBS_PER_SECOND * JOB_SECONDS;
  say(`${total} jobs at ${JOBS_PER_SECOND} a second ...`);
  const posting = performance.now();
  const accepted: Array<Promise<{ status: number; body: string }>> = [];
  for (let n = 0; n < total; n++) {
    const wait = posting + (n * 1000) / JOBS_PER_SECOND - performance.now();
    if (wait > 0) await sleep(wait);
    accepted.push(
      send(`${instances[n % instances.length]!.baseUrl}/api/v1/client/addresses/import`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          prefer: 'respond-async',
        },
        body: JSON.stringify({ csv: `label,line1\nJob ${n},${n} Queue St\n` }),
      }),
    );
  }
  const answers = await Promise.all(accepted);
  const refusedJobs = answers.filter((answer) => answer.status !== 202);
  if (refusedJobs.length > 0)
    say(`  not accepted: ${refusedJobs.length} (${refusedJobs[0]!.body.slice(0, 200)})`);
  const ids = answers
    .filter((answer) => answer.status === 202)
    .map((answer) => JSON.parse(answer.body).job.id as string);
  const finished = () =>
    handle.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('id', 'in', ids)
      .where('status', 'in', ['succeeded', 'failed'])
      .executeTakeFirstOrThrow();
  while (Number((await finished()).count) < ids.length) await sleep(250);
  const jobs = (await handle.db
    .selectFrom('jobs')
    .select(['created_at', 'started_at', 'finished_at', 'status'])
    .where('id', 'in', ids)
    .execute()) as Array<{ created_at: Date; started_at: Date; finished_at: Date; status: string }>;
  const waits = jobs.map((job) => job.started_at.getTime() - job.created_at.getTime()).sort((a, b) => a - b);
  const runs = jobs.map((job) => job.finished_at.getTime() - job.started_at.getTime()).sort((a, b) => a - b);
  const failedJobs = jobs.filter((job) => job.status !== 'succeeded').length;
  process.stdout.write(
    `\n| jobs | a second | failed | enqueue to start p50 / p90 / p99 / max ms | run p50 ms |\n| --- | --- | --- | --- | --- |\n` +
      `| ${ids.length} | ${JOBS_PER_SECOND} | ${failedJobs} | ${[50, 90, 99].map((p) => percentile(waits, p)).join(' / ')} / ${waits.at(-1)} | ${percentile(runs, 50)} |\n`,
  );
} finally {
  for (const instance of instances) await stopInstance(instance).catch(() => {});
  await handle.close();
  await cluster.stop();
}
