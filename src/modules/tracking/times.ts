/**
 * OTEP times: an instant written with the offset of the clock where it happened
 * (`2026-11-02T10:30:00+01:00`). Reading that offset, and writing an instant in it or in UTC.
 */

/** `Z` or `+01:00`: the offset an ISO 8601 date-time ends with; `Z` when it has none. */
export function offsetOf(iso: string): string {
  return /(Z|[+-]\d{2}:\d{2})$/i.exec(iso)?.[1]?.toUpperCase() ?? 'Z';
}

/** The offset always as `±hh:mm` (`Z` → `+00:00`; `+0100` reads as `+01:00`), as EPCIS writes it. */
export function numericOffsetOf(iso: string): string {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
  return match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00';
}

/** `2026-11-02T10:30:00+01:00` → `2026-11-02T09:30:00Z` (milliseconds only when there are some). */
export function toUtc(iso: string): string {
  return new Date(iso).toISOString().replace('.000Z', 'Z');
}

/** The instant written in the given offset (`Z` or `±hh:mm`), as the source sent it. */
export function withOffset(at: Date, offset: string): string {
  if (offset === 'Z') return at.toISOString().replace('.000Z', 'Z');
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(at.getTime() + minutes * 60_000).toISOString();
  return `${local.slice(0, 19)}${local.slice(19, 23) === '.000' ? '' : local.slice(19, 23)}${offset}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The offset the clocks of a time zone (`Europe/Paris`) showed at an instant: `+01:00`, or `Z` for none. */
export function offsetIn(at: Date, timeZone: string): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  // "GMT+01:00", or "GMT" when the zone is at UTC then.
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const offset = name.replace(/^GMT/, '');
  return offset === '' || offset === '+00:00' || offset === '-00:00' ? 'Z' : offset;
}
