import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { type Executor, type Invocation, validationFailed } from '../../platform/catalog/executor.ts';
import { Representation, type RestBody } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { bytesTag, sendNotModified } from '../../platform/http/etag.ts';
import { type EventSink, EventStream, eventFrame } from '../../platform/http/event-stream.ts';
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

/** A comment line this often keeps an idle live answer open through proxies that drop quiet connections. */
const HEARTBEAT_MS = 15_000;
/** What a live answer may hold unsent for a slow client before it is closed. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const JSON_OBJECT = z.record(z.string(), z.unknown());

/** One route per operation with a REST binding; the executor does everything else. */
export async function registerRestDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
): Promise<void> {
  // Live answers end when the server closes, or it would wait on them for ever.
  const liveAnswers = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...liveAnswers]) end();
  });
  for (const operation of catalog.list()) {
    const binding = operation.rest;
    if (!binding) continue;
    const readText = textValueReader(jsonSchemaOf(operation.input, 'input') as JsonSchema);
    const route: RouteOptions = {
      method: binding.method,
      url: API_PREFIX + binding.path,
      ...(binding.body?.limitBytes ? { bodyLimit: binding.body.limitBytes } : {}),
      handler: async (request, reply) => {
        const representation = preferredRepresentation(
          headerOf(request, 'accept'),
          operation.representations,
        );
        const invocation: Invocation = {
          ...invocationOf(request, 'rest'),
          representation,
          // A public read's path and query are all its input is made from.
          ...(operation.publicCache && binding.method === 'GET'
            ? { requestWords: `${request.url}\n${request.lang}\n${representation ?? ''}` }
            : {}),
        };
        if (binding.cache) {
          const { maxAgeSeconds, staleWhileRevalidateSeconds } = binding.cache;
          reply
            .header(
              'cache-control',
              `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}`,
            )
            .header('vary', 'Accept, Accept-Language');
        } else if (binding.etag) {
          reply.header('cache-control', 'no-cache');
        }
        const kept = await executor.keptAnswerOf(operation, invocation);
        if (kept) invocation.answer!.version = kept.version;
        const input = kept ? undefined : restInput(request, binding.body, readText);
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
        const answer = result instanceof Representation ? result : undefined;
        if (answer?.body instanceof EventStream) {
          streamEvents(reply, answer.body, liveAnswers);
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
 * Writes a live answer as server-sent events: each message a frame, a comment line as heartbeat,
 * until the client leaves or the module or the server ends it. What the messages say is the module's.
 */
function streamEvents(reply: FastifyReply, stream: EventStream, liveAnswers: Set<() => void>): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string | number | string[]>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies that buffer answers (nginx) pass this one through as it comes.
    'x-accel-buffering': 'no',
  });
  let ended = false;
  let detach: (() => void) | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    liveAnswers.delete(end);
    detach?.();
    raw.end();
  };
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  liveAnswers.add(end);
  // The response closes when the client goes away (a request's own close comes once its body is read).
  raw.on('close', end);
  const sink: EventSink = {
    send: (event) => {
      if (ended) return;
      // A client that reads slower than the messages come gets closed rather than held in memory;
      // it reconnects to a fresh start.
      if (raw.writableLength > MAX_BUFFERED_BYTES) end();
      else raw.write(eventFrame(event));
    },
    end,
  };
  detach = stream.attach(sink);
  // Ended while attaching; or the client was gone before it could be told, and nothing else will end it.
  if (ended) detach();
  else if (raw.destroyed) end();
}

/**
 * The operation's input: the body (its fields, or the whole of it as one field), then query
 * parameters, then path parameters, these two read from text into the JSON the input declares.
 */
function restInput(
  request: FastifyRequest,
  body: RestBody | undefined,
  readText: (values: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  return {
    ...bodyInput(request, body),
    ...readText(request.query as Record<string, unknown>),
    ...readText(request.params as Record<string, unknown>),
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
