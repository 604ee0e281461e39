import type { Generated } from 'kysely';

export const THIRD_PARTY_STATES = ['pending', 'accepted', 'rejected', 'expired'] as const;
export type ThirdPartyState = (typeof THIRD_PARTY_STATES)[number];
export const DECIDERS = ['rules', 'dispatcher', 'deadline'] as const;
export type Decider = (typeof DECIDERS)[number];

export interface ThirdPartyTables {
  third_party_connections: {
    id: Generated<number>;
    business_id: number;
    name: string;
    adapter: string;
    base_url: string;
    credential_sealed: string | null;
    credential_hint: string | null;
    push_token_hash: string;
    mapping: unknown;
    family: string;
    rules: unknown;
    poll_seconds: number;
    active: Generated<boolean>;
    cursor: string | null;
    next_pull_at: Date;
    failures: Generated<number>;
    last_error: string | null;
    last_error_at: Date | null;
    last_success_at: Date | null;
    created_at: Date;
  };
  third_party_orders: {
    id: Generated<number>;
    business_id: number;
    connection_id: number;
    provider_order_id: string;
    state: ThirdPartyState;
    accept_by: Date;
    order_id: number | null;
    decided_by: Decider | null;
    decision_reason: string | null;
    mapped: unknown;
    dropoff_lat: number | null;
    dropoff_lng: number | null;
    last_error: string | null;
    received_at: Date;
    decided_at: Date | null;
  };
  third_party_status_pushes: {
    id: Generated<number>;
    business_id: number;
    third_party_order_id: number;
    seq: number;
    status: string;
    at: Date;
    sent_at: Date | null;
    attempts: Generated<number>;
    last_error: string | null;
  };
}
