import { createHash } from 'node:crypto';
import type { OtepEvent, OtepTimeline } from '../timeline.ts';
import { type ProjectionContext, subjectIri, subjectKey } from './common.ts';

/** OTLP enums travel as integers. */
const SPAN_KIND_INTERNAL = 1;
const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;
const SERVICE_NAME = 'tms';

type AttributeValue = { stringValue: string } | { doubleValue: number } | { boolValue: boolean };

/**
 * OpenTelemetry OTLP/JSON: the journey is one trace (its id derived from the tracking number, so
 * the same journey is always the same trace) under a root span; each event is a child span that
 * lasts until the next event, the time the parcel spent in that status.
 */
export function otlp(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  const journey = subjectKey(timeline.subject);
  const traceId = digestHex(journey, 16);
  const rootSpanId = digestHex(`journey ${journey}`, 8);
  const { events } = timeline;
  const first = events[0];
  const last = events.at(-1);
  const root = first &&
    last && {
      traceId,
      spanId: rootSpanId,
      name: `journey ${journey}`,
      kind: SPAN_KIND_INTERNAL,
      startTimeUnixNano: unixNanos(first.occurred_at),
      endTimeUnixNano: unixNanos(last.occurred_at),
      attributes: attributes({
        'otep.subject': journey,
        'otep.tracking_url': subjectIri(timeline.subject, baseUrl),
        'otep.current_status': timeline.current_status,
        'otep.delivered': timeline.delivered,
      }),
      status: { code: timeline.delivered ? STATUS_CODE.ok : STATUS_CODE.unset },
    };
  const spans = events.map((event, index) => ({
    traceId,
    spanId: spanIdOf(event),
    parentSpanId: rootSpanId,
    name: event.status_code,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: unixNanos(event.occurred_at),
    endTimeUnixNano: unixNanos((events[index + 1] ?? event).occurred_at),
    attributes: attributes(eventAttributes(event)),
    status: spanStatus(event),
  }));
  return {
    resourceSpans: [
      {
        resource: {
          attributes: attributes({ 'service.name': SERVICE_NAME, 'otep.version': timeline.otep_version }),
        },
        scopeSpans: [
          { scope: { name: 'otep', version: timeline.otep_version }, spans: root ? [root, ...spans] : spans },
        ],
      },
    ],
  };
}

/** The first bytes of SHA-256 as lowercase hex: the same input always gives the same id. */
function digestHex(input: string, bytes: number): string {
  return createHash('sha256')
    .update(input)
    .digest('hex')
    .slice(0, bytes * 2);
}

function spanIdOf(event: OtepEvent): string {
  return digestHex(event.event_id, 8);
}

/** Nanoseconds since the Unix epoch as a decimal string, keeping digits below the millisecond. */
export function unixNanos(iso: string): string {
  const fraction = /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(iso)?.[1] ?? '';
  const seconds = BigInt(Math.floor(Date.parse(iso) / 1000));
  return (seconds * 1_000_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, '0'))).toString();
}

function eventAttributes(event: OtepEvent): Record<string, string | number | boolean | undefined> {
  const { location, incident_reason: reason } = event;
  return {
    'otep.event_id': event.event_id,
    'otep.status_code': event.status_code,
    'otep.phase': event.phase ?? undefined,
    'otep.occurred_at': event.occurred_at,
    'otep.recorded_at': event.recorded_at,
    'otep.source.type': event.source.type,
    'otep.source.name': event.source.name,
    'otep.description': event.description,
    'otep.location.name': location?.name,
    'otep.location.city': location?.city,
    'otep.location.region': location?.region,
    'otep.location.postal_code': location?.postal_code,
    'otep.location.country': location?.country,
    'otep.location.gln': location?.gln,
    'otep.location.lat': location?.lat,
    'otep.location.lng': location?.lng,
    'otep.incident_reason.code': reason?.code,
    'otep.incident_reason.message': reason?.message,
    'otep.pod.recipient': event.pod?.recipient,
  };
}

/** Exceptions are errors of the journey, a delivery its success; every other step is unset. */
function spanStatus(event: OtepEvent) {
  if (event.phase === 'exception') {
    const message = event.incident_reason?.message ?? event.incident_reason?.code ?? event.description;
    return { code: STATUS_CODE.error, ...(message ? { message } : {}) };
  }
  return { code: event.phase === 'delivered' ? STATUS_CODE.ok : STATUS_CODE.unset };
}

/** `{ key, value: { stringValue | doubleValue | boolValue } }`, leaving out what is not known. */
function attributes(values: Record<string, string | number | boolean | undefined>) {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => ({ key, value: attributeValue(value) }));
}

function attributeValue(value: string | number | boolean): AttributeValue {
  if (typeof value === 'number') return { doubleValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  return { stringValue: value };
}
