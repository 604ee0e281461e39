import { z } from 'zod';
import { INCIDENT_REASONS, PHASES, PROFILES, SOURCE_TYPES } from './codebook.ts';
import type { OtepTimeline } from './timeline.ts';

/**
 * The native OTEP timeline as answers carry it (timeline.ts, docs/otep.md), for the contract: a
 * generated client reads a typed Timeline and TrackingEvent. The published OTEP schema
 * (schema.ts) is what a provider's timeline must meet to be ingested; this is what the service says.
 */
const subject = z
  .object({
    tracking_number: z.string().optional(),
    order_id: z.int().optional(),
    package_id: z.int().optional(),
    external_tracking_number: z.string().optional(),
    gs1_sscc: z.string().optional(),
    piece_id: z.string().optional(),
  })
  .meta({ title: 'TrackingSubject' });

const location = z
  .object({
    name: z.string().optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    region: z.string().optional(),
    postal_code: z.string().optional(),
    country: z.string().optional(),
    lat: z.number().optional(),
    lng: z.number().optional(),
    gln: z.string().optional(),
  })
  .meta({ title: 'TrackingLocation' });

const proofOfDelivery = z
  .object({
    recipient: z.string().optional(),
    signature_url: z.string().optional(),
    photo_urls: z.array(z.string()).optional(),
    signature_proof_id: z.int().optional(),
    photo_proof_ids: z.array(z.int()).optional(),
    note: z.string().optional(),
  })
  .meta({ title: 'ProofOfDelivery' });

export const trackingEventSchema = z
  .object({
    event_id: z.string(),
    otep_version: z.string(),
    occurred_at: z.string().describe('ISO 8601 with the offset the source gave'),
    recorded_at: z.string().describe('ISO 8601, UTC, when the service stored it'),
    status_code: z.string().describe('A codebook code (docs/otep.md)'),
    status_uri: z.string().describe('otep:parcel:<code>'),
    phase: z.enum(PHASES).meta({ title: 'TrackingPhase' }).nullable(),
    source: z.object({
      type: z.enum(SOURCE_TYPES).meta({ title: 'TrackingSourceType' }),
      name: z.string().optional(),
      reference: z.string().optional(),
    }),
    location: location.optional(),
    incident_reason: z
      .object({
        code: z.enum(INCIDENT_REASONS).meta({ title: 'IncidentReason' }),
        message: z.string().optional(),
      })
      .optional(),
    pod: proofOfDelivery.optional(),
    description: z.string().optional(),
    after_terminal: z
      .literal(true)
      .optional()
      .describe('A non-terminal event after a terminal one: shown, but the status stays terminal'),
  })
  .meta({ title: 'TrackingEvent' });

export const timelineSchema = z
  .object({
    otep_version: z.string(),
    profile: z.enum(PROFILES),
    subject,
    current_status: z.string().optional().describe('The code of the latest event not after a terminal one'),
    delivered: z.boolean(),
    events: z
      .array(trackingEventSchema)
      .describe('Ascending by occurred_at (ties: recorded_at, then event_id)'),
  })
  .meta({ title: 'Timeline' });

// The schema and the type the projections read name the same fields.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameAsTimeline: Same<z.output<typeof timelineSchema>, OtepTimeline> = true;
void sameAsTimeline;
