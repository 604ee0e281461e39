/**
 * Order chat's end-to-end latency: from sending `POST /v1/order-chats/{id}/messages` to the
 * driver's MQTT subscription receiving the push, on the embedded broker, at a steady rate of
 * posts (open loop: a post leaves on schedule whatever the earlier ones are doing). The push goes
 * through the transactional outbox, so the figure includes the commit, the worker's wake-up by
 * LISTEN/NOTIFY, its claim, and the publish.
 *
 *   node --import tsx bench/chat-latency.ts            (RATE=50 SECONDS=20 WARMUP=3 ORDERS=10)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { knob, percentile, say } from './support.ts';

const RATE = knob('RATE', 50);
const SECONDS = knob('SECONDS', 20);
const WARMUP = knob('WARMUP', 3);
const ORDERS = knob('ORDERS', 10);

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
);
await app.http.listen({ port: 0, host: '127.0.0.1' });
await app.startBackground(handle.pool);
const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;
const brokerUrl = app.mqtt.where();

try {
  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, { code: 'bench', name: 'Bench' });
  const user = async (kind: 'client_admin' | 'driver') => {
    const userId = await accounts.createUser(handle.db, {
      kind,
      email: `${kind}@bench.test`,
      name: kind,
      password: null,
      businessId,
    });
    return { userId, token: (await accounts.issueToken(handle.db, { userId, kind: 'personal' })).token };
  };
  const admin = await user('client_admin');
  const driver = await user('driver');
  const call = async (method: string, route: string, body: unknown, token = admin.token) => {
    const answer = await fetch(base + route, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of known answers
    const json: any = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };

  // Order chat on and set up; ORDERS orders on the driver's route.
  await call('PUT', '/v1/client/feature-families/order_chat', { enabled: true });
  await call('PUT', '/v1/client/order-chat/settings', { customer_chat: false });
  const depot = await call('POST', '/v1/client/depots', { name: 'Depot', lat: 48.85, lng: 2.35 });
  await call('PUT', `/v1/client/drivers/${driver.userId}/profile`, {
    depot_id: depot.depot.id,
    capacity: { weight_grams: 1_000_000, volume_cm3: 10_000_000, count: 500 },
    shift: { start: '06:00', end: '22:00' },
  });
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const orderIds: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const created = await call('POST', '/v1/client/orderCreate', {
      scheduled_date: day,
      dropoff: { line1: `${i} Rue de Rivoli`, lat: 48.86 + i / 1000, lng: 2.36 },
    });
    orderIds.push(created.order_id);
  }
  const built = await call('POST', '/v3/client/build-route', { date: day });
  if (built.totals.orders !== ORDERS)
    throw new Error(`route holds ${built.totals.orders} of ${ORDERS} orders`);

  // The driver app: subscribed to its own topic, where every message of its orders arrives.
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  const subscriber = await mqtt.connectAsync(brokerUrl, { username: 'driver', password: driver.token });
  subscriber.on('message', (_topic, payload) => {
    const push = JSON.parse(payload.toString()) as { message: { text: string } };
    const sent = sentAt.get(push.message.text);
    if (sent === undefined) return;
    sentAt.delete(push.message.text);
    if (measuring) latencies.push(performance.now() - sent);
  });
  await subscriber.subscribeAsync(`${defaults.mqtt.topicPrefix}/drivers/${businessId}/${driver.userId}`, {
    qos: 1,
  });

  const postLatencies: number[] = [];
  let failed = 0;
  const run = async (seconds: number, measured: boolean) => {
    const total = Math.round(seconds * RATE);
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const text = `${measured ? 'm' : 'w'}-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const orderId = orderIds[i % orderIds.length]!;
      const sent = performance.now();
      sentAt.set(text, sent);
      inFlight.push(
        fetch(`${base}/v1/order-chats/${orderId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        }).then(async (answer) => {
          await answer.arrayBuffer();
          if (!answer.ok) failed++;
          if (measured) postLatencies.push(performance.now() - sent);
        }),
      );
    }
    await Promise.all(inFlight);
    // Let the last pushes arrive.
    const deadline = performance.now() + 10_000;
    while (sentAt.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return total;
  };

  say(`warm-up: ${WARMUP} s at ${RATE} posts/s`);
  await run(WARMUP, false);
  sentAt.clear();
  measuring = true;
  say(`measuring: ${SECONDS} s at ${RATE} posts/s over ${ORDERS} conversations`);
  const posted = await run(SECONDS, true);
  const lost = sentAt.size;
  await subscriber.endAsync();

  const sorted = [...latencies].sort((a, b) => a - b);
  const posts = [...postLatencies].sort((a, b) => a - b);
  const ms = (value: number) => value.toFixed(1);
  process.stdout.write(
    [
      `posts: ${posted} at ${RATE}/s (${failed} refused), pushes received: ${latencies.length}, missing after 10 s: ${lost}`,
      `POST -> driver's MQTT receipt (ms): p50 ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)}`,
      `POST answer alone (ms): p50 ${ms(percentile(posts, 50))}, p99 ${ms(percentile(posts, 99))}`,
      '',
    ].join('\n'),
  );
} finally {
  await app.stopBackground();
  await app.http.close();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
