import type { AccountKind, OperationContext } from '../platform/catalog/operation.ts';
import { PERFORM_EVERYTHING } from '../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';

/**
 * How long each search of the demo runs (routes, the load plan): its days are a few dozen stops,
 * whose plan a search finds in its first few thousand iterations, and a first start waits for all.
 */
export const DEMO_SEARCH_MS = 25;

/** The context the demo's use cases run in: the given account, acting from inside the service. */
export function demoContext(
  db: Queryable,
  clock: Clock,
  caller: { userId: number; kind: AccountKind; businessId: number | null },
): OperationContext {
  return {
    db,
    caller: { ...caller, contractorCompanyId: null, tokenId: 0, scopes: 'all' },
    lang: 'en',
    clock,
    requestId: 'demo-seed',
    door: 'system',
    ip: undefined,
    outside: PERFORM_EVERYTHING,
    answer: {},
    provider: null,
    business: caller.businessId,
    representation: undefined,
  };
}

/** The instant a local day and minute of the business's time zone stands for. */
export function localTime(day: string, minutes: number, timeZone: string): Date {
  const hm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const guess = new Date(`${day}T${hm}:00Z`);
  const shown = Date.parse(`${formatLocalDateTime(guess, timeZone).replace(' ', 'T')}Z`);
  return new Date(guess.getTime() - (shown - guess.getTime()));
}

/** The date `days` after (or before) a YYYY-MM-DD date. */
export function shiftDate(date: string, days: number): string {
  const at = new Date(`${date}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}
