import type { ColumnType, Generated } from 'kysely';

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
export const EVIDENCE_EVENTS = ['requested', 'confirmed', 'unsubscribed', 'resubscribed'] as const;
export type EvidenceEvent = (typeof EVIDENCE_EVENTS)[number];
export const CONSENT_SOURCES = ['form', 'import', 'checkout', 'api', 'keyword', 'link'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'done', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const RECIPIENT_STATES = ['queued', 'deferred', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
export const MESSAGE_KINDS = ['confirmation', 'reply', 'campaign'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_STATES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];
export const PROVIDERS = ['log', 'twilio', 'generic'] as const;
export type ProviderKind = (typeof PROVIDERS)[number];

/** Reads as text ('21:00:00'), written as text ('21:00'); defaulted. */
type TimeOfDay = ColumnType<string, string | undefined, string>;

export interface SmsTables {
  sms_settings: {
    business_id: number;
    default_region: string;
    sender: string;
    help_text: string;
    consent_text: string;
    consent_version: string;
    quiet_start: TimeOfDay;
    quiet_end: TimeOfDay;
    cap_per_day: Generated<number>;
    cap_per_week: Generated<number>;
    /** numeric: read as text. */
    segment_cost: ColumnType<string, string | undefined, string>;
    currency: Generated<string>;
    provider: Generated<ProviderKind>;
    provider_config: Generated<Record<string, string>>;
    provider_secret: string | null;
    messages_per_second: Generated<number>;
    updated_at: Date;
  };
  sms_subscribers: {
    id: Generated<number>;
    business_id: number;
    phone: string;
    status: SubscriberStatus;
    language: string;
    time_zone: string;
    tags: Generated<string[]>;
    attributes: Generated<Record<string, string>>;
    created_at: Date;
    confirmed_at: Date | null;
    unsubscribed_at: Date | null;
  };
  sms_consent_evidence: {
    id: Generated<number>;
    business_id: number;
    subscriber_id: number;
    event: EvidenceEvent;
    source: ConsentSource;
    consent_text: string | null;
    consent_version: string | null;
    requested_from: string | null;
    message_text: string | null;
    message_id: string | null;
    at: Date;
  };
  sms_segments: {
    id: Generated<number>;
    business_id: number;
    name: string;
    rules: unknown;
    created_at: Date;
    updated_at: Date;
  };
  sms_campaigns: {
    id: Generated<number>;
    business_id: number;
    name: string;
    body: string;
    segment_id: number | null;
    status: CampaignStatus;
    scheduled_at: Date | null;
    offer_expires_at: Date | null;
    started_at: Date | null;
    finished_at: Date | null;
    created_by: number | null;
    created_at: Date;
    audience_built_at: Date | null;
    tick_seq: Generated<number>;
  };
  sms_campaign_recipients: {
    id: Generated<number>;
    business_id: number;
    campaign_id: number;
    subscriber_id: number;
    state: RecipientState;
    reason: string | null;
    not_before: Date | null;
    updated_at: Date;
  };
  sms_messages: {
    id: Generated<number>;
    business_id: number;
    subscriber_id: number | null;
    campaign_id: number | null;
    recipient_id: number | null;
    kind: MessageKind;
    to_phone: string;
    body: string;
    segments: number;
    state: MessageState;
    provider: string | null;
    provider_message_id: string | null;
    error: string | null;
    created_at: Date;
    sent_at: Date | null;
    status_at: Date | null;
  };
  sms_early_reports: {
    business_id: number;
    provider: string;
    provider_message_id: string;
    state: 'delivered' | 'failed';
    error: string | null;
    received_at: Date;
  };
  sms_send_pace: {
    business_id: number;
    spent_until: Date;
  };
  sms_inbound: {
    id: Generated<number>;
    business_id: number;
    from_phone: string;
    body: string;
    provider: string;
    provider_message_id: string;
    keyword: string | null;
    received_at: Date;
  };
  sms_offer_codes: {
    id: Generated<number>;
    business_id: number;
    campaign_id: number;
    subscriber_id: number;
    code_hash: string;
    expires_at: Date;
    redeemed_at: Date | null;
    redeemed_order_id: number | null;
    created_at: Date;
  };
  /** The HMAC key of confirmation links: one row, made by its migration. */
  sms_link_keys: {
    id: number;
    secret: Buffer;
  };
}
