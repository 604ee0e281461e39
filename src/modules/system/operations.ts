import { sql } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';

const DATABASE_CHECK_TIMEOUT_MS = 3_000;

/** What the service offers agents, as the composition root knows it (the catalog's tools, ...). */
export interface Capabilities {
  api_version: string;
  agent_servers: Array<{ server: string; path: string; tools: string[] }>;
  profiles: Record<string, string[]>;
  scopes: string[];
  tracking_formats: string[];
  connection_headers: string[];
}

const capabilitiesSchema = z.object({
  result: z.literal(true),
  api_version: z.string(),
  agent_servers: z.array(z.object({ server: z.string(), path: z.string(), tools: z.array(z.string()) })),
  profiles: z.record(z.string(), z.array(z.string())).describe('Profile -> scopes; ["*"] for every scope'),
  scopes: z.array(z.string()),
  tracking_formats: z.array(z.string()),
  connection_headers: z.array(z.string()),
});

export function systemOperations(capabilities: () => Capabilities): Operation[] {
  return [
    defineOperation({
      name: 'get_capabilities',
      summary: 'What the service offers agents: tool servers and their tools, profiles, scopes, formats',
      description:
        'Call it first on a new connection to learn what it can do: the agent tool servers with their tools, the profiles and the scopes each grants, the tracking formats and the connection headers. Needs no token.',
      tag: 'System',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_capabilities',
        guide:
          'What this service offers an agent: its tool servers and their tools, the profiles and the scopes each grants, the tracking formats, the connection headers. Call it first to learn what a connection can do.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'GET', path: '/v1/agent/capabilities' },
      graphql: 'capabilities',
      input: z.object({}),
      output: capabilitiesSchema,
      handler: async () => ({ result: true as const, ...capabilities() }),
    }),
    defineOperation({
      name: 'get_health',
      summary: 'Liveness and database reachability',
      description: 'Answers 200 when the service can query its database, 503 otherwise.',
      tag: 'System',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['SERVICE_UNAVAILABLE'],
      rest: { method: 'GET', path: '/health' },
      graphql: 'health',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        status: z.literal('ok'),
        database: z.object({ status: z.literal('ok'), latency_ms: z.number() }),
      }),
      handler: async (ctx) => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            sql`SELECT 1`.execute(ctx.db),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timed out')), DATABASE_CHECK_TIMEOUT_MS);
            }),
          ]);
        } catch {
          // A public endpoint does not describe the internals; the database logs its own failures.
          throw new AppError('SERVICE_UNAVAILABLE', { details: { database: 'unreachable' } });
        } finally {
          clearTimeout(timer);
        }
        const latency = Math.round((performance.now() - started) * 100) / 100;
        return {
          result: true as const,
          status: 'ok' as const,
          database: { status: 'ok' as const, latency_ms: latency },
        };
      },
    }),
  ];
}
