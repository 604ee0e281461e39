import type { FastifyRequest } from 'fastify';
import type { Invocation } from '../platform/catalog/executor.ts';
import type { Door } from '../platform/catalog/operation.ts';
import { bearerOf, headerOf } from '../platform/http/server.ts';
import type { Language } from '../platform/i18n/index.ts';

/**
 * What an HTTP request says about the call it makes, for every door alike: who calls (bearer
 * token, tracking provider key), in which language, from where, and what the caller asks of the
 * run (`X-Dry-Run: 1` to change nothing, `X-Confirm: 1` to mean a high-risk call).
 */
export function invocationOf(
  request: FastifyRequest,
  door: Door,
  options: { lang?: Language; anonymous?: boolean } = {},
): Invocation {
  return {
    bearer: options.anonymous ? undefined : bearerOf(request),
    providerKey: options.anonymous ? undefined : headerOf(request, 'x-otep-provider-key'),
    door,
    lang: options.lang ?? request.lang,
    requestId: request.id,
    ip: request.ip,
    dryRun: isTrue(headerOf(request, 'x-dry-run')),
    confirmed: isTrue(headerOf(request, 'x-confirm')),
    answer: {},
  };
}

function isTrue(header: string | undefined): boolean {
  return header === '1' || header === 'true';
}
