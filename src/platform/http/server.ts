import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { AppError } from '../errors.ts';
import { type Language, negotiateLanguage } from '../i18n/index.ts';
import type { Metrics } from '../metrics.ts';
import { CHALLENGES, errorBody, toAppError } from './errors.ts';
import { storableInSlices, unstorableFields } from './text.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Longest value a path parameter may have; a longer one is refused with 414 before any route runs. */
const MAX_PATH_PARAMETER_LENGTH = 100;

/** One route the server answers, as registered (a path pattern with :params). */
export interface RegisteredRoute {
  method: string;
  url: string;
}
const ROUTES = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route of a server made by createHttpServer, whichever door registered it. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return ROUTES.get(app) ?? [];
}

/**
 * The HTTP shell every door hangs on: JSON logs with request ids, the caller's language, body
 * limits, the one error shape for every failure (unknown routes included), metrics and /metrics.
 */
/** What the HTTP shell takes from the service's configuration. */
export interface HttpSettings {
  logLevel: string;
  bodyLimitBytes: number;
  trustProxy: boolean;
  /** Bearer token /metrics asks for; none: /metrics is open. */
  metricsToken: string | undefined;
}

export function createHttpServer(config: HttpSettings, metrics: Metrics): FastifyInstance {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: (req) => {
      const offered = req.headers['x-request-id'];
      return typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
    },
    // Keep-alive sockets must not hold a graceful shutdown open.
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // Requests Node refuses before they are parsed (headers too large, too slow, malformed) in the
    // one error shape too. Nothing of the request is known: English, and a fresh request id.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorResponse(error));
      socket.destroy(error);
    },
    // Refusals of the router (a path value too long, bad percent-encoding) in the one error shape.
    frameworkErrors: (error, request, reply) => {
      request.lang = negotiateLanguage(request.headers['accept-language']);
      const appError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('PARAMETER_TOO_LONG', {
              params: { limit: MAX_PATH_PARAMETER_LENGTH },
              details: { limit_characters: MAX_PATH_PARAMETER_LENGTH },
            })
          : new AppError('INVALID_URL');
      sendError(request, reply, error, appError);
    },
  });

  const routes: RegisteredRoute[] = [];
  ROUTES.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  // The API speaks JSON only; other bodies get a clear 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('lang', 'en');
  // Hooks with nothing to wait for take a callback: every request pays for a promise otherwise.
  app.addHook('onRequest', (request, reply, done) => {
    request.lang = negotiateLanguage(request.headers['accept-language']);
    reply.header('x-request-id', request.id);
    done();
  });
  // Text that cannot be stored is refused at the door, for every route and every door alike,
  // before any operation sees it: never a 500 from the database, never a replaced character.
  app.addHook('preHandler', (request, _reply, done) => {
    if (unstorableFields(request.params).length > 0) return done(new AppError('INVALID_URL'));
    const query = unstorableFields(request.query);
    const body = request.body;
    if (body === undefined || Buffer.isBuffer(body)) return done(unsupportedCharacters(query));
    storableInSlices(body).then(
      (storable) => done(unsupportedCharacters([...query, ...(storable ? [] : unstorableFields(body))])),
      done,
    );
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    // A route with a limit of its own (the PDF verify route) names that limit.
    const appError = toAppError(error, request.routeOptions.bodyLimit ?? config.bodyLimitBytes);
    return sendError(request, reply, error, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const error = new AppError('ENDPOINT_NOT_FOUND', { params: { method: request.method, path } });
    return sendError(request, reply, undefined, error);
  });

  app.get('/metrics', async (request, reply) => {
    if (config.metricsToken && !sameSecret(bearerOf(request) ?? '', config.metricsToken)) {
      throw new AppError('UNAUTHENTICATED');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  return app;
}

/** A refusal in the error shape, in the caller's language; a server fault is logged with its cause. */
function sendError(request: FastifyRequest, reply: FastifyReply, cause: unknown, error: AppError) {
  if (error.status >= 500) request.log.error({ err: cause }, 'request failed');
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
  const challenge = challengeOf(request, error);
  if (challenge) reply.header('www-authenticate', challenge);
  return (
    reply
      .status(error.status)
      .header('x-request-id', request.id)
      .header('content-language', request.lang)
      // A refusal is about this request only: no cache keeps it (a parcel unknown a minute ago may be known now).
      .header('cache-control', 'no-store')
      .send(errorBody(error, request.lang, request.id))
  );
}

/** The challenge of a refusal of the credential (CHALLENGES), with its error when one was given. */
function challengeOf(request: FastifyRequest, error: AppError): string | undefined {
  const challenge = CHALLENGES[error.code];
  if (!challenge) return undefined;
  const given =
    error.code === 'UNAUTHENTICATED' ? bearerOf(request) : headerOf(request, 'x-otep-provider-key');
  const base = `${challenge.scheme} realm="${challenge.realm}"`;
  return given ? `${base}, error="${challenge.invalid}"` : base;
}

/** Compares secrets in constant time (digests have equal lengths whatever the input). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The route pattern, not the raw URL, so metrics do not grow a series per id. */
/** The refusal of fields holding text that cannot be stored; none when there are none. */
function unsupportedCharacters(fields: string[]): AppError | undefined {
  if (fields.length === 0) return undefined;
  return new AppError('UNSUPPORTED_CHARACTERS', {
    params: { fields: fields.join(', ') },
    details: { fields },
  });
}

function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/** The first value of a request header. */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The raw HTTP answer to a request Node refused before parsing it, in the one error shape. */
function clientErrorResponse(error: NodeJS.ErrnoException): string {
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE', {
          params: { limit: maxHeaderSize },
          details: { limit_bytes: maxHeaderSize },
        })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT')
        : new AppError('BAD_REQUEST');
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(appError, 'en', requestId));
  return [
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
