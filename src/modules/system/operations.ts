import { sql } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';

const DATABASE_CHECK_TIMEOUT_MS = 3_000;

export function systemOperations(): Operation[] {
  return [
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
