-- Tracking: the OTEP event store (one timeline per tracking number, merged from the service's
-- own deliveries and from providers' pushes) and the providers allowed to push events.

CREATE TABLE tracking_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  tracking_number text NOT NULL,
  package_id      bigint,
  -- The source's own id, or one derived from the event's content: the deduplication key.
  event_id        text NOT NULL,
  otep_version    text NOT NULL,
  occurred_at     timestamptz NOT NULL,
  -- The offset the source gave ("Z", "+01:00"), so the event reads back as it was sent.
  occurred_offset text NOT NULL,
  recorded_at     timestamptz NOT NULL,
  status_code     text NOT NULL,
  source_type     text NOT NULL,
  -- The optional parts: source name and reference, location, incident reason, pod, description.
  details         jsonb NOT NULL DEFAULT '{}',
  UNIQUE (tracking_number, event_id)
);
CREATE INDEX tracking_events_timeline ON tracking_events (tracking_number, occurred_at, recorded_at, id);

-- Providers push events with a key of their own (never a user token), stored as SHA-256 only.
CREATE TABLE tracking_providers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  key_hash    bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX tracking_providers_business ON tracking_providers (business_id);
