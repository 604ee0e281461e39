-- A delivery report that arrives before the provider's answer to the send is recorded (a fast
-- provider reports within the same instant): kept here until the message has that provider id,
-- then applied to it, so no report is lost to the race.
CREATE TABLE sms_early_reports (
  business_id          bigint NOT NULL REFERENCES businesses (id),
  provider             text NOT NULL,
  provider_message_id  text NOT NULL,
  state                text NOT NULL CHECK (state IN ('delivered', 'failed')),
  error                text,
  received_at          timestamptz NOT NULL,
  PRIMARY KEY (business_id, provider, provider_message_id)
);
