import { addDays, formatLocalDateTime } from '../../platform/clock.ts';
import { minutesOf } from './settings.ts';

/** A business's quiet window, local times 'HH:MM' in each subscriber's own zone. */
export interface QuietHours {
  start: string;
  end: string;
}

/** Minutes since midnight on `timeZone`'s wall clock at `at`. */
function localMinutes(at: Date, timeZone: string): number {
  return minutesOf(formatLocalDateTime(at, timeZone).slice(11));
}

/**
 * Whether `at` falls in the quiet window in `timeZone`. The window crosses midnight (it always
 * covers 21:00 to 08:00): quiet from `start` included to `end` excluded.
 */
export function isQuiet(at: Date, timeZone: string, quiet: QuietHours): boolean {
  const now = localMinutes(at, timeZone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start > end ? now >= start || now < end : now >= start && now < end;
}

/**
 * The instant the wall clock of `timeZone` reads `wall` ('YYYY-MM-DD HH:MM:SS'): found from a
 * first guess corrected by how far its wall clock is off, so summer time moves are counted.
 * A wall time a zone skips (inside a spring-forward gap) gives the first instant after the gap.
 */
export function instantOfWall(wall: string, timeZone: string): Date {
  const asUtc = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
  const target = asUtc(wall);
  let guess = target;
  for (let tries = 0; tries < 3; tries++) {
    const off = asUtc(formatLocalDateTime(new Date(guess), timeZone)) - target;
    if (off === 0) return new Date(guess);
    guess -= off;
  }
  // In a gap: no instant reads `wall`; the hour after it does.
  while (formatLocalDateTime(new Date(guess), timeZone) < wall) guess += 15 * 60_000;
  return new Date(guess);
}

/** The next end of the quiet window in `timeZone` after `at` (today's when before it, else tomorrow's). */
export function nextQuietEnd(at: Date, timeZone: string, quiet: QuietHours): Date {
  const wall = formatLocalDateTime(at, timeZone);
  const today = wall.slice(0, 10);
  const end = `${quiet.end.slice(0, 5)}:00`;
  const day = minutesOf(wall.slice(11)) < minutesOf(quiet.end) ? today : addDays(today, 1);
  return instantOfWall(`${day} ${end}`, timeZone);
}
