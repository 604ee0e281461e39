import { codeEntry } from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepSubject, OtepTimeline } from '../timeline.ts';
import { numericOffsetOf, toUtc } from '../times.ts';
import {
  compact,
  eventIri,
  hasAny,
  inOtepNamespace,
  locationLine,
  otepNamespace,
  type ProjectionContext,
  trackingIri,
} from './common.ts';

export const EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';
/** GS1's resolver: Digital Link URIs name an SSCC (`/00/`) or a GLN (`/414/`) without knowing the company prefix. */
const GS1_DIGITAL_LINK = 'https://id.gs1.org';

/**
 * CBV 2.0's own URIs of its values (`https://ref.gs1.org/cbv/BizStep-receiving`): the standard
 * identifiers the bare words stand for, which GS1's schema accepts where it refuses the
 * `urn:epcglobal:cbv:` form.
 */
const CBV = 'https://ref.gs1.org/cbv/';

/** Codebook dispositions that are not CBV values: they live in our namespace. */
const NOT_CBV_DISPOSITIONS = new Set(['received']);

/** When nothing in the timeline tells a time (no event), the document claims the Unix epoch rather than a clock. */
const NO_TIME = '1970-01-01T00:00:00Z';

/**
 * GS1 EPCIS 2.0 JSON-LD: one ObjectEvent (action OBSERVE) per event. What EPCIS has no word for
 * travels in `otep:` keys, the prefix declared in `@context`, so the document validates against
 * GS1's schema and still reads back into the same OTEP events (epcis-reader.ts).
 */
export function epcis(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  const epcList = epcsOf(timeline.subject, baseUrl);
  return {
    '@context': [EPCIS_CONTEXT, { otep: otepNamespace(baseUrl) }],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: creationDate(timeline),
    epcisBody: { eventList: timeline.events.map((event) => objectEvent(event, epcList, baseUrl)) },
  };
}

/** The parcel's EPCs: its SSCC as a GS1 Digital Link, its tracking number as our tracking resource. */
function epcsOf(subject: OtepSubject, baseUrl: string): string[] {
  const epcs: string[] = [];
  if (subject.gs1_sscc) epcs.push(`${GS1_DIGITAL_LINK}/00/${subject.gs1_sscc}`);
  if (subject.tracking_number) epcs.push(trackingIri(baseUrl, subject.tracking_number));
  return epcs;
}

/** The document is as new as its newest record: the latest recorded_at, else the latest occurred_at. */
function creationDate(timeline: OtepTimeline): string {
  const recorded = timeline.events.filter((event) => event.recorded_at).map((event) => event.recorded_at);
  const times = recorded.length > 0 ? recorded : timeline.events.map((event) => event.occurred_at);
  return times.map(toUtc).sort().at(-1) ?? NO_TIME;
}

function objectEvent(event: OtepEvent, epcList: string[], baseUrl: string) {
  const entry = codeEntry(event.status_code);
  const place = hasAny(event.location) ? { id: locationUri(event.location!, baseUrl) } : undefined;
  return compact({
    type: 'ObjectEvent',
    eventTime: toUtc(event.occurred_at),
    eventTimeZoneOffset: numericOffsetOf(event.occurred_at),
    recordTime: event.recorded_at ? toUtc(event.recorded_at) : undefined,
    eventID: eventIri(baseUrl, event.event_id),
    epcList,
    action: 'OBSERVE',
    // Experimental codes have no CBV counterpart: otep:status_code alone says what happened.
    bizStep: entry && `${CBV}BizStep-${entry.bizStep}`,
    disposition: entry && dispositionUri(entry.disposition, baseUrl),
    readPoint: place,
    // Where the parcel now rests; CBV gives an object in transit no business location.
    bizLocation: entry?.disposition === 'in_transit' ? undefined : place,
    'otep:status_code': event.status_code,
    'otep:source': inOtepNamespace(event.source),
    'otep:location': event.location && inOtepNamespace(event.location),
    'otep:incident_reason': event.incident_reason && inOtepNamespace(event.incident_reason),
    'otep:pod': event.pod && inOtepNamespace(event.pod),
    'otep:description': event.description,
  });
}

function dispositionUri(disposition: string, baseUrl: string): string {
  return NOT_CBV_DISPOSITIONS.has(disposition)
    ? `${otepNamespace(baseUrl)}${disposition}`
    : `${CBV}Disp-${disposition}`;
}

/**
 * A location as a URI: a GLN as GS1 Digital Link (an `urn:epc:id:sgln:` needs the company prefix
 * length, which a GLN alone does not tell), a place by its address line as a fragment of our
 * namespace, bare coordinates as a `geo:` URI.
 */
function locationUri(location: OtepLocation, baseUrl: string): string {
  if (location.gln) return `${GS1_DIGITAL_LINK}/414/${location.gln}`;
  const place = locationLine(location);
  if (place) return `${otepNamespace(baseUrl)}location=${encodeURIComponent(place)}`;
  return `geo:${location.lat},${location.lng}`;
}
