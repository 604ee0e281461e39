import type { ProofOfDelivery } from '../orders/index.ts';
import type { IncidentReason, Phase, Profile, SourceType } from './codebook.ts';

/**
 * The native OTEP timeline, as the service answers it: what every projection reads. Field
 * meanings are in docs/otep.md.
 */
export interface OtepSubject {
  tracking_number?: string;
  order_id?: number;
  package_id?: number;
  external_tracking_number?: string;
  gs1_sscc?: string;
  piece_id?: string;
}

export interface OtepLocation {
  name?: string;
  address?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
  lat?: number;
  lng?: number;
  gln?: string;
}

export interface OtepEvent {
  /** Stable id of the event in this service (or the source's own id when it sent one). */
  event_id: string;
  otep_version: string;
  /** ISO 8601 with the offset the source gave (`2026-11-02T10:30:00+01:00`). */
  occurred_at: string;
  /** ISO 8601, UTC, when the service stored it. */
  recorded_at: string;
  status_code: string;
  /** `otep:parcel:<code>`. */
  status_uri: string;
  phase: Phase | null;
  source: { type: SourceType; name?: string; reference?: string };
  location?: OtepLocation;
  incident_reason?: { code: IncidentReason; message?: string };
  pod?: ProofOfDelivery;
  description?: string;
  /**
   * A non-terminal event that comes after a terminal one in the timeline's order: kept and shown,
   * but it does not change the current status (a terminal state stays terminal). Absent otherwise.
   */
  after_terminal?: true;
}

export interface OtepTimeline {
  otep_version: string;
  profile: Profile;
  subject: OtepSubject;
  /** The code of the latest event not flagged `after_terminal` (docs/otep.md, "Terminal states"). */
  current_status?: string;
  delivered: boolean;
  /** Ascending by occurred_at (ties: recorded_at, then event_id). */
  events: OtepEvent[];
}

/**
 * The event that sets a timeline's current status: the latest one not flagged `after_terminal`
 * (the latest terminal event once there is one). A page of a long timeline holding flagged events
 * only (its terminal event is on an older page) answers its latest; no events, undefined.
 */
export function currentEvent(timeline: Pick<OtepTimeline, 'events'>): OtepEvent | undefined {
  return timeline.events.findLast((event) => !event.after_terminal) ?? timeline.events.at(-1);
}
