import rrule from 'rrule';

const { RRule } = rrule;

/** Slots are listed for at most this many days at once. */
export const MAX_SPAN_DAYS = 31;

/** The rule's options, or null when the text is not an RRULE we take (no DTSTART, UNTIL or TZID in it). */
export function parseRule(text: string): ReturnType<typeof RRule.parseString> | null {
  // A blank text parses to no frequency, refused below.
  if (/DTSTART|TZID/i.test(text)) return null;
  try {
    const options = RRule.parseString(text.replace(/^RRULE:/i, ''));
    if (options.freq === undefined) return null;
    // Parsing is lenient: a rule rrule cannot expand (BYSETPOS=0, an unknown BYDAY) is refused here,
    // not when its slots are first listed.
    new RRule({ ...options, dtstart: new Date(Date.UTC(2026, 0, 1)), count: 1 }).all();
    return options;
  } catch {
    return null;
  }
}

/**
 * The slot starts of a rule between two instants. The rule is read on the business's wall clock
 * (rrule computes "floating" times: we give it wall times dressed as UTC and turn each occurrence
 * into the instant it is in the time zone), so 09:00 stays 09:00 across daylight saving changes.
 */
export function slotStarts(
  resource: { rrule: string; starts_on: string; time_zone: string },
  from: Date,
  to: Date,
): Date[] {
  const options = parseRule(resource.rrule);
  if (!options) return [];
  const [y, m, d] = resource.starts_on.split('-').map(Number) as [number, number, number];
  const rule = new RRule({ ...options, dtstart: new Date(Date.UTC(y, m - 1, d)) });
  // A day either side in wall time covers every offset (at most 14 hours); the instants are
  // filtered exactly after, so the bounds of `between` never decide.
  const wallFrom = new Date(from.getTime() - 86_400_000);
  const wallTo = new Date(to.getTime() + 86_400_000);
  return rule
    .between(wallFrom, wallTo)
    .map((wall) => instantOf(wall, resource.time_zone))
    .filter((at) => at >= from && at < to);
}

/** The instant at which the zone's wall clock reads `wall` (its UTC fields); a skipped hour moves forward. */
export function instantOf(wall: Date, timeZone: string): Date {
  const guess = wall.getTime() - offsetMs(wall, timeZone);
  const corrected = wall.getTime() - offsetMs(new Date(guess), timeZone);
  return new Date(corrected);
}

/** How far the zone's wall clock is ahead of UTC at an instant. */
function offsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const field = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  const wall = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** An instant as the zone's wall clock reads it: `YYYY-MM-DDTHH:MM`. */
export function wallTime(at: Date, timeZone: string): string {
  return new Date(at.getTime() + offsetMs(at, timeZone)).toISOString().slice(0, 16);
}
