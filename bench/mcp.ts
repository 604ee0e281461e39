import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { z } from 'zod';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { withoutRequestLimits } from './limits.ts';
import { startLoader } from './loader.ts';
import { knob, say } from './support.ts';
import type { LoadJob, LoadResult } from './tracking-load.ts';

const CONNECTIONS = knob('CONNECTIONS', 50);
const SECONDS = knob('SECONDS', 10);
const WARMUP = knob('WARMUP', 2);
const ROUNDS = knob('ROUNDS', 3);
/** `service` or `bare`: measure one side only (for a CPU profile of it). */
const ONLY = process.env.ONLY;

const { process: loader, load } = startLoader();

/**
 * The SDK's own server, as its documentation builds a stateless one, answering from memory; it
 * shares one JSON Schema validator across requests, as the service does (the SDK's default builds
 * one per server, which would halve its ceiling).
 */
function bareSdkServer(answer: Record<string, unknown>) {
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const server = new McpServer({ name: 'bare', version: '1.0.0' }, { jsonSchemaValidator });
    server.registerTool(
      'track_package',
      { description: 'Where a parcel is', inputSchema: { tracking_number: z.string() } },
      async () => ({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, JSON.parse(Buffer.concat(chunks).toString('utf8')));
  };
  return createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      response.statusCode = 500;
      response.end(error.message);
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const directory = await mkdtemp(path.join(tmpdir(), 'tms-bench-mcp-'));
say('Starting a throwaway PostgreSQL cluster and the service with the demo business ...');
const cluster = await startEmbeddedPostgres({ directory, ephemeral: true });
const handle = openDatabase(cluster.url);
await migrateToLatest(handle.db);
const defaults = loadConfig({ LOG_LEVEL: 'silent' });
const app = await createApp(
  { ...defaults, databaseUrl: cluster.url, limits: withoutRequestLimits(defaults.limits) },
  handle.db,
  systemClock,
);
await seedDemo(handle.db, app.services, 'bench-password');
await app.http.listen({ port: 0, host: '127.0.0.1' });
const serviceUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
try {
  const { tracking_number: trackingNumber } = await handle.db
    .selectFrom('packages')
    .select('tracking_number')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'track_package', arguments: { tracking_number: trackingNumber } },
  });
  const headers = { accept: 'application/json, text/event-stream' };
  // The bare server answers exactly what the service answers for this number.
  const first = (await (
    await fetch(`${serviceUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    })
  ).json()) as {
    result: { structuredContent: Record<string, unknown>; isError?: boolean };
  };
  if (first.result.isError) throw new Error(`track_package failed: ${JSON.stringify(first.result)}`);
  const bare = bareSdkServer(first.result.structuredContent);
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const run = async (url: string, label: string) => {
    const job: LoadJob = {
      kind: 'post',
      url,
      path: '/mcp',
      headers,
      body,
      connections: CONNECTIONS,
      seconds: SECONDS,
    };
    if (WARMUP > 0) await load({ ...job, seconds: WARMUP });
    const result = await load(job);
    if (result.non2xx + result.errors + result.timeouts > 0) {
      throw new Error(
        `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
      );
    }
    say(`  ${label}: ${result.perSecond.toFixed(0)} calls/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
    return result;
  };
  const service: LoadResult[] = [];
  const sdk: LoadResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    say(`Round ${round}/${ROUNDS}: ${CONNECTIONS} connections, ${SECONDS} s each`);
    if (ONLY !== 'bare') service.push(await run(serviceUrl, 'service /mcp'));
    if (ONLY !== 'service') sdk.push(await run(bareUrl, 'bare SDK server'));
  }
  if (ONLY) {
    say(`ONLY=${ONLY}: one side measured, no ratio`);
    process.exit(0);
  }
  const ours = median(service.map((r) => r.perSecond));
  const ceiling = median(sdk.map((r) => r.perSecond));
  const row = (label: string, results: LoadResult[]) =>
    `| ${label} | ${median(results.map((r) => r.perSecond)).toFixed(0)} | ${median(results.map((r) => r.p50))} | ${median(results.map((r) => r.p99))} |`;
  process.stdout.write(
    [
      `tools/call track_package, ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds`,
      '',
      '| Server | calls/s | p50 ms | p99 ms |',
      '|---|---|---|---|',
      row('service /mcp (PostgreSQL read, executor, limits off)', service),
      row('bare SDK server (same answer from memory)', sdk),
      '',
      `ratio service / bare SDK: ${(ours / ceiling).toFixed(2)} (target >= 0.8)`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => bare.close(() => resolve()));
} finally {
  loader.kill();
  await app.http.close();
  await app.stopBackground();
  await handle.close();
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
}
