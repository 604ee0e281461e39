import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Executor, validationFailed } from '../../platform/catalog/executor.ts';
import { Representation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { bearerOf } from '../../platform/http/server.ts';
import { validationErrorMap } from '../../platform/i18n/index.ts';

export const API_PREFIX = '/api';

const JSON_OBJECT = z.record(z.string(), z.unknown());

/** One route per operation with a REST binding; the executor does everything else. */
export function registerRestDoor(app: FastifyInstance, catalog: Catalog, executor: Executor): void {
  for (const operation of catalog.list()) {
    const binding = operation.rest;
    if (!binding) continue;
    app.route({
      method: binding.method,
      url: API_PREFIX + binding.path,
      handler: async (request, reply) => {
        const result = await executor.execute(operation, restInput(request), {
          bearer: bearerOf(request),
          providerKey: headerOf(request, 'x-otep-provider-key'),
          accept: headerOf(request, 'accept'),
          door: 'rest',
          lang: request.lang,
          requestId: request.id,
          ip: request.ip,
          dryRun: isTrue(request.headers['x-dry-run']),
        });
        if (!(result instanceof Representation)) return result;
        // Bytes (a PDF, ...) go as they are; any other document is JSON in its own media type.
        const body = Buffer.isBuffer(result.body) ? result.body : JSON.stringify(result.body);
        return reply.type(result.mediaType).send(body);
      },
    });
  }
}

/** The operation's input: the JSON body's fields, then query parameters, then path parameters. */
function restInput(request: FastifyRequest): Record<string, unknown> {
  const body = JSON_OBJECT.safeParse(request.body ?? {}, { error: validationErrorMap(request.lang) });
  if (!body.success) throw validationFailed(body.error);
  return {
    ...body.data,
    ...(request.query as Record<string, unknown>),
    ...(request.params as Record<string, unknown>),
  };
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isTrue(header: string | string[] | undefined): boolean {
  return header === '1' || header === 'true';
}
