import { AppError } from '../errors.ts';
import type { Caller, Door, Operation } from './operation.ts';

/** Who may call an operation, through which door, and when a call must be confirmed first. */

/** Scopes a connection asks for: a set, or 'all' for whatever the token grants. */
export type ConnectionScopes = ReadonlySet<string> | 'all';

/** The caller as the connection narrows it: only the scopes both the token and the connection name. */
export function narrowed(caller: Caller, connection: ConnectionScopes | undefined): Caller {
  if (connection === undefined || connection === 'all') return caller;
  const token = caller.scopes;
  return {
    ...caller,
    scopes: token === 'all' ? connection : new Set([...connection].filter((s) => token.has(s))),
  };
}

/** The caller's account kind and scopes let it call the operation (what tool lists show). */
export function mayCall(operation: Operation, caller: Caller | null): boolean {
  return refusalOf(operation, caller, 'rest') === undefined;
}

/**
 * Why this caller may not call the operation (none: it may). A stale token on a public operation
 * (say, login) is simply ignored. The agent doors name a missing scope SCOPE_REQUIRED, as the
 * interface's agent servers do; REST and GraphQL keep INSUFFICIENT_SCOPE.
 */
export function refusalOf(operation: Operation, caller: Caller | null, door: Door): AppError | undefined {
  const access = operation.access;
  if (access.public) return undefined;
  if (!caller) return new AppError('UNAUTHENTICATED');
  if (!('kinds' in access)) return new AppError('FORBIDDEN');
  if (access.kinds !== 'any' && !access.kinds.includes(caller.kind)) return new AppError('FORBIDDEN');
  const missing = (access.scopes ?? []).filter((scope) => !hasScope(caller, scope));
  if (missing.length === 0) return undefined;
  return scopeRefusal(missing, door);
}

export function scopeRefusal(missing: string[], door: Door): AppError {
  return new AppError(UNATTENDED_DOORS.has(door) ? 'SCOPE_REQUIRED' : 'INSUFFICIENT_SCOPE', {
    params: { scopes: missing.join(', ') },
    details: { missing },
  });
}

/** Doors where no human stands in front of the call: a high-risk call there must be confirmed. */
const UNATTENDED_DOORS: ReadonlySet<Door> = new Set(['mcp']);

export function requireConfirmation(
  operation: Operation,
  caller: Caller | null,
  invocation: { door: Door; confirmed?: boolean; dryRun?: boolean },
): void {
  if (!operation.confirm || invocation.confirmed || invocation.dryRun) return;
  if (UNATTENDED_DOORS.has(invocation.door) || caller?.agent) {
    throw new AppError('CONFIRMATION_REQUIRED', {
      params: { operation: operation.name },
      details: { operation: operation.name },
    });
  }
}

export function hasScope(caller: Caller, scope: string): boolean {
  return caller.scopes === 'all' || caller.scopes.has(scope);
}
