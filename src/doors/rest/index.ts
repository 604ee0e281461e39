import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import { type Executor, validationFailed } from '../../platform/catalog/executor.ts';
import { Representation, type RestBody } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { bearerOf, headerOf } from '../../platform/http/server.ts';
import { validationErrorMap } from '../../platform/i18n/index.ts';

export const API_PREFIX = '/api';

const JSON_OBJECT = z.record(z.string(), z.unknown());

/** One route per operation with a REST binding; the executor does everything else. */
export async function registerRestDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
): Promise<void> {
  for (const operation of catalog.list()) {
    const binding = operation.rest;
    if (!binding) continue;
    const route: RouteOptions = {
      method: binding.method,
      url: API_PREFIX + binding.path,
      ...(binding.body?.limitBytes ? { bodyLimit: binding.body.limitBytes } : {}),
      handler: async (request, reply) => {
        const result = await executor.execute(operation, restInput(request, binding.body), {
          bearer: bearerOf(request),
          providerKey: headerOf(request, 'x-otep-provider-key'),
          accept: headerOf(request, 'accept'),
          door: 'rest',
          lang: request.lang,
          requestId: request.id,
          ip: request.ip,
          dryRun: isTrue(headerOf(request, 'x-dry-run')),
        });
        if (!(result instanceof Representation)) {
          return binding.etag ? conditionalJson(request, reply, result) : result;
        }
        // Bytes (a PDF, ...) go as they are; any other document is JSON in its own media type.
        const body = Buffer.isBuffer(result.body) ? result.body : JSON.stringify(result.body);
        return reply.type(result.mediaType).send(body);
      },
    };
    const body = binding.body;
    if (!body?.jsonTypes && !body?.bytes && !body?.unsupported) {
      app.route(route);
      continue;
    }
    // The media types one route takes stay in a scope of its own.
    await app.register(async (scope) => {
      for (const type of body.jsonTypes ?? []) {
        scope.addContentTypeParser(type, { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));
      }
      for (const type of body.bytes?.mediaTypes ?? []) {
        scope.addContentTypeParser(type, { parseAs: 'buffer' }, (_request, bytes, done) => done(null, bytes));
      }
      if (body.unsupported) {
        const refusal = body.unsupported;
        scope.setErrorHandler((error: FastifyError) => {
          if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new AppError(refusal);
          throw error;
        });
      }
      scope.route(route);
    });
  }
}

/**
 * The operation's input: the body (its fields, or the whole of it as one field), then query
 * parameters, then path parameters.
 */
function restInput(request: FastifyRequest, body: RestBody | undefined): Record<string, unknown> {
  return {
    ...bodyInput(request, body),
    ...(request.query as Record<string, unknown>),
    ...(request.params as Record<string, unknown>),
  };
}

function bodyInput(request: FastifyRequest, body: RestBody | undefined): Record<string, unknown> {
  // Only the media types of `body.bytes` are parsed as bytes.
  if (Buffer.isBuffer(request.body) && body?.bytes) return { [body.bytes.field]: request.body };
  if (body?.field) return { [body.field]: request.body };
  const fields = JSON_OBJECT.safeParse(request.body ?? {}, { error: validationErrorMap(request.lang) });
  if (!fields.success) throw validationFailed(fields.error);
  return fields.data;
}

/**
 * A JSON answer with a strong ETag of its bytes, or 304 without a body when the caller's
 * If-None-Match already names it: pollers re-read only what changed.
 */
function conditionalJson(request: FastifyRequest, reply: FastifyReply, result: unknown) {
  const body = JSON.stringify(result);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  const asked = headerOf(request, 'if-none-match');
  // Weak comparison (RFC 9110, 13.1.2): W/ prefixes do not matter for If-None-Match.
  const matches = asked
    ?.split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
  if (matches) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}

function isTrue(header: string | undefined): boolean {
  return header === '1' || header === 'true';
}
