/**
 * Lockers under load: DEVICES simulated lockers (4 compartments each) connected to the embedded
 * MQTT broker with their own credentials and heartbeating every 30 s, while RATE pickups a second
 * are asked for (`POST /api/v1/lockers/open` with the pickup code, public), open loop: each leaves
 * on schedule whatever the earlier ones are doing. Measured for each: from the request being sent
 * to the open command reaching the device's MQTT client (target: p99 < 300 ms), and to its answer.
 *
 *   node --import tsx bench/lockers.ts   (DEVICES=2000 RATE=50 SECONDS=60 WARMUP=5)
 *
 * Knobs besides: CONNECT_BATCH (simulators connected at once, 50), PREP_CONCURRENCY (parcels
 * prepared at once, 16), OUTBOX_CONCURRENCY and OUTBOX_PER_BUSINESS (the service's, when set),
 * OUTBOX_POLL_MS (the outbox worker's fallback poll, a diagnosis knob).
 *
 * The service (HTTP, the embedded broker, the outbox worker) runs in this process on a throwaway
 * embedded PostgreSQL; the DEVICES simulated devices (LockerSimulator, real clock) and the people
 * asking for pickups run in a child process of their own (bench/lockers-load.ts), as they are
 * other machines in life. Every site, device and parcel goes through the API: sites of 50
 * devices, each device registered (its credential from the answer), then each parcel reserved
 * (`POST /lockers/bookings`, round robin over the sites) and deposited with its drop code, the
 * deposit acknowledged by the simulated device before the measured phase. Compartment heights
 * differ a little per device so that "the smallest free compartment" walks over every device of a
 * site before taking a second compartment of any.
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
import { COMMAND_TOPIC } from '../src/modules/lockers/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import type { LockersJob, LockersReport } from './lockers-load.ts';
import { knob, percentile, say, seconds } from './support.ts';

const DEVICES = knob('DEVICES', 2000);
const RATE = knob('RATE', 50);
const SECONDS = knob('SECONDS', 60);
const WARMUP = knob('WARMUP', 5);
const CONNECT_BATCH = knob('CONNECT_BATCH', 50);
const PREP_CONCURRENCY = knob('PREP_CONCURRENCY', 16);
const COMPARTMENTS = 4;
const DEVICES_PER_SITE = 50;
const SITES = Math.ceil(DEVICES / DEVICES_PER_SITE);
const PARCELS = Math.round(RATE * (WARMUP + SECONDS));
// biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of known answers
type Answer = { status: number; body: any };

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
const probe = openDatabase(cluster.url, { timeouts: 'none', maxConnections: 1 });
try {
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const config = {
    ...defaults,
    databaseUrl: cluster.url,
    limits: { ...withoutRequestLimits(defaults.limits), refusalDelayMs: 0 },
    mqtt: { ...defaults.mqtt, port: 0 },
    outboxConcurrency: knob('OUTBOX_CONCURRENCY', defaults.outboxConcurrency),
    outboxPerBusiness: knob('OUTBOX_PER_BUSINESS', defaults.outboxPerBusiness),
  };
  const app = await createApp(config, handle.db, systemClock);
  // The service's own time for each opening (Fastify's, from the request's arrival to its answer's end).
  const served: number[] = [];
  let measuring = false;
  app.http.addHook('onResponse', async (request, reply) => {
    if (measuring && request.method === 'POST' && request.url === '/api/v1/lockers/open')
      served.push(reply.elapsedTime);
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  // A diagnosis knob: the outbox worker's fallback poll (2 s), set before it starts (bench only).
  if (process.env.OUTBOX_POLL_MS)
    (app.outbox as unknown as { options: { pollMs: number } }).options.pollMs = knob('OUTBOX_POLL_MS', 2_000);
  await app.startBackground(handle.pool);
  const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;
  const brokerUrl = app.mqtt.where();

  // When the outbox worker hands each command to the broker: the service's side of the path.
  const publishedAt = new Map<string, number>();
  const publish = app.mqtt.publish.bind(app.mqtt);
  app.mqtt.publish = (topic: string, payload: string) => {
    if (topic.endsWith('/commands'))
      publishedAt.set((JSON.parse(payload) as { id: string }).id, performance.timeOrigin + performance.now());
    return publish(topic, payload);
  };

  // The outbox worker seen from outside (its private claim and handlers wrapped, bench only): how
  // long each claim takes and how many messages it brings, how long each topic's handler takes.
  const claims: number[] = [];
  const claimed: number[] = [];
  // Commands the claim's scan took rather than their own notification (a full worker, a lost one).
  let scannedCommands = 0;
  const handled: Record<string, number[]> = {};
  const worker = app.outbox as unknown as {
    claim(slots: number): Promise<Array<{ topic: string }>>;
    handlers: Map<string, (message: unknown) => Promise<unknown>>;
  };
  const claim = worker.claim.bind(worker);
  worker.claim = async (slots) => {
    const since = performance.now();
    const batch = await claim(slots);
    if (measuring) {
      claims.push(performance.now() - since);
      claimed.push(batch.length);
      scannedCommands += batch.filter((message) => message.topic === COMMAND_TOPIC).length;
    }
    return batch;
  };
  for (const [topic, handler] of worker.handlers) {
    const times: number[] = [];
    handled[topic] = times;
    worker.handlers.set(topic, async (message) => {
      const since = performance.now();
      try {
        return await handler(message);
      } finally {
        if (measuring) times.push(performance.now() - since);
      }
    });
  }

  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'bench', name: 'Bench' });
  const adminId = await accounts.createUser(handle.db, {
    kind: 'client_admin',
    email: 'admin@bench.test',
    name: 'Admin',
    password: null,
    businessId,
  });
  const admin = (await accounts.issueToken(handle.db, { userId: adminId, kind: 'personal' })).token;
  const call = async (route: string, body: unknown, token?: string): Promise<Answer> => {
    const answer = await fetch(base + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };
  const must = async (route: string, body: unknown, token?: string) => {
    const answer = await call(route, body, token);
    if (answer.status !== 200)
      throw new Error(`POST ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** Runs `work` for 0..count-1, `concurrency` at a time, saying how far it got every `every`. */
  const pool = async (
    count: number,
    concurrency: number,
    every: number,
    what: string,
    work: (i: number) => Promise<void>,
  ) => {
    const since = performance.now();
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          await work(next++);
          if (++done % every === 0 || done === count)
            say(`  ${what}: ${done} / ${count} (${seconds(since)})`);
        }
      }),
    );
  };

  say(
    `Registering ${SITES} sites and ${DEVICES} devices of ${COMPARTMENTS} compartments through the API ...`,
  );
  const siteIds: number[] = [];
  for (let s = 0; s < SITES; s++) {
    const site = await must(
      '/v1/lockers/sites',
      {
        name: `Site ${s + 1}`,
        address: { line1: `${s + 1} Rue de la Gare`, city: 'Lyon', country: 'FR', lat: 45.76, lng: 4.86 },
        opening_hours: 'Mo-Su 00:00-24:00',
      },
      admin,
    );
    siteIds.push(site.site.id);
  }
  const devices: Array<{ id: number; credential: string }> = [];
  await pool(DEVICES, 8, 250, 'devices registered', async (d) => {
    const slot = Math.floor(d / SITES); // the device's place within its site
    const registered = await must(
      '/v1/lockers/devices',
      {
        site_id: siteIds[d % SITES],
        kind: 'locker',
        name: `Locker ${d + 1}`,
        compartments: Array.from({ length: COMPARTMENTS }, (_, c) => ({
          number: c + 1,
          size_class: 'M',
          length_mm: 400,
          width_mm: 300,
          height_mm: 200 + c * DEVICES_PER_SITE + slot,
        })),
      },
      admin,
    );
    devices[d] = { id: registered.device.id, credential: registered.credential };
  });

  // The devices and the people in a process of their own (bench/lockers-load.ts).
  const job: LockersJob = {
    api: base,
    broker: brokerUrl,
    topicPrefix: config.mqtt.topicPrefix,
    admin,
    devices,
    compartments: COMPARTMENTS,
    siteIds,
    parcels: PARCELS,
    rate: RATE,
    warmupSeconds: WARMUP,
    connectBatch: CONNECT_BATCH,
    prepConcurrency: PREP_CONCURRENCY,
  };
  const child = fork(fileURLToPath(new URL('./lockers-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  const reports: LockersReport[] = [];
  let heard: (() => void) | undefined;
  child.on('message', (report: LockersReport) => {
    if ('measuring' in report) {
      measuring = true;
      loop.enable();
    }
    reports.push(report);
    heard?.();
  });
  child.once('exit', (code) => {
    reports.push({ error: `the load generator exited (${code})` });
    heard?.();
  });
  const next = async <K extends 'prepared' | 'result'>(key: K) => {
    for (;;) {
      const report = reports.shift();
      if (report && 'error' in report) throw new Error(report.error);
      if (report && key in report) return report as Extract<LockersReport, Record<K, unknown>>;
      if (!report) await new Promise<void>((resolve) => (heard = resolve));
    }
  };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  child.send({ job });
  const { prepared } = await next('prepared');
  const { lostDeposits, connected, connectSeconds } = prepared;
  if (connected < DEVICES) say(`  ${DEVICES - connected} devices did not connect`);
  // Ready once the device's answer moved every booking on (occupied, no opening out).
  for (let waited = 0; ; waited += 250) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM locker_bookings WHERE state = 'occupied' AND opening IS NULL`.execute(
      probe.db,
    );
    if (Number(rows[0]!.n) >= PARCELS - lostDeposits || waited > 30_000) {
      say(`  deposited: ${rows[0]!.n} / ${PARCELS} (${seconds(started)} since the start)`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  // The outbox backlog once a second: messages due and not yet handled.
  const backlog: number[] = [];
  const sampler = setInterval(() => {
    if (!measuring) return;
    void sql<{ n: string }>`
      SELECT count(*) AS n FROM outbox WHERE done_at IS NULL AND available_at <= now()`
      .execute(probe.db)
      .then(({ rows }) => backlog.push(Number(rows[0]!.n)))
      .catch(() => {});
  }, 1_000);
  child.send({ go: true });
  const { result } = await next('result');
  loop.disable();
  measuring = false;
  clearInterval(sampler);
  child.kill();
  const { failures, missing } = result;
  const toDevice = result.commands.map(([, sent, arrivedAt]) => arrivedAt - sent);
  const toPublish = result.commands.flatMap(([id, sent]) => {
    const handed = publishedAt.get(id);
    return handed === undefined ? [] : [handed - sent];
  });
  const answered = result.answered;
  const warmupCount = Math.round(RATE * WARMUP);

  const sortedMs = (values: number[]) => [...values].sort((a, b) => a - b);
  const row = (name: string, values: number[]) => {
    const sorted = sortedMs(values);
    const ms = (p: number) => percentile(sorted, p).toFixed(1);
    return `| ${name} | ${sorted.length} | ${ms(50)} | ${ms(95)} | ${ms(99)} | ${ms(100)} |`;
  };
  const asked = PARCELS - warmupCount;
  const failed = Object.values(failures).reduce((sum, n) => sum + n, 0);
  console.log(
    `${connected} of ${DEVICES} devices connected (${connectSeconds.toFixed(1)} s, ${CONNECT_BATCH} at a time), heartbeat 30 s; ` +
      `${asked} pickups at ${RATE}/s asked (achieved ${result.achievedRate.toFixed(1)}/s) over ${SECONDS} s after ${WARMUP} s of warm-up; ` +
      `outbox concurrency ${config.outboxConcurrency}, per business ${config.outboxPerBusiness}\n`,
  );
  console.log('| measured (ms) | count | p50 | p95 | p99 | max |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row('request sent -> command at the device', toDevice));
  console.log(row('request sent -> command handed to the broker', toPublish));
  console.log(row('request sent -> HTTP answer', answered));
  console.log(row('the service on the request (Fastify)', served));
  console.log(row('outbox: one claim', claims));
  for (const [topic, times] of Object.entries(handled))
    if (times.length > 0) console.log(row(`outbox: handler of ${topic}`, times));
  const perClaim = claimed.reduce((sum, n) => sum + n, 0) / Math.max(1, claimed.length);
  const loopMs = (p: number) => (loop.percentile(p) / 1e6).toFixed(1);
  console.log(
    `\nFailed: ${failed}${failed > 0 ? ` ${JSON.stringify(failures)}` : ''}; commands not at the device within 15 s: ${missing}; deposits lost in preparation: ${lostDeposits}`,
  );
  console.log(
    `Event-loop delay, measured phase: the service p50 ${loopMs(50)}, p99 ${loopMs(99)}, max ${(loop.max / 1e6).toFixed(1)} ms; the load generator p99 ${result.loopDelayP99.toFixed(1)} ms`,
  );
  console.log(
    `Outbox claims: ${claimed.length}, ${perClaim.toFixed(2)} messages a claim; open commands taken by a claim rather than by their own notification: ${scannedCommands}`,
  );
  const sortedBacklog = sortedMs(backlog);
  console.log(
    `Outbox messages due and not handled, sampled each second: median ${percentile(sortedBacklog, 50)}, max ${sortedBacklog.at(-1) ?? 0}`,
  );
  say(`Done in ${seconds(started)}.`);
  await app.http.close();
  await app.stopBackground();
} finally {
  await probe.close();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
