import { AppError } from '../errors.ts';

/**
 * What PostgreSQL's refusals mean to a caller, in one place: every door gets the same documented
 * error code instead of a 500 (the executor translates what an operation lets escape; the HTTP
 * shell what happens outside any operation). Constraint and column names stay inside: they name
 * the schema, not the caller's mistake.
 */

/** Pool and server failures that mean "the database is not there", as opposed to a bug. */
const UNAVAILABLE = new Set([
  // statement_timeout, lock_timeout: the server gave up waiting; a later try may pass.
  '57014',
  '55P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08006',
]);

/** Two transactions wrote the same rows at once and PostgreSQL stopped one: trying again can pass. */
const CONCURRENT = new Set(['40001', '40P01']);

const BY_CODE: Record<string, AppError['code']> = {
  '23505': 'ALREADY_EXISTS',
  '23503': 'REFERENCE_CONFLICT',
  '23514': 'INVALID_VALUE',
  '23502': 'INVALID_VALUE',
  // Data exceptions: a number out of range, text too long, a value of the wrong form.
  '22001': 'INVALID_VALUE',
  '22003': 'INVALID_VALUE',
  '22007': 'INVALID_VALUE',
  '22008': 'INVALID_VALUE',
  '22P02': 'INVALID_VALUE',
};

/** Whether a failed transaction is worth one more try (a serialization failure or a deadlock). */
export function isConcurrencyFailure(error: unknown): boolean {
  return CONCURRENT.has(codeOf(error) ?? '');
}

/** The documented refusal a database error stands for, or undefined when it is not one of them. */
export function databaseRefusal(error: unknown): AppError | undefined {
  const code = codeOf(error);
  if (code && UNAVAILABLE.has(code)) return new AppError('SERVICE_UNAVAILABLE');
  // The pool could not connect in time, a statement got no answer in time (a frozen server), or
  // the connection dropped (before or during the statement): node-postgres says so in words only.
  if (
    /timeout exceeded when trying to connect|^Query read timeout$|^Connection terminated|connection error and is not queryable/.test(
      (error as { message?: string } | null)?.message ?? '',
    )
  ) {
    return new AppError('SERVICE_UNAVAILABLE');
  }
  if (code && CONCURRENT.has(code)) return new AppError('CONCURRENT_UPDATE');
  const mapped = code ? BY_CODE[code] : undefined;
  return mapped ? new AppError(mapped) : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
