import type { OtepEvent, OtepLocation, OtepTimeline } from './timeline.ts';

/**
 * What anyone holding a tracking number may see: what a carrier's tracking page shows, and no
 * more. Internal ids leave the subject; a location keeps its place (name, city, region, postal
 * code, country) but loses the street and coordinates unless it is a facility (it has a GLN);
 * a proof of delivery keeps its note and the recipient's first name and initial, not the
 * signature or photos; the source keeps its type and name, not its internal reference.
 */
export function publicView(timeline: OtepTimeline): OtepTimeline {
  return {
    ...timeline,
    subject: { tracking_number: timeline.subject.tracking_number },
    events: timeline.events.map(publicEvent),
  };
}

function publicEvent(event: OtepEvent): OtepEvent {
  const { location, pod, source, ...rest } = event;
  return {
    ...rest,
    source: { type: source.type, ...(source.name ? { name: source.name } : {}) },
    ...(location ? { location: publicLocation(location) } : {}),
    ...(pod
      ? {
          pod: {
            ...(pod.recipient ? { recipient: shortName(pod.recipient) } : {}),
            ...(pod.note ? { note: pod.note } : {}),
          },
        }
      : {}),
  };
}

function publicLocation(location: OtepLocation): OtepLocation {
  if (location.gln) return location;
  const { address: _street, lat: _lat, lng: _lng, ...place } = location;
  return place;
}

/** "Léa Martin" → "Léa M." */
function shortName(name: string): string {
  const [first = '', ...others] = name.trim().split(/\s+/);
  const last = others.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first;
}
