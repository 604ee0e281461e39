-- The transactional outbox: every side effect (a webhook delivery, ...) is a row written in the
-- same transaction as the change that causes it, drained by workers that lease rows.

CREATE TABLE outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Stable across attempts and replays: receivers deduplicate on it.
  message_id    text NOT NULL,
  topic         text NOT NULL,
  business_id   bigint REFERENCES businesses (id),
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL,
  available_at  timestamptz NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  leased_until  timestamptz,
  leased_by     text,
  done_at       timestamptz,
  last_error    text
);
CREATE INDEX outbox_due ON outbox (available_at, id) WHERE done_at IS NULL;
