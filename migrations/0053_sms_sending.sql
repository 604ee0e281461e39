-- Campaign sending (docs/sms-marketing.md, "Campaigns"): a campaign's audience is read from its
-- segment once, when it starts sending; its ticks carry a sequence number so that a pause and a
-- resume (or a start over a schedule) leave exactly one chain of ticks alive.
ALTER TABLE sms_campaigns ADD COLUMN audience_built_at timestamptz;
ALTER TABLE sms_campaigns ADD COLUMN tick_seq integer NOT NULL DEFAULT 0;

-- The provider's pace for a business (settings.messages_per_second), over all its campaigns: the
-- sending budget is used up to `spent_until`; a batch may use what elapsed since.
CREATE TABLE sms_send_pace (
  business_id  bigint PRIMARY KEY REFERENCES businesses (id),
  spent_until  timestamptz NOT NULL
);
