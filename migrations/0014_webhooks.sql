-- Webhooks: per-business settings (with per-customer overrides) and one log row per delivery attempt.

CREATE TABLE webhook_settings (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  -- NULL: the business's own setting; otherwise an override for one customer account.
  customer_user_id bigint REFERENCES users (id),
  -- Event kind -> URL; a kind without a URL is not subscribed.
  urls             jsonb NOT NULL DEFAULT '{}',
  active           boolean NOT NULL DEFAULT true,
  -- Used to sign; answered masked only (the full value once, when generated).
  secret           text,
  -- Event kind -> why its URL was switched off (a 410 Gone, ...).
  disabled         jsonb NOT NULL DEFAULT '{}',
  updated_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX webhook_settings_owner ON webhook_settings (business_id, COALESCE(customer_user_id, 0));

CREATE TABLE webhook_delivery_logs (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  -- The webhook-id: the same for every attempt and replay of one delivery.
  message_id       text NOT NULL,
  -- The setting whose secret signs it (NULL for test deliveries to a given URL).
  settings_id      bigint REFERENCES webhook_settings (id) ON DELETE SET NULL,
  kind             text NOT NULL,
  url              text NOT NULL,
  attempt          integer NOT NULL,
  request_headers  jsonb NOT NULL,
  request_body     text NOT NULL,
  response_status  integer,
  response_excerpt text,
  latency_ms       integer,
  error            text,
  next_retry_at    timestamptz,
  -- delivered, retrying, failed, disabled (410), refused (address not allowed)
  state            text NOT NULL,
  created_at       timestamptz NOT NULL
);
CREATE INDEX webhook_delivery_logs_business ON webhook_delivery_logs (business_id, id DESC);
CREATE INDEX webhook_delivery_logs_created ON webhook_delivery_logs (created_at);
