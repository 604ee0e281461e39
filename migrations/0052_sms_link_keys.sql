-- The HMAC key of the SMS confirmation links (docs/sms-marketing.md): one, made here from
-- gen_random_uuid (a strong random source built into PostgreSQL 13+), read by every instance.
-- A link confirms only the subscriber it names; it needs no expiry (a confirmed subscriber stays so).
CREATE TABLE sms_link_keys (
  id      integer PRIMARY KEY CHECK (id = 1),
  secret  bytea NOT NULL
);
INSERT INTO sms_link_keys (id, secret)
VALUES (1, decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'));
