import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { say } from './support.ts';

// How many SQL statements a receiving scan sends (`receive_packages`), counted on the service's
// own connections (the token's look-up, BEGIN and COMMIT included; no background work runs), for
// 1 and 20 parcels: picked up already (one step) or straight from the sender (two steps), by an
// admin or by an employee with the warehouse role, webhooks off and on. Counts, not times: they
// are the same on a busy machine as on an idle one.

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
try {
  await migrateToLatest(handle.db);
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await createApp(
    {
      ...defaults,
      databaseUrl: cluster.url,
      limits: withoutRequestLimits(defaults.limits),
      // Nothing is delivered (no outbox worker runs): the webhook URLs only have to be accepted.
      webhooks: { ...defaults.webhooks, allow: { ...defaults.webhooks.allow, loopback: true } },
    },
    handle.db,
    systemClock,
  );
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/api`;

  // Every statement the pool's connections send, while `counted` is set.
  let counted: string[] | undefined;
  const connect = handle.pool.connect.bind(handle.pool) as () => Promise<{
    query: (...args: unknown[]) => unknown;
  }>;
  const watched = new WeakSet<object>();
  (handle.pool as unknown as { connect: typeof connect }).connect = async () => {
    const connection = await connect();
    if (!watched.has(connection)) {
      watched.add(connection);
      const query = connection.query.bind(connection);
      connection.query = (...args: unknown[]) => {
        counted?.push(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text);
        return query(...args);
      };
    }
    return connection;
  };

  const { accounts } = app.services;
  const businessId = await accounts.createBusiness(handle.db, {
    code: 'count',
    name: 'Count',
    timeZone: 'Europe/Paris',
  });
  const password = 'bench password';
  const users: Record<'admin' | 'employee', number> = {
    admin: await accounts.createUser(handle.db, {
      kind: 'client_admin',
      email: 'admin@count.test',
      name: 'Admin',
      password,
      businessId,
    }),
    employee: await accounts.createUser(handle.db, {
      kind: 'employee',
      email: 'employee@count.test',
      name: 'Employee',
      password,
      businessId,
    }),
  };
  const tokens: Record<string, string> = {};
  for (const who of Object.keys(users)) {
    const answer = await fetch(`${baseUrl}/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${who}@count.test`, password }),
    });
    tokens[who] = ((await answer.json()) as { access_token: string }).access_token;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of JSON answers
  const call = async (method: string, route: string, body: unknown, who = 'admin'): Promise<any> => {
    const answer = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[who]}` },
      body: JSON.stringify(body),
    });
    const json = await answer.json();
    if (answer.status !== 200)
      throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };

  const { warehouse } = await call('POST', '/v1/client/warehouses', {
    code: 'NORTH',
    name: 'Warehouse NORTH',
    line1: '1 Rue du Nord',
    city: 'Paris',
    country: 'FR',
    lat: 48.86,
    lng: 2.34,
    time_zone: 'Europe/Paris',
    postal_prefixes: ['75'],
  });
  await call('PUT', `/v1/client/warehouses/${warehouse.id}/staff`, { user_ids: [users.employee] });

  const receive = async (who: string, parcels: number, straight: boolean) => {
    const { orders } = await call('POST', '/v1/client/orderCreate', {
      orders: Array.from({ length: parcels }, (_, i) => ({
        dropoff: {
          line1: `${i + 1} Rue de Rivoli`,
          city: 'Paris',
          postal_code: '75001',
          lat: 48.86,
          lng: 2.34,
        },
      })),
    });
    if (!straight) {
      for (const order of orders)
        await call('POST', `/v1/client/orders/${order.id}/status`, { status: 'PICKED_UP' });
    }
    counted = [];
    const scan = await call(
      'POST',
      `/v1/warehouse/${warehouse.id}/receive`,
      {
        tracking_numbers: orders.map(
          (order: { packages: Array<{ tracking_number: string }> }) => order.packages[0]!.tracking_number,
        ),
      },
      who,
    );
    const statements = counted.length;
    counted = undefined;
    if (scan.received !== parcels) throw new Error(`received ${scan.received} of ${parcels}`);
    return statements;
  };

  say('Counting the statements of receiving scans ...');
  console.log('| webhooks | scanned by | parcels come in | 1 parcel | 20 parcels (a parcel) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const webhooks of [false, true]) {
    if (webhooks) {
      await call('PUT', '/v1/webhook-settings', {
        urls: {
          'order.status_changed': 'http://127.0.0.1:9/status',
          'tracking.event': 'http://127.0.0.1:9/tracking',
        },
        generate_secret: true,
      });
    }
    for (const who of ['admin', 'employee']) {
      for (const straight of [false, true]) {
        const one = await receive(who, 1, straight);
        const twenty = await receive(who, 20, straight);
        console.log(
          `| ${webhooks ? 'on' : 'off'} | ${who === 'admin' ? 'client admin' : 'employee (warehouse role)'} | ${straight ? 'straight from the sender (NEW_ORDER)' : 'picked up (PICKED_UP)'} | ${one} | ${twenty} (${(twenty / 20).toFixed(2)}) |`,
        );
      }
    }
  }
  await app.http.close();
} finally {
  await handle.db.destroy();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
