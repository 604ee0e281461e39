/**
 * Records a request and a success answer of every operation with a REST binding, from the demo,
 * into src/doors/openapi/examples.json (`npm run openapi:examples`), which the OpenAPI document
 * shows as examples. The whole service runs on a throwaway embedded database with the demo seeded
 * at a fixed moment, so ids and dates come out the same from one run to the next; writes run as
 * dry runs (X-Dry-Run: 1), so each one meets the demo as it was seeded.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { migrateIfBehind } from '../../database.ts';
import { seedDemo } from '../../demo/seed.ts';
import { LockerSimulator } from '../../modules/lockers/index.ts';
import type { ContactMessage } from '../../modules/reservations/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { startEmbeddedPostgres } from '../../platform/db/embedded.ts';
import { API_PREFIX } from '../rest/index.ts';
import { type Demo, EXAMPLE_MOMENT, lookUpDemo, signIn } from './example-demo.ts';
import { HANDWRITTEN } from './example-handwritten.ts';
import { exampleCalls, parameterOf } from './example-inputs.ts';
import { seedRandomness } from './example-randomness.ts';
import { type ExampleCall, requestOf, sendExample, tidyAnswer } from './example-requests.ts';
import { SETUP } from './example-setup.ts';
import { committedExamples, EXAMPLES_FILE, type OperationExample } from './examples.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);
const only = process.argv.slice(2);

seedRandomness('tms-openapi-examples');
const directory = await mkdtemp(path.join(tmpdir(), 'tms-examples-'));
const database = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(database.url, { timeouts: 'none' });
const config = {
  ...loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    MQTT_PORT: '0',
    SOLVER_THREADS: '1',
    // Links in answers name a deployment, not this run's loopback port.
    PUBLIC_BASE_URL: 'https://tms.example.com',
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_BUSINESS_PER_MINUTE: '10000000',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '1000000',
  }),
  databaseUrl: database.url,
};
let failures = 0;
try {
  await migrateIfBehind(handle, database.url, say);
  // The link keys the migrations drew in PostgreSQL, fixed too: the signed links answers carry
  // then stay the same between runs.
  for (const table of ['reservation_link_keys', 'sms_link_keys'])
    await sql`update ${sql.table(table)} set secret = sha256(${`tms-openapi-examples:${table}`}::bytea)`.execute(
      handle.db,
    );
  const clock = new ManualClock(EXAMPLE_MOMENT);
  // Booking codes go to whoever booked: here, to the examples, which confirm a booking with one.
  const contacted: ContactMessage[] = [];
  const app = await createApp(config, handle.db, clock, {
    contactSender: { send: async (message) => void contacted.push(message) },
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  // The background work hears devices (the locker's presence), as a running service does.
  await app.startBackground(handle.pool);
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}${API_PREFIX}`;
  try {
    const credentials = await seedDemo(handle.db, app.services, 'examples-password', clock);
    if (!credentials) throw new Error('the throwaway database already held the demo');
    // The demo's locker, played as `tms locker simulate` plays it: bookings need it online.
    const locker = new LockerSimulator({
      url: app.mqtt.where().replace('//0.0.0.0:', '//127.0.0.1:'),
      deviceId: credentials.locker.device_id,
      credential: credentials.locker.credential,
      compartments: credentials.locker.compartments,
      clock: () => clock.now(),
    });
    await locker.start();
    await locker.heartbeat();
    await untilOnline(credentials.locker.device_id);
    const tokens = await signIn(baseUrl, 'examples-password');
    const made: Record<string, unknown> = { contacted };
    for (const step of SETUP) {
      const demo = await lookUpDemo(handle.db, credentials, tokens, made);
      const operation = app.catalog.get(step.operation)!;
      const request = requestOf(operation, step.call(demo), (name) => parameterOf(name, demo));
      const answer = await sendExample(baseUrl, operation, request, demo, true);
      if (answer.status !== 200 && answer.status !== 202)
        throw new Error(`Set-up step ${step.name} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      made[step.name] = answer.body;
    }
    const demo: Demo = await lookUpDemo(handle.db, credentials, tokens, made);
    const calls = exampleCalls(demo);
    const operations = app.catalog
      .list()
      .filter((operation) => operation.rest && (only.length === 0 || only.includes(operation.name)));
    // Named operations only: the others keep what the file holds.
    const recorded: Record<string, OperationExample> = only.length > 0 ? { ...committedExamples() } : {};
    for (const [n, operation] of operations.entries()) {
      const call: ExampleCall | undefined = calls[operation.name];
      const progress = `${n + 1} of ${operations.length} ${operation.name}`;
      const handwritten = HANDWRITTEN[operation.name];
      if (handwritten) {
        // After the recorded ones: an answer may be like another operation's.
        say(`${progress}: written by hand (${handwritten.why})`);
        continue;
      }
      if (!call) {
        failures++;
        say(`${progress}: no example input (src/doors/openapi/example-inputs.ts)`);
        continue;
      }
      const request = requestOf(operation, call, (name) => parameterOf(name, demo));
      const answer = await sendExample(baseUrl, operation, request, demo);
      if (answer.status !== 200 || typeof answer.body !== 'object') {
        failures++;
        say(`${progress}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
        continue;
      }
      recorded[operation.name] = { request: request.recorded, answer: tidyAnswer(answer.body) };
      say(`${progress}: 200`);
    }
    for (const operation of operations) {
      const handwritten = HANDWRITTEN[operation.name];
      if (!handwritten) continue;
      const like = handwritten.like ? recorded[handwritten.like]?.answer : undefined;
      if (handwritten.like && !like) {
        failures++;
        say(`${operation.name}: ${handwritten.like}, whose answer it borrows, has no example`);
        continue;
      }
      const answer = like
        ? (handwritten.patch ?? ((same) => same))(like as Record<string, unknown>)
        : handwritten.answer;
      recorded[operation.name] = { request: handwritten.request, answer };
    }
    await writeFile(EXAMPLES_FILE, `${JSON.stringify(sortedKeys(recorded), null, 2)}\n`);
    say(`Wrote ${EXAMPLES_FILE}: ${Object.keys(recorded).length} of ${operations.length} operations`);
    await locker.stop();
  } finally {
    await app.http.close();
    await app.stopBackground();
  }
} finally {
  await handle.close();
  await database.stop();
  await rm(directory, { recursive: true, force: true });
}
if (failures > 0) {
  say(`${failures} operations have no example: see above`);
  process.exitCode = 1;
}

/** Waits for the service to have heard the simulated locker (its presence is written as it comes). */
async function untilOnline(deviceId: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await sql<{ last_seen_at: Date | null }>`
      select last_seen_at from locker_devices where id = ${deviceId}`.execute(handle.db);
    if (rows[0]?.last_seen_at) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The simulated locker never came online');
}

/** The value with every object's keys in order: the file changes only where an answer does. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
