import type { FastifyError } from 'fastify';
import { databaseRefusal } from '../db/errors.ts';
import { AppError, type ErrorCode, isAppError, payloadTooLarge } from '../errors.ts';
import { errorMessage, type Language } from '../i18n/index.ts';

export interface ErrorBody {
  [field: string]: unknown;
  result: false;
  error_code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorBody(error: AppError, lang: Language, requestId: string): ErrorBody {
  const params = { request_id: requestId, ...error.options.params };
  const body: ErrorBody = {
    ...error.options.body,
    result: false,
    error_code: error.code,
    message: errorMessage(error.code, lang, params),
  };
  if (error.options.details) body.details = error.options.details;
  return body;
}

/**
 * Any thrown value as the AppError the client should see. Framework errors (body parsing, limits)
 * get their documented codes; anything unrecognised is an INTERNAL_ERROR, logged by the caller.
 */
export function toAppError(error: unknown, bodyLimitBytes: number): AppError {
  if (isAppError(error)) return error;
  const refusal = databaseRefusal(error);
  if (refusal) return refusal;
  const candidate = error as Partial<FastifyError> & { code?: string; message?: string };
  switch (candidate.statusCode) {
    case 413:
      return payloadTooLarge(bodyLimitBytes);
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 400:
      return candidate.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        candidate.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        error instanceof SyntaxError
        ? new AppError('INVALID_JSON')
        : new AppError('BAD_REQUEST');
    default:
      return new AppError('INTERNAL_ERROR');
  }
}

/**
 * How to authenticate, for a refusal of the credential (RFC 7235: every 401 names a challenge),
 * by the refusal's code. A bearer token (RFC 6750): `invalid_token` when one was given, no error
 * code when none was. A tracking provider's key, which no registered scheme describes, in a scheme
 * named after its header. The OpenAPI document describes the same (doors/openapi/document.ts).
 */
export const CHALLENGES: Partial<Record<ErrorCode, { scheme: string; realm: string; invalid: string }>> = {
  UNAUTHENTICATED: { scheme: 'Bearer', realm: 'tms', invalid: 'invalid_token' },
  PROVIDER_CREDENTIAL_REQUIRED: { scheme: 'OTEP-Provider-Key', realm: 'tms', invalid: 'invalid_key' },
};
