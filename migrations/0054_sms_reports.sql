-- SMS campaign reports (docs/sms-marketing.md, "Reports and agent tools"): a campaign of 100,000
-- recipients is counted from indexes alone, not from its rows.

-- Messages of a campaign by state, their segments, when sent, and to whom.
CREATE INDEX sms_messages_campaign_report ON sms_messages (campaign_id, state)
  INCLUDE (segments, sent_at, subscriber_id, created_at)
  WHERE kind = 'campaign';

-- Recipients of a campaign by state and reason.
CREATE INDEX sms_campaign_recipients_report ON sms_campaign_recipients (campaign_id, state, reason);

-- Codes of a campaign issued and redeemed.
CREATE INDEX sms_offer_codes_campaign ON sms_offer_codes (campaign_id, redeemed_at);

-- Who unsubscribed when: "unsubscribed after the campaign" looks up its recipients here.
CREATE INDEX sms_consent_evidence_unsubscribed ON sms_consent_evidence (subscriber_id, at)
  WHERE event = 'unsubscribed';
