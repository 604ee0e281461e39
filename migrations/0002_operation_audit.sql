-- One row per successful write operation, written in the operation's own transaction.
CREATE TABLE operation_audit (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at            timestamptz NOT NULL,
  operation     text NOT NULL,
  door          text NOT NULL,
  actor_user_id bigint,
  business_id   bigint,
  request_id    text
);
CREATE INDEX operation_audit_business_at ON operation_audit (business_id, at);
