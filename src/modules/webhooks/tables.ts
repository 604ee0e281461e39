import type { Generated } from 'kysely';

export const WEBHOOK_KINDS = [
  'order.created',
  'order.status_changed',
  'tracking.event',
  'label.created',
  'contractor_assignment.changed',
  'route_board.promoted',
  'order.instant_unassigned',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export const DELIVERY_STATES = ['delivered', 'retrying', 'failed', 'disabled', 'refused'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface WebhooksTables {
  webhook_settings: {
    id: Generated<number>;
    business_id: number;
    customer_user_id: number | null;
    urls: Partial<Record<WebhookKind, string>>;
    active: boolean;
    secret: string | null;
    disabled: Partial<Record<WebhookKind, string>>;
    updated_at: Date;
  };
  webhook_delivery_logs: {
    id: Generated<number>;
    business_id: number;
    message_id: string;
    settings_id: number | null;
    kind: string;
    url: string;
    attempt: number;
    request_headers: Record<string, string>;
    request_body: string;
    response_status: number | null;
    response_excerpt: string | null;
    latency_ms: number | null;
    error: string | null;
    next_retry_at: Date | null;
    state: DeliveryState;
    created_at: Date;
  };
}
