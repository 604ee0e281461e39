import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { type Executor, type Invocation, validationFailed } from '../../platform/catalog/executor.ts';
import {
  type Caller,
  Representation,
  type RestBinding,
  type RestBody,
} from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { bytesTag, sendNotModified } from '../../platform/http/etag.ts';
import { EventStream, LiveAnswers } from '../../platform/http/event-stream.ts';
import { preferredRepresentation } from '../../platform/http/media-types.ts';
import { headerOf } from '../../platform/http/server.ts';
import { validationErrorMap } from '../../platform/i18n/index.ts';
import { holdsSharedParts, toJson } from '../../platform/json.ts';
import { stringifyInSlices } from '../../platform/slices.ts';
import { invocationOf } from '../invocation.ts';
import type { JsonSchema } from '../json-schema.ts';
import { jsonSchemaOf } from '../json-schema.ts';
import { textValueReader } from './query-values.ts';

export const API_PREFIX = '/api';

const JSON_OBJECT = z.record(z.string(), z.unknown());

/**
 * Who a mount of the REST door takes its caller from, when not from the bearer token: a page's
 * session (the screens call the same operations at `{prefix}/v1/...`), refused with an AppError.
 */
export type SessionCaller = (request: FastifyRequest) => Promise<Caller>;

/**
 * One route per operation with a REST binding; the executor does everything else. By default at
 * `/api` with bearer tokens; a screen's mount takes another prefix and its session's person.
 */
export async function registerRestDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  mount: { prefix: string; callerOf: SessionCaller } | undefined = undefined,
): Promise<void> {
  const prefix = mount?.prefix ?? API_PREFIX;
  const liveAnswers = new LiveAnswers(app);
  for (const operation of catalog.list()) {
    const binding = operation.rest;
    if (!binding) continue;
    const readText = textValueReader(jsonSchemaOf(operation.input, 'input') as JsonSchema);
    const cacheControl = binding.cache
      ? `public, max-age=${binding.cache.maxAgeSeconds}, stale-while-revalidate=${binding.cache.staleWhileRevalidateSeconds}`
      : binding.etag
        ? 'no-cache'
        : undefined;
    const route: RouteOptions = {
      method: binding.method,
      url: prefix + binding.path,
      ...(binding.body?.limitBytes ? { bodyLimit: binding.body.limitBytes } : {}),
      handler: async (request, reply) => {
        const representation = preferredRepresentation(
          headerOf(request, 'accept'),
          operation.representations,
        );
        const invocation: Invocation = {
          ...(mount
            ? {
                ...invocationOf(request, 'page', { anonymous: true }),
                signedIn: await mount.callerOf(request),
              }
            : invocationOf(request, 'rest')),
          representation,
          // REST can answer "accepted" (202 and Location): the caller may ask for it (RFC 7240).
          async: prefersAsync(headerOf(request, 'prefer')) ? 'preferred' : 'allowed',
          // A public read's path and query are all its input is made from.
          ...(operation.publicCache && binding.method === 'GET'
            ? { requestWords: `${request.url}\n${request.lang}\n${representation ?? ''}` }
            : {}),
        };
        if (cacheControl) reply.header('cache-control', cacheControl);
        if (binding.cache) reply.header('vary', 'Accept, Accept-Language');
        const kept = await executor.keptAnswerOf(operation, invocation);
        if (kept) invocation.answer!.version = kept.version;
        const input = kept ? undefined : restInput(request, binding, readText);
        // A caller holding a tag of the current version needs nothing built: 304 at once.
        if (!kept && binding.etag && operation.version && headerOf(request, 'if-none-match')) {
          const version = await executor.version(operation, input, invocation);
          if (
            version !== null &&
            sendNotModified(request, reply, versionTag(operation.name, version, request))
          ) {
            return reply;
          }
        }
        const result = kept ? kept.answer : await executor.execute(operation, input, invocation);
        const version = invocation.answer?.version;
        if (binding.etag && version !== undefined) {
          if (sendNotModified(request, reply, versionTag(operation.name, version, request))) return reply;
        }
        const accepted = invocation.answer?.accepted;
        if (accepted) reply.code(202).header('location', accepted.location);
        if (accepted && invocation.async === 'preferred') reply.header('preference-applied', 'respond-async');
        const answer = result instanceof Representation ? result : undefined;
        if (answer?.body instanceof EventStream) {
          liveAnswers.write(reply, answer.body);
          return reply;
        }
        // Bytes (a PDF, ...) go as they are; any other document is JSON (in its own media type).
        const body =
          answer && Buffer.isBuffer(answer.body)
            ? answer.body
            : await answerJson(answer ? answer.body : result);
        if (binding.etag && version === undefined && sendNotModified(request, reply, bytesTag(body))) {
          return reply;
        }
        if (answer) reply.headers(answer.headers);
        return reply.type(answer?.mediaType ?? 'application/json; charset=utf-8').send(body);
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
        // A signed JSON body is checked as the bytes that came: the scope's JSON parser gives way.
        if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
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

/** A `Prefer` header asking for `respond-async` (RFC 7240: comma-separated preferences, each with parameters). */
function prefersAsync(prefer: string | undefined): boolean {
  return (prefer ?? '')
    .split(',')
    .some((preference) => preference.split(';')[0]!.trim().toLowerCase() === 'respond-async');
}

/**
 * The operation's input: the body (its fields, or the whole of it as one field), then query
 * parameters, then path parameters, these two read from text into the JSON the input declares.
 */
function restInput(
  request: FastifyRequest,
  binding: RestBinding,
  readText: (values: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const [name, field] of Object.entries(binding.headers ?? {})) {
    const value = headerOf(request, name);
    if (value !== undefined) headers[field] = value;
  }
  return {
    ...bodyInput(request, binding.body),
    ...readText(request.query as Record<string, unknown>),
    ...readText(request.params as Record<string, unknown>),
    ...headers,
  };
}

function bodyInput(request: FastifyRequest, body: RestBody | undefined): Record<string, unknown> {
  // Only the media types of `body.bytes` are parsed as bytes.
  if (Buffer.isBuffer(request.body) && body?.bytes) {
    const { field, typeField } = body.bytes;
    const type = (headerOf(request, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { [field]: request.body, ...(typeField ? { [typeField]: type } : {}) };
  }
  if (body?.field) return { [body.field]: request.body };
  const fields = JSON_OBJECT.safeParse(request.body ?? {}, { error: validationErrorMap(request.lang) });
  if (!fields.success) throw validationFailed(fields.error);
  return fields.data;
}

/**
 * A strong tag of the version of the data an answer is built from, and of what else shapes its
 * bytes: the operation, the path and query (format, page, ...) and the language. A version that
 * depends on the Accept header names the representation it chose itself.
 */
function versionTag(operation: string, version: string, request: FastifyRequest): string {
  const variant = [operation, version, request.url, request.lang].join('\n');
  let tag = versionTags.get(variant);
  if (tag === undefined) {
    tag = `"v${createHash('sha256').update(variant).digest('base64url').slice(0, 32)}"`;
    versionTags.set(variant, tag);
  }
  return tag;
}

/** Hot public reads and their revalidations ask for the same tags over and over: one hash each. */
const versionTags = new LRUCache<string, string>({ max: 10_000 });

/**
 * An answer's JSON: kept answers reuse the text of their shared parts; others are written in
 * slices, so a long list (a 5,000-row import's report) does not hold every other request.
 */
async function answerJson(value: unknown): Promise<string | Buffer> {
  return holdsSharedParts(value) ? toJson(value) : stringifyInSlices(value);
}
