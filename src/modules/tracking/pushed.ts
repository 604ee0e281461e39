import { canonicalCode, DEFAULT_SOURCE_TYPE, OTEP_VERSION, type SourceType } from './codebook.ts';
import type { EventDetails } from './tables.ts';
import type { OtepEvent, OtepLocation } from './timeline.ts';

// What providers push, as ingest reads it once the validator has accepted it.

/** A provider authenticated by its key: it writes to its business's tracking numbers only. */
export interface TrackingProvider {
  id: number;
  businessId: number;
  name: string;
}

/** One event as it arrives, validated and normalised to the OTEP vocabulary. */
export interface IncomingEvent {
  tracking_number: string;
  event_id?: string;
  otep_version?: string;
  occurred_at: string;
  status_code: string;
  source: { type: SourceType; name?: string; reference?: string };
  location?: OtepLocation;
  incident_reason?: { code: string; message?: string };
  pod?: EventDetails['pod'];
  description?: string;
}

/** A pushed timeline, once the validator has accepted it: a subject on the envelope, on each event, or both. */
export interface PushedTimeline {
  otep_version?: string;
  subject?: PushedSubject;
  events: Array<
    Omit<IncomingEvent, 'tracking_number' | 'source'> & {
      source?: IncomingEvent['source'];
      subject?: PushedSubject;
    }
  >;
}

interface PushedSubject {
  tracking_number?: string;
}

/**
 * The tracking numbers a pushed timeline's events go to, each with where it was given: an event's
 * own subject wins over the envelope's, which counts when an event has none (or there are none).
 */
export function subjectsOf(timeline: PushedTimeline): Array<{ path: string; number: string | undefined }> {
  const events = timeline.events ?? [];
  const own = events.flatMap((event, index) =>
    event.subject
      ? [{ path: `events[${index}].subject.tracking_number`, number: event.subject.tracking_number }]
      : [],
  );
  const envelope =
    own.length < events.length || events.length === 0
      ? [{ path: 'subject.tracking_number', number: timeline.subject?.tracking_number }]
      : [];
  return [...envelope, ...own];
}

export function eventsOfTimeline(timeline: PushedTimeline, provider: TrackingProvider): IncomingEvent[] {
  return timeline.events.map(({ subject, ...event }) => ({
    ...event,
    ...(event.pod ? { pod: withoutProofFiles(event.pod) } : {}),
    // Every number was checked before anything is stored (requireOwnNumbers).
    tracking_number: (subject ?? timeline.subject)?.tracking_number ?? '',
    otep_version: event.otep_version ?? timeline.otep_version ?? OTEP_VERSION,
    status_code: canonicalCode(event.status_code),
    // Without a source the event is the pushing provider's own.
    source: { type: DEFAULT_SOURCE_TYPE, ...event.source, name: event.source?.name ?? provider.name },
  }));
}

/**
 * A pushed proof of delivery less any proof file ids: those name this service's own uploads,
 * which only an order's status change may attach (the proofs module checks them there).
 */
function withoutProofFiles(pod: NonNullable<OtepEvent['pod']>): OtepEvent['pod'] {
  const kept = { ...pod };
  delete kept.signature_proof_id;
  delete kept.photo_proof_ids;
  return kept;
}
