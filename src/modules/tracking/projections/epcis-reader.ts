import type { MessageParams } from '../../../platform/errors.ts';
import type { Language } from '../../../platform/i18n/index.ts';
import {
  canonicalCode,
  codeEntry,
  INCIDENT_REASONS,
  type IncidentReason,
  isExperimental,
  SOURCE_TYPES,
  type SourceType,
} from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepSubject } from '../timeline.ts';
import { withOffset } from '../times.ts';
import { isObject } from '../validator.ts';
import { compact } from './common.ts';
import { type EpcisProblem, epcisMessage } from './epcis-reader-messages.ts';

/** An OTEP event as a source pushes it (the ingest adds recorded_at, phase and the rest). */
interface EpcisEventInput {
  /** Rebuilt from eventTime and eventTimeZoneOffset: the local time with its offset. */
  occurred_at: string;
  status_code: string;
  source: { type: SourceType; name?: string; reference?: string };
  location?: OtepLocation;
  incident_reason?: { code: IncidentReason; message?: string };
  pod?: OtepEvent['pod'];
  description?: string;
  event_id?: string;
}

interface EpcisIssue {
  /** `epcisBody.eventList[2].eventTime` */
  path: string;
  message: string;
}

interface EpcisReadResult {
  /** One per ObjectEvent, in document order, when the whole document could be read. */
  events: Array<{ subject: OtepSubject; event: EpcisEventInput }>;
  errors: EpcisIssue[];
}

/**
 * bizStep + disposition → OTEP code, for events without `otep:status_code`. Several codes share
 * a pair in the codebook; the choice is the least alarming reading of it (docs/otep-formats.md).
 */
const CODE_BY_CBV_PAIR: Record<string, string> = {
  'commissioning active': 'information_submitted', // also booking_confirmed
  'staging_outbound in_progress': 'awaiting_pickup', // also pickup_rescheduled
  'departing in_progress': 'out_for_pickup',
  'receiving in_progress': 'received', // also picked_up, pickup_failed
  'arriving in_transit': 'arrival_scan',
  'departing in_transit': 'in_transit', // also out_for_delivery
  'staging_outbound in_transit': 'package_outbound',
  'holding in_progress': 'delivery_rescheduled', // also removed_from_route, route_cancelled, delivery_failed
  'receiving received': 'delivered',
  'shipping returned': 'returned',
  'receiving returned': 'rejected',
  'void_shipping inactive': 'cancelled',
};

/** bizStep alone, for the pairs other systems send that the codebook does not have. */
const CODE_BY_BIZ_STEP: Record<string, string> = {
  commissioning: 'information_submitted',
  staging_outbound: 'awaiting_pickup',
  shipping: 'in_transit',
  departing: 'in_transit',
  loading: 'in_transit',
  transporting: 'in_transit',
  arriving: 'arrival_scan',
  unloading: 'arrival_scan',
  accepting: 'received',
  receiving: 'received',
  holding: 'delivery_rescheduled',
  void_shipping: 'cancelled',
};

/** The OTEP code a CBV bizStep and disposition stand for; undefined when neither table knows them. */
export function codeFromCbv(
  bizStep: string | undefined,
  disposition: string | undefined,
): string | undefined {
  const step = bizStep && cbvWord(bizStep);
  const state = disposition && cbvWord(disposition);
  if (!step) return undefined;
  return CODE_BY_CBV_PAIR[`${step} ${state}`] ?? CODE_BY_BIZ_STEP[step];
}

/** `urn:epcglobal:cbv:bizstep:receiving`, `https://ref.gs1.org/cbv/BizStep-receiving`, `…/ns#received` → the bare word. */
function cbvWord(value: string): string {
  return value
    .replace(/^urn:epcglobal:cbv:(?:bizstep|disp):/i, '')
    .replace(/^https?:\/\/(?:ref\.|www\.)?gs1\.org\/(?:cbv|voc)\/(?:BizStep|Disp)-/i, '')
    .replace(/^.*\/api\/otep-guide\/ns#/, '')
    .replace(/^otep:/, '');
}

/**
 * Reads an EPCIS 2.0 document (an EPCISDocument or an EPCISQueryDocument) back into OTEP events:
 * one per ObjectEvent, or one or more errors per event that cannot be read, with paths such as
 * `epcisBody.eventList[2].eventTime` and messages in `lang`. Nothing is fetched: `@context` is
 * not resolved.
 */
export function eventsFromEpcis(document: unknown, lang: Language): EpcisReadResult {
  const result: EpcisReadResult = { events: [], errors: [] };
  const problem = (path: string, name: EpcisProblem) => ({ path, message: epcisMessage(name, lang) });
  if (!isObject(document)) {
    result.errors.push(problem('', 'not_a_document'));
    return result;
  }
  const { list, path } = eventList(document);
  if (!Array.isArray(list)) {
    result.errors.push(problem(path, 'events_not_a_list'));
    return result;
  }
  list.forEach((raw, index) => {
    const issues: EpcisIssue[] = [];
    const at = `${path}[${index}]`;
    const report: Report = (field, name, params) =>
      issues.push({ path: field ? `${at}.${field}` : at, message: epcisMessage(name, lang, params) });
    const read = readObjectEvent(raw, report);
    if (read && issues.length === 0) result.events.push(read);
    result.errors.push(...issues);
  });
  return result;
}

function eventList(document: Record<string, unknown>): { list: unknown; path: string } {
  const body = isObject(document.epcisBody) ? document.epcisBody : {};
  if (document.type === 'EPCISQueryDocument') {
    const results = isObject(body.queryResults) ? body.queryResults : {};
    const resultsBody = isObject(results.resultsBody) ? results.resultsBody : {};
    return { list: resultsBody.eventList, path: 'epcisBody.queryResults.resultsBody.eventList' };
  }
  return { list: body.eventList, path: 'epcisBody.eventList' };
}

/** Tells what a field of the event being read is wrong about. */
type Report = (field: string, problem: EpcisProblem, params?: MessageParams) => void;

function readObjectEvent(raw: unknown, report: Report) {
  if (!isObject(raw)) {
    report('', 'event_not_an_object');
    return undefined;
  }
  if (raw.type !== 'ObjectEvent') {
    report('type', 'not_an_object_event', { type: String(JSON.stringify(raw.type)) });
    return undefined;
  }
  const subject = subjectOf(raw.epcList, report);
  const occurredAt = occurredAtOf(raw, report);
  const statusCode = statusCodeOf(raw, report);
  const event = compact({
    occurred_at: occurredAt,
    status_code: statusCode,
    source: sourceOf(raw, report),
    location: locationOf(raw, report),
    incident_reason: incidentReasonOf(raw, report),
    pod: podOf(raw, report),
    description: text(raw, 'otep:description', report),
    event_id: eventIdOf(raw.eventID),
  });
  if (!subject || !occurredAt || !statusCode) return undefined;
  return { subject, event: event as EpcisEventInput };
}

/** The parcel from its EPCs: our tracking resource and an SSCC (Digital Link or EPC URN); others are ignored. */
function subjectOf(epcList: unknown, report: Report): OtepSubject | undefined {
  if (!Array.isArray(epcList)) {
    report('epcList', 'epc_list_missing');
    return undefined;
  }
  const trackingNumbers = new Set<string>();
  const ssccs = new Set<string>();
  for (const epc of epcList) {
    if (typeof epc !== 'string') continue;
    const trackingNumber = /\/api\/v1\/otep\/trackings\/([^/?#]+)$/.exec(epc)?.[1];
    if (trackingNumber) trackingNumbers.add(decodeURIComponent(trackingNumber));
    const sscc = ssccOf(epc);
    if (sscc) ssccs.add(sscc);
  }
  if (trackingNumbers.size > 1 || ssccs.size > 1) {
    report('epcList', 'several_parcels');
    return undefined;
  }
  const [trackingNumber] = trackingNumbers;
  const [sscc] = ssccs;
  if (!trackingNumber && !sscc) {
    report('epcList', 'no_parcel');
    return undefined;
  }
  return compact({ tracking_number: trackingNumber, gs1_sscc: sscc });
}

function ssccOf(epc: string): string | undefined {
  const digitalLink = /^https?:\/\/[^?#]*\/00\/(\d{18})(?:[/?#].*)?$/.exec(epc);
  if (digitalLink) return digitalLink[1];
  // urn:epc:id:sscc:<company prefix>.<extension digit + serial reference>
  const urn = /^urn:epc:id:sscc:(\d+)\.(\d+)$/.exec(epc);
  if (!urn || urn[1]!.length + urn[2]!.length !== 17) return undefined;
  return withCheckDigit(urn[2]!.slice(0, 1) + urn[1] + urn[2]!.slice(1));
}

function glnOf(uri: string): string | undefined {
  const digitalLink = /^https?:\/\/[^?#]*\/414\/(\d{13})(?:[/?#].*)?$/.exec(uri);
  if (digitalLink) return digitalLink[1];
  // urn:epc:id:sgln:<company prefix>.<location reference>.<extension>
  const urn = /^urn:epc:id:sgln:(\d+)\.(\d*)\.[^.]*$/.exec(uri);
  if (!urn || urn[1]!.length + urn[2]!.length !== 12) return undefined;
  return withCheckDigit(urn[1]! + urn[2]);
}

/** GS1 keys end with a mod-10 check digit (weights 3 and 1 from the right). */
function withCheckDigit(digits: string): string {
  const sum = [...digits]
    .reverse()
    .reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return digits + ((10 - (sum % 10)) % 10);
}

/** eventTime is an instant; eventTimeZoneOffset says how the source's clock read it. */
function occurredAtOf(raw: Record<string, unknown>, report: Report): string | undefined {
  const { eventTime, eventTimeZoneOffset: offset } = raw;
  const instant =
    typeof eventTime === 'string' && /(?:Z|[+-]\d{2}:\d{2})$/i.test(eventTime) ? Date.parse(eventTime) : NaN;
  if (Number.isNaN(instant)) report('eventTime', 'bad_event_time');
  const match = typeof offset === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(offset) : null;
  if (!match) report('eventTimeZoneOffset', 'bad_time_zone_offset');
  if (Number.isNaN(instant) || !match) return undefined;
  // A zero offset, +00:00 or -00:00, is written Z.
  const zero = Number(match[2]) === 0 && Number(match[3]) === 0;
  return withOffset(new Date(instant), zero ? 'Z' : match[0]);
}

function statusCodeOf(raw: Record<string, unknown>, report: Report): string | undefined {
  const declared = raw['otep:status_code'];
  if (declared !== undefined) {
    const code = typeof declared === 'string' ? canonicalCode(declared) : '';
    if (codeEntry(code) || isExperimental(code)) return code;
    report('otep:status_code', 'unknown_status_code');
    return undefined;
  }
  const bizStep = typeof raw.bizStep === 'string' ? raw.bizStep : undefined;
  const disposition = typeof raw.disposition === 'string' ? raw.disposition : undefined;
  const code = codeFromCbv(bizStep, disposition);
  if (!code) {
    // An absent value shows as null, as JSON would write it.
    report('bizStep', 'no_status_code', { biz_step: bizStep ?? 'null', disposition: disposition ?? 'null' });
  }
  return code;
}

/** Without `otep:source` the event was pushed by whoever sent the document. */
function sourceOf(raw: Record<string, unknown>, report: Report): EpcisEventInput['source'] {
  const source = extension(raw, 'otep:source', report);
  if (!source) return { type: 'provider_push' };
  const type = source.type;
  if (!SOURCE_TYPES.includes(type as SourceType)) {
    report('otep:source.type', 'expected_one_of', { values: SOURCE_TYPES.join(', ') });
  }
  return { type: type as SourceType, ...strings(source, ['name', 'reference'], 'otep:source', report) };
}

/** `otep:location` when we wrote it; else what a GLN in readPoint or bizLocation tells. */
function locationOf(raw: Record<string, unknown>, report: Report): OtepLocation | undefined {
  const location = extension(raw, 'otep:location', report);
  if (location) {
    const fields = ['name', 'address', 'city', 'region', 'postal_code', 'country', 'gln'] as const;
    return {
      ...strings(location, fields, 'otep:location', report),
      ...numbers(location, ['lat', 'lng'], 'otep:location', report),
    };
  }
  for (const key of ['readPoint', 'bizLocation']) {
    const place = raw[key];
    const gln = isObject(place) && typeof place.id === 'string' ? glnOf(place.id) : undefined;
    if (gln) return { gln };
  }
  return undefined;
}

function incidentReasonOf(raw: Record<string, unknown>, report: Report): EpcisEventInput['incident_reason'] {
  const reason = extension(raw, 'otep:incident_reason', report);
  if (!reason) return undefined;
  if (!INCIDENT_REASONS.includes(reason.code as IncidentReason)) {
    report('otep:incident_reason.code', 'expected_one_of', { values: INCIDENT_REASONS.join(', ') });
  }
  return {
    code: reason.code as IncidentReason,
    ...strings(reason, ['message'], 'otep:incident_reason', report),
  };
}

function podOf(raw: Record<string, unknown>, report: Report): OtepEvent['pod'] {
  const pod = extension(raw, 'otep:pod', report);
  if (!pod) return undefined;
  const photos = pod.photo_urls;
  const photosAreText = Array.isArray(photos) && photos.every((url) => typeof url === 'string');
  if (photos !== undefined && !photosAreText) report('otep:pod.photo_urls', 'expected_url_list');
  return {
    ...strings(pod, ['recipient', 'signature_url', 'note'], 'otep:pod', report),
    ...(photosAreText ? { photo_urls: photos as string[] } : {}),
  };
}

/** Our own event URIs carry the event id; any other eventID is the source's stable id as it is. */
function eventIdOf(eventId: unknown): string | undefined {
  if (typeof eventId !== 'string') return undefined;
  const ours = /\/api\/otep-guide\/ns#event_id=(.+)$/.exec(eventId);
  return ours ? decodeURIComponent(ours[1]!) : eventId;
}

/** An `otep:` object extension with its members' prefixes dropped (`otep:code` → `code`). */
function extension(
  raw: Record<string, unknown>,
  key: string,
  report: Report,
): Record<string, unknown> | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    report(key, 'expected_object');
    return undefined;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [name.replace(/^otep:/, ''), member]),
  );
}

function text(raw: Record<string, unknown>, key: string, report: Report): string | undefined {
  const value = raw[key];
  if (value !== undefined && typeof value !== 'string') report(key, 'expected_string');
  return typeof value === 'string' ? value : undefined;
}

function strings<K extends string>(
  record: Record<string, unknown>,
  keys: readonly K[],
  at: string,
  report: Report,
) {
  return typed<K, string>(record, keys, 'string', at, report);
}

function numbers<K extends string>(
  record: Record<string, unknown>,
  keys: readonly K[],
  at: string,
  report: Report,
) {
  return typed<K, number>(record, keys, 'number', at, report);
}

/** The members of the given keys that have the expected type; the others are reported. */
function typed<K extends string, V>(
  record: Record<string, unknown>,
  keys: readonly K[],
  type: 'string' | 'number',
  at: string,
  report: Report,
): Partial<Record<K, V>> {
  const picked: Partial<Record<K, V>> = {};
  for (const key of keys) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value === type) picked[key] = value as V;
    else report(`${at}.${key}`, type === 'string' ? 'expected_string' : 'expected_number');
  }
  return picked;
}
