import type { Generated } from 'kysely';
import type { MonthlyHistory } from '../../platform/db/partitions.ts';
import type { ProofOfDelivery } from '../orders/index.ts';

export interface TrackingTables {
  tracking_events: {
    id: Generated<number>;
    business_id: number;
    tracking_number: string;
    package_id: number | null;
    event_id: string;
    otep_version: string;
    occurred_at: Date;
    occurred_offset: string;
    recorded_at: Date;
    status_code: string;
    source_type: string;
    details: EventDetails;
  };
  /** The deduplication keys of stored events (every month's, detached ones too). */
  tracking_event_keys: {
    tracking_number: string;
    event_id: string;
    business_id: number;
  };
  tracking_providers: {
    id: Generated<number>;
    business_id: number;
    name: string;
    key_hash: Buffer;
    created_at: Date;
    revoked_at: Date | null;
  };
}

/** The tracking history is partitioned by month of recorded_at (docs/history.md). */
export const TRACKING_HISTORY: MonthlyHistory = { table: 'tracking_events', timeColumn: 'recorded_at' };

/** The optional parts of an event, kept together as they are only ever read whole. */
export interface EventDetails {
  source_name?: string;
  source_reference?: string;
  location?: Record<string, unknown>;
  incident_reason?: { code: string; message?: string };
  /** The proof file ids come from the proofs module (status changes only, never a provider's push). */
  pod?: ProofOfDelivery;
  description?: string;
}
