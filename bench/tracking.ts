import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { mulberry32 as random } from '../src/modules/dispatch/solver/generate.ts';
import { TRACKING_HISTORY } from '../src/modules/tracking/index.ts';
import * as trackingRepo from '../src/modules/tracking/repository.ts';
import { validateTimeline } from '../src/modules/tracking/validator.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { ensureMonthPartitions } from '../src/platform/db/partitions.ts';
import { withoutRequestLimits } from './limits.ts';
import { startLoader } from './loader.ts';
import { knob, say } from './support.ts';
import {
  copyKeyLine,
  copyLine,
  copyLines,
  journey,
  KEYS_TABLE,
  type Target,
  trackingNumbers,
} from './tracking-data.ts';
import type { LoadJob, LoadResult } from './tracking-load.ts';

const NUMBERS = knob('NUMBERS', 100_000);
const EVENTS = knob('EVENTS', 1_000_000);
/** Measured seconds of each read run, after WARMUP seconds of the same load. */
const SECONDS = knob('SECONDS', 15);
const WARMUP = knob('WARMUP', 3);
const READ_CONNECTIONS = knob('READ_CONNECTIONS', 50);
const BATCH_CONNECTIONS = knob('BATCH_CONNECTIONS', 10);
const BATCH_SIZE = 100;
/** Events posted by each ingest run (sequential, then parallel) of a round; the COPY loads as many. */
const INGEST_EVENTS = knob('INGEST_EVENTS', 50_000);
/** Rounds of each comparison: both sides measured back to back, ROUNDS times. */
const ROUNDS = knob('ROUNDS', 3);
const INGEST_PARALLEL = knob('INGEST_PARALLEL', 4);
const NUMBERS_PER_REQUEST = 50;
const EVENTS_PER_NUMBER = 10;
const REQUEST_EVENTS = NUMBERS_PER_REQUEST * EVENTS_PER_NUMBER;
/** Timelines fetched once from the service for the bare route to serve. */
const CEILING_TIMELINES = 1000;
/** A path prefix: write a CPU profile of this process during each measured run. */
const CPU_PROFILE = process.env.CPU_PROFILE;
/** 1: a durable cluster (fsync on), as in production; default: the throwaway settings of the tests. */
const DURABLE = knob('DURABLE', 0) === 1;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

// ----- the load generator (a child process) -----

const { process: loader, load } = startLoader();
/** WARMUP seconds of the same load, then SECONDS measured. */
async function measured(label: string, job: Extract<LoadJob, { seconds: number }>): Promise<Measured> {
  if (WARMUP > 0) await load({ ...job, seconds: WARMUP });
  const before = await cpuNow();
  const result = await profiled(label, () => load(job));
  const cpu = cpuUse(label, before, await cpuNow(), result.seconds, result.ok, 'request');
  if (result.non2xx + result.errors + result.timeouts > 0) {
    throw new Error(
      `${job.kind}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { ...result, cpu };
}

// ----- where the CPU goes: this process (both servers), PostgreSQL, the load generator -----

/** utime + stime of a process, and of its children it has waited for, in seconds (Linux /proc). */
async function cpuOf(pid: number): Promise<{ ppid: number; own: number; reaped: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const tick = 100; // CLK_TCK
  return {
    ppid: fields[1]!,
    own: (fields[11]! + fields[12]!) / tick,
    reaped: (fields[13]! + fields[14]!) / tick,
  };
}
interface CpuSnapshot {
  server: number;
  postgres: number;
  loader: number;
  /** Every process on the machine (/proc/stat, all CPUs, not idle). */
  machine: number;
  /** Time the hypervisor gave to other guests while this one wanted to run. */
  steal: number;
}
async function cpuNow(): Promise<CpuSnapshot> {
  const postmaster = Number(
    (await readFile(path.join(directory, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  const main = await cpuOf(postmaster);
  let postgres = main.own + main.reaped;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = await cpuOf(Number(entry)).catch(() => null);
    if (child?.ppid === postmaster) postgres += child.own;
  }
  const usage = process.cpuUsage();
  // /proc/stat, all CPUs: user nice system idle iowait irq softirq steal ... (guest time is inside user).
  const all = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const busy = all[0]! + all[1]! + all[2]! + all[5]! + all[6]!;
  return {
    server: (usage.user + usage.system) / 1e6,
    postgres,
    loader: (await cpuOf(loader.pid!)).own,
    machine: busy / 100,
    steal: all[7]! / 100,
  };
}
/**
 * Notes the cores each side kept busy over `seconds`, and returns the CPU time per unit of work
 * (`count` requests, events or rows): per-unit CPU is what the shared machine's noise disturbs least.
 */
function cpuUse(
  label: string,
  before: CpuSnapshot,
  after: CpuSnapshot,
  seconds: number,
  count: number,
  unit: string,
): CpuUse {
  const used = (key: keyof CpuSnapshot) => after[key] - before[key];
  const cores = (key: keyof CpuSnapshot) => (used(key) / seconds).toFixed(2);
  const serverUs = (used('server') / count) * 1e6;
  const postgresUs = (used('postgres') / count) * 1e6;
  cpuNotes.push(
    `${label}: this process ${cores('server')}, PostgreSQL ${cores('postgres')}, load generator ${cores('loader')} ` +
      `cores (whole machine ${cores('machine')} busy, ${cores('steal')} stolen); CPU per ${unit}: ` +
      `this process ${serverUs.toFixed(0)} µs, PostgreSQL ${postgresUs.toFixed(0)} µs`,
  );
  return { serverUs, postgresUs };
}
type Measured = LoadResult & { cpu: CpuUse };
/** CPU time per request (or event, or row) of this process and of PostgreSQL, in microseconds. */
interface CpuUse {
  serverUs: number;
  postgresUs: number;
}
const cpuNotes: string[] = [];

/** Runs `work` under the V8 CPU profiler when CPU_PROFILE is set. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!CPU_PROFILE) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(`${CPU_PROFILE}-${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}

// ----- the run -----

const started = performance.now();
const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say(`Starting a throwaway PostgreSQL cluster (${DURABLE ? 'durable' : 'fsync off'}) ...`);
const cluster = await startEmbeddedPostgres({ directory, ephemeral: !DURABLE });
const handle = openDatabase(cluster.url);
// The loading (COPY, VACUUM) on a busy machine may take longer than the service's statement bound.
const setup = openDatabase(cluster.url, { timeouts: 'none' });
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
// As `tms serve` does: the outbox worker and the listener that keeps public timelines in memory.
await app.startBackground(handle.pool);
const serviceUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;

const table: string[] = [];
const notes: string[] = [];
try {
  const { accounts, tracking } = app.services;
  const businessId = await accounts.createBusiness(handle.db, {
    code: 'bench-tracking',
    name: 'Bench tracking',
  });
  const provider = await tracking.createProvider(handle.db, businessId, 'Bench Carrier');

  // Orders and packages in SQL: one order (a third-party carrier holds it) and one package each.
  say(`Creating ${NUMBERS} orders with one package each (INSERT ... SELECT) ...`);
  let since = performance.now();
  const numbers = trackingNumbers(NUMBERS);
  await sql`
    WITH made AS (
      INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, dropoff, carrier,
                          created_at, updated_at)
      SELECT ${businessId}, 'BENCH-' || lpad(i::text, 7, '0'), 'local_delivery', 'D', 'NEW_ORDER',
             date '2026-10-01' + (i % 30),
             jsonb_build_object('line1', (i % 120 + 1) || ' rue de la Paix', 'city', 'Paris',
                                'postal_code', '75002', 'country', 'FR'),
             'Bench Carrier', now(), now()
      FROM generate_series(1, ${NUMBERS}::int) AS i
      RETURNING id, order_ref
    )
    INSERT INTO packages (business_id, order_id, tracking_number, weight_grams)
    SELECT ${businessId}, made.id, t.number, 200 + (t.i * 7919) % 20000
    FROM made
    JOIN unnest(${numbers}::text[]) WITH ORDINALITY AS t(number, i)
      ON made.order_ref = 'BENCH-' || lpad(t.i::text, 7, '0')
  `.execute(setup.db);
  const packages = new Map(
    (
      await setup.db
        .selectFrom('packages')
        .select(['id', 'tracking_number'])
        .where('business_id', '=', businessId)
        .execute()
    ).map((p) => [p.tracking_number, p.id]),
  );
  const target: Target = { businessId, providerName: provider.name, packages };
  say(`  ${packages.size} packages in ${elapsed(since)}`);

  // Events: 10 per number on average (5 to 15), by COPY, in arrival order.
  say(`Generating ${EVENTS} events ...`);
  since = performance.now();
  const rng = random(42);
  const base = Math.floor(EVENTS / NUMBERS);
  const spread = Math.min(5, base - 1);
  const counts = numbers.map((_, k) => {
    const d = Math.floor(random(1000 + (k >> 1))() * (spread + 1));
    return base + (k % 2 === 0 ? d : -d) + (k < EVENTS - base * NUMBERS ? 1 : 0);
  });
  if (NUMBERS % 2 === 1) counts[NUMBERS - 1] = base;
  const timelines = numbers.map((number, k) =>
    journey(rng, `bench-${number}`, counts[k]!, Date.UTC(2026, 9, 1) + Math.floor(rng() * 30 * 86_400_000)),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  say(`  ${total} events in memory in ${elapsed(since)}; COPY into tracking_events ...`);
  since = performance.now();
  function* arrivalOrder() {
    const longest = Math.max(...counts);
    for (let round = 0; round < longest; round++) {
      for (const [k, events] of timelines.entries()) {
        const event = events[round];
        if (event) {
          yield copyLine(
            target,
            numbers[k]!,
            event,
            new Date(new Date(event.occurred_at).getTime() + 90_000),
          );
        }
      }
    }
  }
  // The preload's months have their partitions, as the service's would (docs/history.md).
  await ensureMonthPartitions(setup.db, TRACKING_HISTORY, new Date(Date.UTC(2026, 9, 1)), 2);
  await copyLines(setup.pool, arrivalOrder(), (rows) => say(`  ${rows} rows (${elapsed(since)})`));
  // The deduplication keys the service stores beside each event.
  await sql`INSERT INTO tracking_event_keys (tracking_number, event_id, business_id)
    SELECT tracking_number, event_id, business_id FROM tracking_events`.execute(setup.db);
  const preloadSeconds = (performance.now() - since) / 1000;
  say(`  loaded in ${preloadSeconds.toFixed(1)} s; VACUUM ANALYZE ...`);
  await sql`VACUUM ANALYZE tracking_events`.execute(setup.db);
  await sql`VACUUM ANALYZE packages`.execute(setup.db);
  await sql`VACUUM ANALYZE orders`.execute(setup.db);
  const stored = await sql<{ events: number; size: string }>`
    SELECT count(*)::int AS events,
      (SELECT pg_size_pretty(sum(pg_total_relation_size(relid))::bigint)
        FROM pg_partition_tree('tracking_events')) AS size
    FROM tracking_events`.execute(setup.db);
  const { events: storedEvents, size } = stored.rows[0]!;
  say(`  ${storedEvents} events stored, ${size} with indexes`);
  notes.push(
    `loaded ${numbers.length} numbers and ${storedEvents} events (${size} with indexes); ` +
      `COPY of the preload took ${preloadSeconds.toFixed(1)} s (${Math.round(storedEvents / preloadSeconds)} rows/s)`,
  );

  // (a) single-timeline reads, and the bare route serving the same bytes.
  say(`Fetching ${CEILING_TIMELINES} timelines for the bare Fastify route ...`);
  const ceilingNumbers = numbers.slice(0, CEILING_TIMELINES);
  const bodies = new Map<string, { type: string; body: Buffer; etag: string; cacheControl: string }>();
  for (const number of ceilingNumbers) {
    const response = await fetch(`${serviceUrl}/api/v1/otep/trackings/${number}`);
    if (!response.ok) throw new Error(`GET ${number}: ${response.status} ${await response.text()}`);
    bodies.set(number, {
      type: response.headers.get('content-type')!,
      body: Buffer.from(await response.arrayBuffer()),
      etag: response.headers.get('etag')!,
      cacheControl: response.headers.get('cache-control')!,
    });
  }
  const etags = Object.fromEntries([...bodies].map(([number, found]) => [number, found.etag]));
  const meanBody = [...bodies.values()].reduce((sum, b) => sum + b.body.length, 0) / bodies.size;
  notes.push(`a timeline body is ${Math.round(meanBody)} bytes on average (the bare route serves these)`);
  const ceiling = Fastify();
  ceiling.get<{ Params: { tracking_number: string } }>(
    '/api/v1/otep/trackings/:tracking_number',
    (request, reply) => {
      const found = bodies.get(request.params.tracking_number);
      if (!found) return reply.code(404).send({ result: false });
      reply.header('etag', found.etag).header('cache-control', found.cacheControl);
      // The ceiling of a conditional GET: the tag compared in memory, 304 with no body.
      if (request.headers['if-none-match'] === found.etag) return reply.code(304).send();
      return reply.header('content-type', found.type).send(found.body);
    },
  );
  await ceiling.listen({ port: 0, host: '127.0.0.1' });
  const ceilingUrl = `http://127.0.0.1:${(ceiling.server.address() as AddressInfo).port}`;
  const prefix = '/api/v1/otep/trackings/';

  const readRounds: Array<{ bare: Measured; service: Measured }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    say(
      `(a) round ${round}/${ROUNDS}: bare Fastify, ${READ_CONNECTIONS} connections, ${WARMUP} + ${SECONDS} s ...`,
    );
    const bareRead = await measured(`reads-bare-${round}`, {
      kind: 'get',
      url: ceilingUrl,
      prefix,
      numbers: ceilingNumbers,
      connections: READ_CONNECTIONS,
      seconds: SECONDS,
    });
    say(
      `(a) round ${round}/${ROUNDS}: the service, ${READ_CONNECTIONS} connections, ${WARMUP} + ${SECONDS} s ...`,
    );
    // The same parcels as the bare route: read once already, so kept in memory.
    const serviceRead = await measured(`reads-service-${round}`, {
      kind: 'get',
      url: serviceUrl,
      prefix,
      numbers: ceilingNumbers,
      connections: READ_CONNECTIONS,
      seconds: SECONDS,
    });
    readRounds.push({ bare: bareRead, service: serviceRead });
  }
  const conditionalRounds: Array<{ bare: Measured; service: Measured }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const conditional = (url: string) =>
      ({
        kind: 'get',
        url,
        prefix,
        numbers: ceilingNumbers,
        etags,
        connections: READ_CONNECTIONS,
        seconds: SECONDS,
      }) as const;
    say(`(a') round ${round}/${ROUNDS}: conditional GETs answered 304, bare Fastify then the service ...`);
    const bare = await measured(`conditional-bare-${round}`, conditional(ceilingUrl));
    const service = await measured(`conditional-service-${round}`, conditional(serviceUrl));
    conditionalRounds.push({ bare, service });
  }
  await ceiling.close();

  // (c) batch reads of 100 numbers: of the parcels read above (kept in memory), then of any parcel.
  const batchOf = (label: string, of: string[]) => {
    say(
      `(c) batch reads of ${BATCH_SIZE} ${label}, ${BATCH_CONNECTIONS} connections, ${WARMUP} + ${SECONDS} s ...`,
    );
    return measured(`reads-batch-${label}`, {
      kind: 'batch',
      url: serviceUrl,
      path: '/api/v1/otep/trackings/batch',
      numbers: of,
      size: BATCH_SIZE,
      connections: BATCH_CONNECTIONS,
      seconds: SECONDS,
    });
  };
  const batch = await batchOf('hot', ceilingNumbers);
  const coldBatch = await batchOf('cold', numbers);

  // (b) ingest: 500-event requests (50 numbers x 10 events), then the same rows by COPY.
  const requests = Math.max(1, Math.round(INGEST_EVENTS / REQUEST_EVENTS));
  const ingestRng = random(99);
  const shuffled = [...numbers].sort(() => ingestRng() - 0.5);
  let used = 0;
  /** `requests` request bodies' worth of timelines, on numbers not used by the previous sets. */
  const ingestSet = (name: string) =>
    Array.from({ length: requests }, (_, r) =>
      Array.from({ length: NUMBERS_PER_REQUEST }, () => {
        const number = shuffled[used++ % shuffled.length]!;
        const start = Date.UTC(2026, 10, 1) + Math.floor(ingestRng() * 10 * 86_400_000);
        return {
          otep_version: '0.1',
          profile: 'parcel',
          subject: { tracking_number: number },
          events: journey(ingestRng, `${name}-${r}-${number}`, EVENTS_PER_NUMBER, start),
        };
      }),
    );
  type IngestSet = ReturnType<typeof ingestSet>;
  const countEvents = async () =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM tracking_events`.execute(setup.db)).rows[0]!.n;
  const ingest = async (label: string, set: IngestSet, connections: number) => {
    const bodies = set.map((timelines) => JSON.stringify({ timelines }));
    const before = await countEvents();
    const cpuBefore = await cpuNow();
    const result = await profiled(label, () =>
      load({
        kind: 'bodies',
        url: serviceUrl,
        path: '/api/v1/otep/ingest',
        headers: { 'x-otep-provider-key': provider.key },
        bodies,
        connections,
      }),
    );
    const cpu = cpuUse(
      label,
      cpuBefore,
      await cpuNow(),
      result.seconds,
      set.length * REQUEST_EVENTS,
      'event',
    );
    const added = (await countEvents()) - before;
    if (result.non2xx + result.errors + result.timeouts > 0 || added !== set.length * REQUEST_EVENTS) {
      throw new Error(`ingest: ${JSON.stringify(result)}, ${added} events added`);
    }
    return { ...result, cpu, eventsPerSecond: added / result.seconds };
  };
  /**
   * The rows `set` stored, with fresh event ids, by COPY: the events, then their deduplication
   * keys (an ingested event stores both); events per second of the two, and of the events alone.
   */
  const copy = async (label: string, set: IngestSet) => {
    // The COPY text is built before the clock starts, as the ingest bodies are serialised before theirs.
    const now = new Date();
    const events = set.flatMap((timelines) =>
      timelines.flatMap((t) => t.events.map((event) => ({ number: t.subject.tracking_number, event }))),
    );
    const lines = events.map(({ number, event }) =>
      copyLine(target, number, { ...event, event_id: `copy-${event.event_id}` }, now),
    );
    const keyLines = events.map(({ number, event }) => copyKeyLine(target, number, `copy-${event.event_id}`));
    const before = await cpuNow();
    const copyStarted = performance.now();
    await copyLines(setup.pool, lines);
    const eventsSeconds = (performance.now() - copyStarted) / 1000;
    await copyLines(setup.pool, keyLines, undefined, KEYS_TABLE);
    const seconds = (performance.now() - copyStarted) / 1000;
    const cpu = cpuUse(label, before, await cpuNow(), seconds, lines.length, 'row');
    return {
      seconds,
      cpu,
      eventsPerSecond: lines.length / seconds,
      eventsOnlyPerSecond: lines.length / eventsSeconds,
    };
  };

  // A first request, checked by hand: the generated bodies must be accepted, not refused.
  {
    const probe = await fetch(`${serviceUrl}/api/v1/otep/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-otep-provider-key': provider.key },
      body: JSON.stringify({ timelines: ingestSet('probe')[0]!.slice(0, 2) }),
    });
    const answer = await probe.text();
    if (!probe.ok) throw new Error(`ingest probe: ${probe.status} ${answer}`);
  }

  const ingestRounds: Array<{
    sequential: Measured & { eventsPerSecond: number };
    parallel: Measured & { eventsPerSecond: number };
    copy: { seconds: number; cpu: CpuUse; eventsPerSecond: number; eventsOnlyPerSecond: number };
  }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const sequentialSet = ingestSet(`seq${round}`);
    const parallelSet = ingestSet(`par${round}`);
    say(`(b) round ${round}/${ROUNDS}: ${requests} requests of ${REQUEST_EVENTS} events, one at a time ...`);
    const sequential = await ingest(`ingest-sequential-${round}`, sequentialSet, 1);
    say(
      `(b) round ${round}/${ROUNDS}: ${requests} requests of ${REQUEST_EVENTS} events, ${INGEST_PARALLEL} at a time ...`,
    );
    const parallel = await ingest(`ingest-parallel-${round}`, parallelSet, INGEST_PARALLEL);
    say(
      `(b) round ${round}/${ROUNDS}: COPY of the sequential run's ${requests * REQUEST_EVENTS} rows (fresh event ids) ...`,
    );
    ingestRounds.push({ sequential, parallel, copy: await copy(`copy-${round}`, sequentialSet) });
  }

  // Where an ingest request's time goes: the parts timed alone, in this process.
  say('(b) timing the parts of an ingest request ...');
  const sample = ingestSet('part').slice(0, 20);
  let validateMs = 0;
  for (const timelines of sample) {
    const t0 = performance.now();
    for (const timeline of timelines) validateTimeline(timeline, 'en');
    validateMs += performance.now() - t0;
  }
  let insertMs = 0;
  for (const timelines of sample) {
    const rows = timelines.flatMap((t) =>
      t.events.map((event) => ({
        business_id: businessId,
        tracking_number: t.subject.tracking_number,
        package_id: packages.get(t.subject.tracking_number) ?? null,
        event_id: event.event_id,
        otep_version: '0.1',
        occurred_at: new Date(event.occurred_at),
        occurred_offset: /(Z|[+-]\d{2}:\d{2})$/.exec(event.occurred_at)![1]!,
        recorded_at: new Date(),
        status_code: event.status_code,
        source_type: 'provider_push',
        details: {
          source_name: provider.name,
          ...(event.location ? { location: event.location } : {}),
          ...(event.incident_reason ? { incident_reason: event.incident_reason } : {}),
          ...(event.pod ? { pod: event.pod } : {}),
        },
      })),
    );
    const t0 = performance.now();
    await handle.db.transaction().execute((trx) => trackingRepo.insertEvents(trx, rows));
    insertMs += performance.now() - t0;
  }
  const copyMs = median(ingestRounds.map((r) => (r.copy.seconds * 1000) / requests));
  notes.push(
    `per ${REQUEST_EVENTS}-event request, timed alone in this process: validator ${(validateMs / sample.length).toFixed(1)} ms, ` +
      `insertEvents (one statement: the keys INSERT ... ON CONFLICT DO NOTHING RETURNING, then the events of the new keys, from unnest(column arrays), in a transaction) ` +
      `${(insertMs / sample.length).toFixed(1)} ms; COPY ${copyMs.toFixed(1)} ms per ${REQUEST_EVENTS} rows (median round); ` +
      `a whole request through HTTP, one at a time: ${median(ingestRounds.map((r) => r.sequential.p50)).toFixed(0)} ms (median p50)`,
  );

  const rate = (n: number) => Math.round(n).toLocaleString('en-US');
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  /** Median over the rounds of a figure. */
  const mid = <T>(rounds: T[], of: (round: T) => number) => median(rounds.map(of));
  const latency = <T>(rounds: T[], of: (round: T) => LoadResult) =>
    `${mid(rounds, (r) => of(r).p50).toFixed(0)} / ${mid(rounds, (r) => of(r).p99).toFixed(0)}`;
  /** "587 + 418": median CPU µs of this process and of PostgreSQL. */
  const cpuOf = <T>(rounds: T[], of: (round: T) => CpuUse) =>
    `${mid(rounds, (r) => of(r).serverUs).toFixed(0)} + ${mid(rounds, (r) => of(r).postgresUs).toFixed(0)}`;
  /** Reference CPU per unit over the service's (both processes counted). */
  const costRatio = <T>(rounds: T[], reference: (round: T) => CpuUse, service: (round: T) => CpuUse) =>
    mid(rounds, (r) => {
      const total = (use: CpuUse) => use.serverUs + use.postgresUs;
      return total(reference(r)) / total(service(r));
    });
  const readRatio = mid(readRounds, (r) => r.service.perSecond / r.bare.perSecond);
  const conditionalRatio = mid(conditionalRounds, (r) => r.service.perSecond / r.bare.perSecond);
  const sequentialRatio = mid(ingestRounds, (r) => r.sequential.eventsPerSecond / r.copy.eventsPerSecond);
  const parallelRatio = mid(ingestRounds, (r) => r.parallel.eventsPerSecond / r.copy.eventsPerSecond);
  const verdict = (ratio: number, target: number) =>
    `≥ ${pct(target)}: ${ratio >= target ? 'met' : 'not met'}`;
  table.push(
    `Medians of ${ROUNDS} rounds; a ratio is the median of the rounds' ratios (each round measures both sides back to back).`,
    '',
    '| measurement | service | reference | service / reference | target |',
    '| --- | --- | --- | --- | --- |',
    `| (a) GET one timeline, ${READ_CONNECTIONS} connections: requests/s | ${rate(mid(readRounds, (r) => r.service.perSecond))} | ` +
      `${rate(mid(readRounds, (r) => r.bare.perSecond))} (bare Fastify, same bytes) | ${pct(readRatio)} | ${verdict(readRatio, 0.3)} |`,
    `| (a) latency p50 / p99 ms | ${latency(readRounds, (r) => r.service)} | ${latency(readRounds, (r) => r.bare)} | | |`,
    `| (a) CPU per request, µs: this process + PostgreSQL | ${cpuOf(readRounds, (r) => r.service.cpu)} | ` +
      `${cpuOf(readRounds, (r) => r.bare.cpu)} | ${pct(
        costRatio(
          readRounds,
          (r) => r.bare.cpu,
          (r) => r.service.cpu,
        ),
      )} (CPU cost) | |`,
    `| (a') conditional GET answered 304, ${READ_CONNECTIONS} connections: requests/s | ` +
      `${rate(mid(conditionalRounds, (r) => r.service.perSecond))} | ` +
      `${rate(mid(conditionalRounds, (r) => r.bare.perSecond))} (bare Fastify, tag compared in memory) | ${pct(conditionalRatio)} | ${verdict(conditionalRatio, 0.5)} |`,
    `| (a') latency p50 / p99 ms | ${latency(conditionalRounds, (r) => r.service)} | ${latency(conditionalRounds, (r) => r.bare)} | | |`,
    `| (a') CPU per request, µs: this process + PostgreSQL | ${cpuOf(conditionalRounds, (r) => r.service.cpu)} | ` +
      `${cpuOf(conditionalRounds, (r) => r.bare.cpu)} | | |`,
    `| (b) ingest, ${REQUEST_EVENTS}-event requests one at a time: events/s | ` +
      `${rate(mid(ingestRounds, (r) => r.sequential.eventsPerSecond))} | ` +
      `${rate(mid(ingestRounds, (r) => r.copy.eventsPerSecond))} (COPY of the same rows: events and keys) | ${pct(sequentialRatio)} | ${verdict(sequentialRatio, 0.25)} |`,
    `| (b) ingest, ${INGEST_PARALLEL} requests at a time: events/s | ${rate(mid(ingestRounds, (r) => r.parallel.eventsPerSecond))} | ` +
      `${rate(mid(ingestRounds, (r) => r.copy.eventsPerSecond))} (COPY) | ${pct(parallelRatio)} | ${verdict(parallelRatio, 0.25)} |`,
    `| (b) the same, against a COPY of the events alone (no keys): one at a time; ${INGEST_PARALLEL} at a time | | ` +
      `${rate(mid(ingestRounds, (r) => r.copy.eventsOnlyPerSecond))} (COPY, events only) | ` +
      `${pct(mid(ingestRounds, (r) => r.sequential.eventsPerSecond / r.copy.eventsOnlyPerSecond))}; ` +
      `${pct(mid(ingestRounds, (r) => r.parallel.eventsPerSecond / r.copy.eventsOnlyPerSecond))} | |`,
    `| (b) CPU per event, µs: this process + PostgreSQL | one at a time ${cpuOf(ingestRounds, (r) => r.sequential.cpu)}; ` +
      `${INGEST_PARALLEL} at a time ${cpuOf(ingestRounds, (r) => r.parallel.cpu)} | ${cpuOf(ingestRounds, (r) => r.copy.cpu)} (COPY, per row) | ` +
      `${pct(
        costRatio(
          ingestRounds,
          (r) => r.copy.cpu,
          (r) => r.sequential.cpu,
        ),
      )} (CPU cost, one at a time) | |`,
    `| (b) ingest request latency p50 / p99 ms | one at a time ${latency(ingestRounds, (r) => r.sequential)}; ` +
      `${INGEST_PARALLEL} at a time ${latency(ingestRounds, (r) => r.parallel)} | | | |`,
    ...[
      ['of the 1,000 parcels above (kept)', batch],
      [`of any of the ${rate(NUMBERS)} parcels (mostly read from PostgreSQL)`, coldBatch],
    ].flatMap(([label, run]) => {
      const b = run as Measured;
      return [
        `| (c) POST batch of ${BATCH_SIZE} numbers ${label}, ${BATCH_CONNECTIONS} connections: requests/s | ` +
          `${rate(b.perSecond)} (${rate(b.perSecond * BATCH_SIZE)} numbers/s) | | | |`,
        `| (c) latency p50 / p99 ms | ${b.p50.toFixed(0)} / ${b.p99.toFixed(0)} | | | p99 < 50 ms: ${b.p99 < 50 ? 'met' : 'not met'} |`,
        `| (c) CPU per number, µs: this process + PostgreSQL | ${cpuOf([b], (c) => ({ serverUs: c.cpu.serverUs / BATCH_SIZE, postgresUs: c.cpu.postgresUs / BATCH_SIZE }))} | | | |`,
      ];
    }),
  );
  for (const [index, r] of readRounds.entries()) {
    notes.push(
      `(a) round ${index + 1}: service ${rate(r.service.perSecond)} requests/s (p99 ${r.service.p99} ms), ` +
        `bare ${rate(r.bare.perSecond)} (p99 ${r.bare.p99} ms): ${pct(r.service.perSecond / r.bare.perSecond)}`,
    );
  }
  for (const [index, r] of conditionalRounds.entries()) {
    notes.push(
      `(a') round ${index + 1}: service ${rate(r.service.perSecond)} 304s/s (p99 ${r.service.p99} ms), ` +
        `bare ${rate(r.bare.perSecond)} (p99 ${r.bare.p99} ms): ${pct(r.service.perSecond / r.bare.perSecond)}`,
    );
  }
  for (const [index, r] of ingestRounds.entries()) {
    notes.push(
      `(b) round ${index + 1}: one at a time ${rate(r.sequential.eventsPerSecond)} events/s, ` +
        `${INGEST_PARALLEL} at a time ${rate(r.parallel.eventsPerSecond)}, COPY ${rate(r.copy.eventsPerSecond)}: ` +
        `${pct(r.sequential.eventsPerSecond / r.copy.eventsPerSecond)} and ${pct(r.parallel.eventsPerSecond / r.copy.eventsPerSecond)}; ` +
        `COPY of the events alone ${rate(r.copy.eventsOnlyPerSecond)}: ` +
        `${pct(r.sequential.eventsPerSecond / r.copy.eventsOnlyPerSecond)} and ${pct(r.parallel.eventsPerSecond / r.copy.eventsOnlyPerSecond)}`,
    );
  }
  notes.push(
    `mean answer size (headers and body): service ${Math.round(readRounds[0]!.service.meanBytes)} B, ` +
      `bare ${Math.round(readRounds[0]!.bare.meanBytes)} B, batch ${Math.round(batch.meanBytes)} B`,
  );
} finally {
  loader.kill();
  await app.http.close();
  await app.stopBackground();
  await handle.close();
  await setup.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}

process.stdout.write(
  [
    `${NUMBERS} tracking numbers, ${EVENTS} events; Node ${process.version}; total run ${elapsed(started)}`,
    '',
    ...table,
    '',
    ...notes.map((note) => `- ${note}`),
    '- CPU used during each measured run (2 cores in all):',
    ...cpuNotes.map((note) => `  - ${note}`),
    '',
  ].join('\n'),
);
