/**
 * SMS campaign throughput: SUBSCRIBERS confirmed subscribers, one campaign started through the
 * API, and the rate at which the sending engine hands messages to the provider (a stand-in that
 * takes each at once). Every message goes the whole way: the tick's batch (claim, subscriber
 * locks, cap counts, quiet hours, the messages and their outbox message in one transaction), then
 * the outbox's send handler and the provider.
 *
 *   node --import tsx bench/sms-campaign.ts            (SUBSCRIBERS=100000 PER_SECOND=1000)
 */
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { SmsProvider, SmsProviders } from '../src/modules/sms/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, say } from './support.ts';

const SUBSCRIBERS = knob('SUBSCRIBERS', 100_000);
const PER_SECOND = knob('PER_SECOND', 1000);

let handed = 0;
let firstAt = 0;
let lastAt = 0;
const provider: SmsProvider = {
  kind: 'log',
  send: async (message) => {
    handed++;
    lastAt = performance.now();
    if (firstAt === 0) firstAt = lastAt;
    return { accepted: true, providerMessageId: `bench-${message.id}` };
  },
};
const providers: SmsProviders = { for: () => provider };

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent' });
const app = await createApp(
  {
    ...defaults,
    databaseUrl: cluster.url,
    limits: withoutRequestLimits(defaults.limits),
    mqtt: { ...defaults.mqtt, port: 0 },
  },
  handle.db,
  systemClock,
  { smsProviders: providers },
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
    caps: { per_day: 10, per_week: 50 },
    messages_per_second: PER_SECOND,
  });
  // Subscribers in a zone whose quiet hours are not now.
  const hour = new Date().getUTCHours();
  const zone = hour >= 8 && hour < 20 ? 'UTC' : 'Asia/Tokyo';
  await sql`
    INSERT INTO sms_subscribers (business_id, phone, status, language, time_zone, attributes, created_at, confirmed_at)
    SELECT ${businessId}, '+3361' || lpad(n::text, 7, '0'), 'confirmed', 'fr', ${zone},
      jsonb_build_object('first_name', 'Name' || n), now(), now()
    FROM generate_series(1, ${SUBSCRIBERS}) AS n`.execute(handle.db);
  const campaign = await call('POST', '/v1/sms/campaigns', {
    name: 'Bench',
    body: 'Hello {first_name}, 10% off this week with code {offer_code}. STOP to stop',
    offer_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
  const started = performance.now();
  await call('POST', `/v1/sms/campaigns/${campaign.campaign.id}/start`, {});
  let lag = 0;
  let probe = performance.now();
  const lagTimer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - probe - 10);
    probe = now;
  }, 10);
  while (handed < SUBSCRIBERS) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (performance.now() - started > 600_000) throw new Error(`only ${handed} handed over in 10 minutes`);
  }
  clearInterval(lagTimer);
  const seconds = (lastAt - started) / 1000;
  const steady = (lastAt - firstAt) / 1000;
  say(`${SUBSCRIBERS} subscribers, messages_per_second ${PER_SECOND}`);
  say(
    `handed to the provider: ${handed} in ${seconds.toFixed(1)} s from the start (${(handed / seconds).toFixed(0)}/s)`,
  );
  say(`from the first to the last message: ${steady.toFixed(1)} s (${(handed / steady).toFixed(0)}/s)`);
  say(`longest event loop delay seen: ${lag.toFixed(0)} ms`);
} finally {
  await app.http.close();
  await app.stopBackground();
  await handle.close();
  await cluster.stop();
}
