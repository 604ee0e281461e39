/** The one source of "now". Tests replace it to travel in time; nothing else reads Date.now(). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock the tests set and advance by hand. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date): void {
    this.current = new Date(to);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** One formatter per time zone: making one costs far more than using it (zones are a few hundred at most). */
const localFormats = new Map<string, Intl.DateTimeFormat>();

function localFormat(timeZone: string): Intl.DateTimeFormat {
  let format = localFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    localFormats.set(timeZone, format);
  }
  return format;
}

/** `YYYY-MM-DD HH:MM:SS` as the wall clock reads in `timeZone` (the interface's local date-time form). */
export function formatLocalDateTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    localFormat(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * Seconds from `at` to the next midnight of `timeZone`'s wall clock: 23 or 25 hours from a
 * midnight on the days summer time starts or ends, and to the first instant of the next day
 * where a zone skips midnight itself.
 */
export function secondsToLocalMidnight(at: Date, timeZone: string): number {
  const wall = (instant: number) => formatLocalDateTime(new Date(instant), timeZone);
  /** Wall-clock seconds from `to` to `from`, both read as if they were UTC. */
  const apart = (from: string, to: string) =>
    (Date.parse(`${from.replace(' ', 'T')}Z`) - Date.parse(`${to.replace(' ', 'T')}Z`)) / 1000;
  const here = wall(at.getTime());
  const midnight = `${addDays(here.slice(0, 10), 1)} 00:00:00`;
  // First guess: a day without a change of offset; then corrected by how far its wall clock is off.
  let guess = at.getTime() + apart(midnight, here) * 1000;
  for (let tries = 0; tries < 2; tries++) {
    const off = apart(wall(guess), midnight);
    if (off === 0) break;
    guess -= off * 1000;
  }
  if (wall(guess) < midnight) guess += 3_600_000;
  return Math.max(1, Math.round((guess - at.getTime()) / 1000));
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** A calendar day n days later (or earlier): calendar arithmetic, no time zone involved. */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** Days from one calendar day to another, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}
