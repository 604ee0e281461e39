import type { FastifyRequest } from 'fastify';
import { type ExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { MercuriusContext } from 'mercurius';
import { isAppError } from '../../platform/errors.ts';
import { errorBody, toAppError } from '../../platform/http/errors.ts';

/**
 * Any failure of an operation as the GraphQL error the caller sees: the localised message of the
 * error's code, and in `extensions` the same `error_code`, HTTP `status` and `details` the REST
 * door would answer. Unexpected failures become INTERNAL_ERROR and are logged.
 */
export function toGraphqlError(
  error: unknown,
  request: FastifyRequest,
  bodyLimitBytes: number,
): GraphQLError {
  const appError = toAppError(error, bodyLimitBytes);
  if (appError.status >= 500) request.log.error({ err: error }, 'graphql operation failed');
  const body = errorBody(appError, request.lang, request.id);
  return new GraphQLError(body.message, {
    originalError: appError,
    extensions: {
      ...appError.options.body,
      error_code: body.error_code,
      status: appError.status,
      ...(body.details ? { details: body.details } : {}),
    },
  });
}

/** What mercurius attaches to its own refusals of a request: the GraphQL errors behind it. */
type MercuriusFailure = Error & { errors?: unknown[]; statusCode?: number };

/**
 * Mercurius's error formatter. Errors of operations arrive already translated (toGraphqlError).
 * A document that does not parse or validate, variables that do not fit it, or a mutation sent
 * with GET keep graphql-js's own message and get BAD_REQUEST; a request refused before GraphQL
 * runs (body too large, not JSON, wrong content type) gets the code REST would give, and that
 * HTTP status.
 */
export function graphqlErrorFormatter(bodyLimitBytes: number) {
  return (execution: ExecutionResult & { errors: readonly GraphQLError[] }, context: MercuriusContext) => {
    const reply = context.reply;
    const request = reply.request;
    const errors: GraphQLFormattedError[] = [];
    let statusCode: number | undefined;
    // A refusal's own headers (RATE_LIMITED's Retry-After) go with its answer.
    const headers: Record<string, string> = {};
    for (const error of execution.errors) {
      // An operation's refusal comes wrapped twice: graphql-js locates toGraphqlError's error.
      let appError: unknown = error.originalError;
      while (appError instanceof GraphQLError) appError = appError.originalError;
      if (isAppError(appError)) Object.assign(headers, appError.options.headers);
      const original = error.originalError as MercuriusFailure | undefined;
      if (original && Array.isArray(original.errors)) {
        const status = original.statusCode ?? 400;
        statusCode ??= status;
        for (const inner of original.errors) errors.push(badRequest(toFormatted(inner), status));
      } else if (!original) {
        // graphql-js's own refusal of the request: a variable missing or of the wrong type, no such operation
        errors.push(badRequest(error.toJSON(), 400));
      } else if (original instanceof GraphQLError || 'error_code' in error.extensions) {
        errors.push(error.toJSON());
      } else {
        const translated = toGraphqlError(original, request, bodyLimitBytes);
        statusCode ??= translated.extensions.status as number;
        errors.push(translated.toJSON());
      }
    }
    reply.header('content-language', request.lang);
    reply.headers(headers);
    return {
      statusCode: statusOf(execution, errors, statusCode),
      response: { data: execution.data ?? null, errors },
    };
  };
}

/**
 * With data, the operations ran and their errors sit beside it: 200, as GraphQL over HTTP says.
 * Every root field refused for the caller's shares (RATE_LIMITED: nothing ran) is a 429, as on REST.
 */
function statusOf(
  execution: ExecutionResult,
  errors: GraphQLFormattedError[],
  statusCode: number | undefined,
): number {
  if (!execution.data) return statusCode ?? 400;
  const nothingRan = Object.values(execution.data).every((value) => value === null);
  const rateLimited = errors.every((error) => error.extensions?.error_code === 'RATE_LIMITED');
  return nothingRan && rateLimited ? 429 : 200;
}

function badRequest(error: GraphQLFormattedError, status: number): GraphQLFormattedError {
  return { ...error, extensions: { ...error.extensions, error_code: 'BAD_REQUEST', status } };
}

function toFormatted(error: unknown): GraphQLFormattedError {
  if (error instanceof GraphQLError) return error.toJSON();
  return { message: error instanceof Error ? error.message : String(error) };
}
