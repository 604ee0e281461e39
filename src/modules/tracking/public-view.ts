import type { OtepEvent, OtepLocation, OtepTimeline } from './timeline.ts';

/**
 * What anyone holding a tracking number may see: what a carrier's tracking page shows, and no
 * more. It is an allowlist, built field by field: a key a provider pushed that is not named here
 * (a phone, a contact, a street under another name) is never copied, however deep it sits.
 *
 * - the subject keeps its tracking number only (no internal ids, no other identifiers);
 * - a location keeps its place (name, city, region, postal code, country); a facility (it has a
 *   GLN) also keeps its street and coordinates, which are public anyway;
 * - an incident keeps its code and the source's words about it;
 * - a proof of delivery keeps its note and the recipient's first name and initial, not the
 *   signature or photos;
 * - the source keeps its type and name, not its internal reference.
 */
export function publicView(timeline: OtepTimeline): OtepTimeline {
  return {
    otep_version: timeline.otep_version,
    profile: timeline.profile,
    subject: pick(timeline.subject, ['tracking_number']),
    ...pick(timeline, ['current_status']),
    delivered: timeline.delivered,
    events: timeline.events.map(publicEvent),
  };
}

function publicEvent(event: OtepEvent): OtepEvent {
  const { location, incident_reason: incident, pod, source } = event;
  return {
    ...pick(event, ['event_id', 'otep_version', 'occurred_at', 'recorded_at', 'status_code', 'status_uri']),
    phase: event.phase,
    source: pick(source, ['type', 'name']),
    ...(location ? { location: publicLocation(location) } : {}),
    ...(incident ? { incident_reason: pick(incident, ['code', 'message']) } : {}),
    ...(pod
      ? {
          pod: {
            ...(typeof pod.recipient === 'string' ? { recipient: shortName(pod.recipient) } : {}),
            ...pick(pod, ['note']),
          },
        }
      : {}),
    ...pick(event, ['description', 'after_terminal']),
  };
}

function publicLocation(location: OtepLocation): OtepLocation {
  const place = pick(location, ['name', 'city', 'region', 'postal_code', 'country']);
  return location.gln ? { ...place, ...pick(location, ['gln', 'address', 'lat', 'lng']) } : place;
}

/**
 * The listed keys of an object that hold a plain value (a string, a number or a boolean): an
 * object or array a provider tucked under an allowed name is not copied either.
 */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) {
    const value = from[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      picked[key] = value;
  }
  return picked;
}

/** "Léa Martin" → "Léa M." */
function shortName(name: string): string {
  const [first = '', ...others] = name.trim().split(/\s+/);
  const last = others.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first;
}
