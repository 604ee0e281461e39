import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { VERIFY_DOCUMENT } from '../modules/documents/operations.ts';
import { MAX_DOCUMENT_BYTES } from '../modules/documents/service.ts';
import type { Executor } from '../platform/catalog/executor.ts';
import type { Catalog } from '../platform/catalog/registry.ts';
import { AppError } from '../platform/errors.ts';
import { bearerOf, headerOf } from '../platform/http/server.ts';
import { API_PREFIX } from './rest/index.ts';

/**
 * POST /api/v1/documents/verify: the one route that takes a raw PDF body. Its own parser and
 * limit stay inside this plugin; the door only turns the body into the verify_document input.
 */
export async function registerDocumentsDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
): Promise<void> {
  const operation = catalog.get(VERIFY_DOCUMENT);
  if (!operation) throw new Error(`The catalog has no ${VERIFY_DOCUMENT} operation`);

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/pdf', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    // Another body than a PDF or JSON, in this route's words; everything else goes on to the service's handler.
    scope.setErrorHandler((error: FastifyError) => {
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new AppError('UNSUPPORTED_DOCUMENT_TYPE');
      throw error;
    });
    scope.post(`${API_PREFIX}/v1/documents/verify`, { bodyLimit: MAX_DOCUMENT_BYTES }, async (request) =>
      executor.execute(operation, inputOf(request), {
        bearer: bearerOf(request),
        accept: headerOf(request, 'accept'),
        door: 'rest',
        lang: request.lang,
        requestId: request.id,
        ip: request.ip,
      }),
    );
  });
}

/** A PDF body becomes `{ pdf }`; a JSON body is the input as is. */
function inputOf(request: FastifyRequest): unknown {
  return Buffer.isBuffer(request.body) ? { pdf: request.body } : request.body;
}
