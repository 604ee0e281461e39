/**
 * An SMS campaign to SUBSCRIBERS subscribers, as a business's list is: 10 % unsubscribed, 5 %
 * never confirmed, the rest confirmed, spread over twelve time zones around the world (so some are
 * in their quiet hours whenever it runs). One campaign is started through the API and goes the
 * whole way: the ticks' batches (claim, subscriber locks, cap counts, quiet hours, offer codes, the
 * messages and their outbox message in one transaction), the outbox's send handler, the generic
 * HTTP provider, and a stand-in provider in a process of its own that writes every message it
 * takes to a log.
 *
 * Then the log is scanned without asking the service: against the list as this script wrote it,
 * no message may have gone to anyone unsubscribed or unconfirmed, nor reached anyone inside
 * 21:00-08:00 on their own clock, nor anyone twice. The throughput is messages the provider took
 * a second.
 *
 *   node --import tsx bench/sms-campaign.ts            (SUBSCRIBERS=100000 PER_SECOND=1000)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { freePort, knob, say } from './support.ts';

const SUBSCRIBERS = knob('SUBSCRIBERS', 100_000);
const PER_SECOND = knob('PER_SECOND', 1000);
const SECRET = 'bench-signing-key';
const ZONES = [
  'Pacific/Auckland',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Kolkata',
  'Europe/Moscow',
  'Europe/Paris',
  'Europe/London',
  'America/Sao_Paulo',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
];

/** The list as written here, the truth the scan holds the provider's log against. */
function subscriberOf(n: number) {
  const status = n % 20 < 2 ? 'unsubscribed' : n % 20 === 2 ? 'pending' : 'confirmed';
  return { phone: `+3361${String(n).padStart(7, '0')}`, status, zone: ZONES[n % ZONES.length]! };
}

/** The hour and minute on a zone's wall clock at an instant, read by Intl (not the service's code). */
function wallMinutes(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return value('hour') * 60 + value('minute');
}
const inQuietHours = (at: Date, zone: string) => {
  const minutes = wallMinutes(at, zone);
  return minutes >= 21 * 60 || minutes < 8 * 60;
};

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-sms-'));
const logFile = path.join(directory, 'provider.log');
const providerPort = await freePort();
// The provider is another machine in life: its own process, off the service's event loop.
const provider = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'src/main.ts',
    'sms',
    'stand-in',
    '--port',
    String(providerPort),
    '--secret',
    SECRET,
    '--log',
    logFile,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
await new Promise<void>((resolve, reject) => {
  provider.once('exit', (code) => reject(new Error(`the stand-in provider stopped (${code})`)));
  provider.stderr.on(
    'data',
    (chunk: Buffer) => chunk.toString().includes('Stand-in SMS provider') && resolve(),
  );
  provider.stdout.on(
    'data',
    (chunk: Buffer) => chunk.toString().includes('Stand-in SMS provider') && resolve(),
  );
});

const cluster = await startEmbeddedPostgres({
  directory: await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-')),
  ephemeral: true,
});
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent', SMS_ALLOW_LOOPBACK: 'true' });
const app = await createApp(
  {
    ...defaults,
    databaseUrl: cluster.url,
    limits: withoutRequestLimits(defaults.limits),
    mqtt: { ...defaults.mqtt, port: 0 },
  },
  handle.db,
  systemClock,
);
await app.http.listen({ port: 0, host: '127.0.0.1' });
await app.startBackground(handle.pool);
const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;

try {
  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'bench', name: 'Bench' });
  const userId = await accounts.createUser(handle.db, {
    kind: 'client_admin',
    email: 'admin@bench.test',
    name: 'admin',
    password: null,
    businessId,
  });
  const token = (await accounts.issueToken(handle.db, { userId, kind: 'personal' })).token;
  const call = async (method: string, route: string, body?: unknown) => {
    const answer = await fetch(base + route, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of known answers
    const json: any = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };
  await call('PUT', '/v1/client/feature-families/sms_marketing', { enabled: true });
  await call('PUT', '/v1/sms/settings', {
    default_region: 'FR',
    sender: '+33700000000',
    help_text: 'Bench: help at bench.example',
    consent_text: 'I agree to receive texts.',
    consent_version: '1',
    messages_per_second: PER_SECOND,
    provider: { kind: 'generic', url: `http://127.0.0.1:${providerPort}/messages`, secret: SECRET },
  });
  say(`writing ${SUBSCRIBERS} subscribers over ${ZONES.length} time zones`);
  await sql`
    INSERT INTO sms_subscribers (business_id, phone, status, language, time_zone, attributes, created_at,
      confirmed_at, unsubscribed_at)
    SELECT ${businessId}, '+3361' || lpad(n::text, 7, '0'),
      CASE WHEN n % 20 < 2 THEN 'unsubscribed' WHEN n % 20 = 2 THEN 'pending' ELSE 'confirmed' END,
      'fr', (${sql.val(ZONES)}::text[])[n % ${ZONES.length} + 1],
      jsonb_build_object('first_name', 'Name' || n), now(),
      CASE WHEN n % 20 = 2 THEN NULL ELSE now() END, CASE WHEN n % 20 < 2 THEN now() END
    FROM generate_series(1, ${SUBSCRIBERS}) AS n`.execute(handle.db);
  const campaign = await call('POST', '/v1/sms/campaigns', {
    name: 'Bench',
    body: 'Hello {first_name}, 10% off this week with code {offer_code}. STOP to stop',
    offer_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
  const id = campaign.campaign.id;
  const started = performance.now();
  const startedAt = new Date();
  await call('POST', `/v1/sms/campaigns/${id}/start`, {});
  let lag = 0;
  let probe = performance.now();
  const lagTimer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - probe - 10);
    probe = now;
  }, 10);
  // Done for now when nothing is queued and every message written went out: the rest waits for
  // the end of its quiet hours (deferred) or was skipped.
  let counts: Record<string, number> = {};
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const read = await call('GET', `/v1/sms/campaigns/${id}`);
    counts = read.campaign.recipients;
    const [{ queued }] = (
      await sql<{ queued: string }>`
        SELECT count(*) AS queued FROM sms_messages WHERE campaign_id = ${id} AND state = 'queued'`.execute(
        handle.db,
      )
    ).rows as [{ queued: string }];
    const written = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (written === SUBSCRIBERS && counts.queued === 0 && Number(queued) === 0) break;
    say(`${((performance.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(counts)}`);
    if (performance.now() - started > 900_000) throw new Error('not done in 15 minutes');
  }
  clearInterval(lagTimer);
  provider.kill('SIGTERM');
  await new Promise((resolve) => provider.once('exit', resolve));

  const taken = (await readFile(logFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { to: string; at: string });
  const truth = new Map<string, ReturnType<typeof subscriberOf>>();
  for (let n = 1; n <= SUBSCRIBERS; n++) {
    const subscriber = subscriberOf(n);
    truth.set(subscriber.phone, subscriber);
  }
  const wrong = { unknown: 0, unsubscribed: 0, unconfirmed: 0, quiet: 0, twice: 0 };
  const seen = new Set<string>();
  for (const message of taken) {
    const subscriber = truth.get(message.to);
    if (!subscriber) wrong.unknown++;
    else if (subscriber.status === 'unsubscribed') wrong.unsubscribed++;
    else if (subscriber.status === 'pending') wrong.unconfirmed++;
    else if (inQuietHours(new Date(message.at), subscriber.zone)) wrong.quiet++;
    if (seen.has(message.to)) wrong.twice++;
    seen.add(message.to);
  }
  const times = taken.map((message) => Date.parse(message.at)).sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const last = times.at(-1) ?? 0;
  const steady = (last - first) / 1000;
  const fromStart = (last - startedAt.getTime()) / 1000;
  const awake = ZONES.filter((zone) => !inQuietHours(startedAt, zone));
  console.log(
    `${SUBSCRIBERS} subscribers, messages_per_second ${PER_SECOND}, started ${startedAt.toISOString()}`,
  );
  console.log(
    `zones outside their quiet hours at the start: ${awake.length} of ${ZONES.length} (${awake.join(', ')})`,
  );
  console.log(`recipients by state: ${JSON.stringify(counts)}`);
  console.log(
    `taken by the provider: ${taken.length} in ${fromStart.toFixed(1)} s from the start (${(taken.length / fromStart).toFixed(0)}/s), ` +
      `${steady.toFixed(1)} s first to last (${(taken.length / steady).toFixed(0)}/s)`,
  );
  console.log(`independent scan of the provider's log: ${JSON.stringify(wrong)}`);
  console.log(`longest event loop delay seen: ${lag.toFixed(0)} ms`);
} finally {
  provider.kill('SIGTERM');
  await app.http.close();
  await app.stopBackground();
  await handle.close();
  await cluster.stop();
}
