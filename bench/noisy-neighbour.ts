/**
 * Noisy neighbours: one business floods the API with one token while another business reads its
 * orders, with the request limits on (the defaults) and off, in one run on a throwaway embedded
 * PostgreSQL. Target: the victim's p99 with the flood stays within 2x of its unloaded p99, while
 * the flooder gets 429s.
 *
 *   node --import tsx bench/noisy-neighbour.ts
 *   SECONDS=5 node --import tsx bench/noisy-neighbour.ts
 *
 * Both load generators (autocannon, bench/tracking-load.ts) run in child processes of their own;
 * the two services (limits on, limits off) run in this process on one database, one at a time.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { say } from './support.ts';
import type { LoadJob, LoadResult } from './tracking-load.ts';

const SECONDS = Number(process.env.SECONDS ?? 15);
const VICTIM_CONNECTIONS = 4;
/** The victim's steady pace: an office's dashboards and agents, well within its share. */
const VICTIM_RATE = 10;
const FLOOD_CONNECTIONS = 50;
const ORDERS = 60;

const loaderPath = fileURLToPath(new URL('./tracking-load.ts', import.meta.url));
const loaders: ChildProcess[] = [];
function load(job: LoadJob): Promise<LoadResult> {
  const child = fork(loaderPath, [], { execArgv: ['--import', 'tsx'] });
  loaders.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: LoadResult; error?: string }) => {
      child.kill();
      if (message.error) reject(new Error(message.error));
      else resolve(message.result!);
    });
    child.send({ id: 1, job });
  });
}

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-pg-'));
say('Starting a throwaway PostgreSQL cluster ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent' });
const start = async (config: Config) => {
  const app = await createApp(config, handle.db, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}` };
};
const limited = await start({ ...defaults, databaseUrl: cluster.url });
const unlimited = await start({
  ...defaults,
  databaseUrl: cluster.url,
  limits: withoutRequestLimits(defaults.limits),
});

const lines: string[] = [];
try {
  const { accounts } = limited.app.services;
  const tokenOf = async (code: string) => {
    const businessId = await accounts.createBusiness(handle.db, { code, name: code });
    const userId = await accounts.createUser(handle.db, {
      kind: 'client_admin',
      email: `admin@${code}.test`,
      name: `Admin of ${code}`,
      password: null,
      businessId,
    });
    return (await accounts.issueToken(handle.db, { userId, kind: 'personal' })).token;
  };
  const [flooder, victim] = [await tokenOf('flooder'), await tokenOf('victim')];
  for (const token of [flooder, victim]) {
    const orders = Array.from({ length: ORDERS }, (_, index) => ({
      order_ref: `R-${index}`,
      dropoff: { line1: `${index} Rue de la Paix`, city: 'Paris', postal_code: '75002', country: 'FR' },
    }));
    const answer = await fetch(`${limited.url}/api/v1/client/orders/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orders }),
    });
    if (!answer.ok) throw new Error(`bulk create: ${answer.status} ${await answer.text()}`);
  }

  const read = (url: string, token: string, connections: number, rate?: number): LoadJob => ({
    kind: 'get',
    ...(rate ? { rate } : {}),
    url,
    prefix: '/api/v1/client/orders?per_page=20&page=',
    numbers: ['1', '2', '3'],
    connections,
    seconds: SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  const row = (label: string, result: LoadResult) =>
    `| ${label} | ${result.perSecond.toFixed(0)} | ${result.p50} / ${result.p99} | ` +
    `${result.statuses?.['2xx'] ?? 0} / ${result.statuses?.['429'] ?? 0} / ${result.statuses?.['5xx'] ?? 0} |`;

  const rounds: Array<{
    alone: LoadResult;
    limitedVictim: LoadResult;
    limitedFlood: LoadResult;
    openVictim: LoadResult;
    openFlood: LoadResult;
  }> = [];
  for (const [index, service] of [limited, limited, limited].entries()) {
    say(`round ${index + 1}: the victim alone, ${VICTIM_CONNECTIONS} connections, ${SECONDS} s ...`);
    const alone = await load(read(service.url, victim, VICTIM_CONNECTIONS, VICTIM_RATE));
    say(
      `round ${index + 1}: limits on, the flooder at ${FLOOD_CONNECTIONS} connections beside the victim ...`,
    );
    const [limitedVictim, limitedFlood] = await Promise.all([
      load(read(limited.url, victim, VICTIM_CONNECTIONS, VICTIM_RATE)),
      load(read(limited.url, flooder, FLOOD_CONNECTIONS)),
    ]);
    say(`round ${index + 1}: limits off, the same ...`);
    const [openVictim, openFlood] = await Promise.all([
      load(read(unlimited.url, victim, VICTIM_CONNECTIONS, VICTIM_RATE)),
      load(read(unlimited.url, flooder, FLOOD_CONNECTIONS)),
    ]);
    rounds.push({ alone, limitedVictim, limitedFlood, openVictim, openFlood });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratio = (pick: (round: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  lines.push(
    `Node ${process.version}; ${SECONDS} s per measurement; ${rounds.length} rounds; each business has ${ORDERS} orders; ` +
      `the victim reads pages of 20 orders at ${VICTIM_RATE} requests/s over ${VICTIM_CONNECTIONS} connections, the flooder as fast as ${FLOOD_CONNECTIONS} connections go; ` +
      `default limits (${defaults.limits.perTokenPerMinute} a minute per token, ${defaults.limits.perBusinessPerMinute} per business).`,
    '',
    '| run | requests/s | p50 / p99 ms | 2xx / 429 / 5xx |',
    '| --- | --- | --- | --- |',
  );
  for (const [index, round] of rounds.entries()) {
    lines.push(
      row(`round ${index + 1}: victim alone`, round.alone),
      row(`round ${index + 1}: victim beside the flood, limits on`, round.limitedVictim),
      row(`round ${index + 1}: flooder, limits on`, round.limitedFlood),
      row(`round ${index + 1}: victim beside the flood, limits off`, round.openVictim),
      row(`round ${index + 1}: flooder, limits off`, round.openFlood),
    );
  }
  const limitedRatio = ratio((round) => round.limitedVictim.p99 / round.alone.p99);
  const openRatio = ratio((round) => round.openVictim.p99 / round.alone.p99);
  lines.push(
    '',
    `Victim p99 beside the flood over its p99 alone (median of rounds): limits on ${limitedRatio.toFixed(2)}x ` +
      `(target at most 2x: ${limitedRatio <= 2 ? 'met' : 'not met'}), limits off ${openRatio.toFixed(2)}x.`,
  );
} finally {
  for (const child of loaders) child.kill();
  await limited.app.http.close();
  await unlimited.app.http.close();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
process.stdout.write(`${lines.join('\n')}\n`);
