import { codeEntry } from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepSubject, OtepTimeline } from '../timeline.ts';
import { guideUrls, serviceRoot } from '../urls.ts';
import { IDENTIFIER_NAMES } from '../validator.ts';

/** What a projection may know beyond the timeline: where the service is published. */
export interface ProjectionContext {
  /** The service's public address (`https://tms.example.com`); the URIs of ours are built under it. */
  baseUrl: string;
}

/** A projection is a pure function of the timeline: no I/O, no clock. */
export type Projection = (timeline: OtepTimeline, context: ProjectionContext) => unknown;

/** Our vocabulary (`…/api/otep-guide/ns#`): the `otep:` prefix of the JSON-LD formats. */
export function otepNamespace(baseUrl: string): string {
  return guideUrls(baseUrl).namespace;
}

/** The public tracking resource of a number: a URL that answers, so it names the parcel. */
export function trackingIri(baseUrl: string, trackingNumber: string): string {
  return `${serviceRoot(baseUrl)}/api/v1/otep/trackings/${encodeURIComponent(trackingNumber)}`;
}

/** An identifier with no resource of its own, as a fragment of our namespace (`…ns#piece_id=P-1`). */
export function identifierIri(baseUrl: string, key: string, value: string | number): string {
  return `${otepNamespace(baseUrl)}${key}=${encodeURIComponent(String(value))}`;
}

/** The IRI of the whole journey: the tracking resource, else the first identifier the subject has. */
export function subjectIri(subject: OtepSubject, baseUrl: string): string {
  if (subject.tracking_number) return trackingIri(baseUrl, subject.tracking_number);
  const key = IDENTIFIER_NAMES.find((name) => subject[name] !== undefined);
  return key ? identifierIri(baseUrl, key, subject[key]!) : `${otepNamespace(baseUrl)}subject`;
}

/** The key naming the journey in formats that want one string: the tracking number, else `key=value`. */
export function subjectKey(subject: OtepSubject): string {
  if (subject.tracking_number) return subject.tracking_number;
  const key = IDENTIFIER_NAMES.find((name) => subject[name] !== undefined);
  return key ? `${key}=${subject[key]}` : '';
}

export function eventIri(baseUrl: string, eventId: string): string {
  return identifierIri(baseUrl, 'event_id', eventId);
}

/** The words people read for an event: the source's own text, else the codebook's line and the incident's message. */
export function eventText(event: OtepEvent): string {
  if (event.description) return event.description;
  const line = codeEntry(event.status_code)?.description ?? event.status_code;
  return event.incident_reason?.message ? `${line}: ${event.incident_reason.message}` : line;
}

/** Who carries the parcel, as the latest event that names its source says. */
export function carrierOf(timeline: OtepTimeline): string | undefined {
  return timeline.events.findLast((event) => event.source.name)?.source.name;
}

/** The location as one line: `Frankfurt hub, Cargo City Süd, 60549 Frankfurt am Main, HE, DE`. */
export function locationLine(location: OtepLocation): string {
  const town = [location.postal_code, location.city].filter(Boolean).join(' ');
  return [location.name, location.address, town, location.region, location.country]
    .filter(Boolean)
    .join(', ');
}

/** `{ code, message }` → `{ "otep:code", "otep:message" }`: JSON-LD keys of our namespace. */
export function inOtepNamespace(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [`otep:${key}`, value]));
}

/** The object without its undefined members, so documents carry only what is known. */
export function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** True when the object has at least one defined member. */
export function hasAny(record: object | undefined): boolean {
  return record !== undefined && Object.values(record).some((value) => value !== undefined);
}
