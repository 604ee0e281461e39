import { addDays, formatLocalDateTime } from '../../platform/clock.ts';

/** The longest explicit range a summary covers: a leap year, so "the last twelve months" always fits. */
export const MAX_RANGE_DAYS = 366;

export const PERIODS = ['today', 'week', 'month'] as const;
export type PeriodName = (typeof PERIODS)[number];

/** The local calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(at: Date, timeZone: string): string {
  return formatLocalDateTime(at, timeZone).slice(0, 10);
}

/** The local minute (HH:MM) of an instant in a time zone. */
export function localMinute(at: Date, timeZone: string): string {
  return formatLocalDateTime(at, timeZone).slice(11, 16);
}

/** A named period around today, as calendar days of the business: today, its ISO week (Monday to Sunday), its month. */
export function namedPeriod(name: PeriodName, today: string): { from: string; to: string } {
  if (name === 'today') return { from: today, to: today };
  if (name === 'week') {
    const mondayBased = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(today, -mondayBased);
    return { from: monday, to: addDays(monday, 6) };
  }
  const first = `${today.slice(0, 7)}-01`;
  const nextMonth = new Date(`${first}T00:00:00Z`);
  nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
  return { from: first, to: addDays(nextMonth.toISOString().slice(0, 10), -1) };
}
