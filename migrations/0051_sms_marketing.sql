-- SMS marketing (docs/sms-marketing.md): a business's settings and provider, its subscribers with
-- the evidence of their consent, the messages in and out, saved segments, campaigns with one row
-- per recipient, and the offer codes those carry. Consent, quiet hours and caps are checked in
-- the transaction that records a message, with the subscriber's row locked.

CREATE TABLE sms_settings (
  business_id         bigint PRIMARY KEY REFERENCES businesses (id),
  -- The region numbers without a country code are read in (ISO 3166 alpha-2).
  default_region      text NOT NULL CHECK (default_region ~ '^[A-Z]{2}$'),
  -- The sending number or sender name the provider sends from.
  sender              text NOT NULL,
  -- What HELP answers: the business's name and a way to reach it.
  help_text           text NOT NULL,
  -- The consent wording shown where people subscribe, and its version: kept with each evidence.
  consent_text        text NOT NULL,
  consent_version     text NOT NULL,
  -- Local times in the subscriber's own zone; the window always covers 21:00 to 08:00.
  quiet_start         time NOT NULL DEFAULT '21:00',
  quiet_end           time NOT NULL DEFAULT '08:00',
  cap_per_day         integer NOT NULL DEFAULT 1 CHECK (cap_per_day BETWEEN 1 AND 10),
  cap_per_week        integer NOT NULL DEFAULT 3 CHECK (cap_per_week BETWEEN 1 AND 50),
  -- The price of one segment, for the estimate a dry run gives (providers price in fractions of a cent).
  segment_cost        numeric(12, 6) NOT NULL DEFAULT 0 CHECK (segment_cost >= 0),
  currency            text NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  provider            text NOT NULL DEFAULT 'log' CHECK (provider IN ('log', 'twilio', 'generic')),
  -- What the provider needs that is not secret (Twilio's account SID, the generic provider's URL).
  provider_config     jsonb NOT NULL DEFAULT '{}',
  -- The provider's secret (Twilio's auth token, the generic provider's signing key), sealed with
  -- the service's credential key: it must be sent or used to check signatures, so it cannot be hashed.
  provider_secret     text,
  -- Messages a second the provider takes from this business.
  messages_per_second integer NOT NULL DEFAULT 10 CHECK (messages_per_second BETWEEN 1 AND 10000),
  updated_at          timestamptz NOT NULL
);

CREATE TABLE sms_subscribers (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  -- E.164, as libphonenumber-js normalised it.
  phone            text NOT NULL CHECK (phone ~ '^\+[1-9][0-9]{6,14}$'),
  status           text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
  language         text NOT NULL,
  time_zone        text NOT NULL,
  tags             text[] NOT NULL DEFAULT '{}',
  attributes       jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL,
  confirmed_at     timestamptz,
  unsubscribed_at  timestamptz,
  UNIQUE (business_id, phone)
);
CREATE INDEX sms_subscribers_business ON sms_subscribers (business_id, id);
CREATE INDEX sms_subscribers_tags ON sms_subscribers USING gin (tags);

-- Append-only: every request, confirmation, unsubscription and re-subscription, with what proves it.
CREATE TABLE sms_consent_evidence (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  subscriber_id     bigint NOT NULL REFERENCES sms_subscribers (id) ON DELETE CASCADE,
  event             text NOT NULL CHECK (event IN ('requested', 'confirmed', 'unsubscribed', 'resubscribed')),
  source            text NOT NULL CHECK (source IN ('form', 'import', 'checkout', 'api', 'keyword', 'link')),
  consent_text      text,
  consent_version   text,
  -- The requesting address or device (an IP address, a user agent, an import's file name and row).
  requested_from    text,
  -- The message that confirmed or ended the subscription, as received, and its provider id.
  message_text      text,
  message_id        text,
  at                timestamptz NOT NULL
);
CREATE INDEX sms_consent_evidence_subscriber ON sms_consent_evidence (subscriber_id, id);

CREATE TABLE sms_segments (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  rules        jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE INDEX sms_segments_business ON sms_segments (business_id, id);

CREATE TABLE sms_campaigns (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  name              text NOT NULL,
  body              text NOT NULL,
  segment_id        bigint REFERENCES sms_segments (id),
  status            text NOT NULL CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'done', 'cancelled')),
  scheduled_at      timestamptz,
  -- When the body asks for an offer code: how long each recipient's code is good.
  offer_expires_at  timestamptz,
  started_at        timestamptz,
  finished_at       timestamptz,
  created_by        bigint,
  created_at        timestamptz NOT NULL
);
CREATE INDEX sms_campaigns_business ON sms_campaigns (business_id, id);
CREATE INDEX sms_campaigns_due ON sms_campaigns (status, scheduled_at) WHERE status IN ('scheduled', 'sending');

CREATE TABLE sms_campaign_recipients (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  campaign_id    bigint NOT NULL REFERENCES sms_campaigns (id) ON DELETE CASCADE,
  subscriber_id  bigint NOT NULL REFERENCES sms_subscribers (id) ON DELETE CASCADE,
  state          text NOT NULL CHECK (state IN ('queued', 'deferred', 'sent', 'delivered', 'failed', 'skipped')),
  -- Why it was skipped or deferred (unsubscribed, unconfirmed, quiet_hours, cap_day, cap_week).
  reason         text,
  -- A deferred recipient is tried again from this time.
  not_before     timestamptz,
  updated_at     timestamptz NOT NULL,
  UNIQUE (campaign_id, subscriber_id)
);
CREATE INDEX sms_campaign_recipients_due ON sms_campaign_recipients (campaign_id, not_before, id)
  WHERE state IN ('queued', 'deferred');

-- Every message out: confirmations, replies to keywords, campaign messages. A campaign message is
-- written with its recipient's send, in one transaction; the provider is called by the outbox.
CREATE TABLE sms_messages (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  subscriber_id        bigint REFERENCES sms_subscribers (id) ON DELETE SET NULL,
  campaign_id          bigint REFERENCES sms_campaigns (id) ON DELETE SET NULL,
  recipient_id         bigint REFERENCES sms_campaign_recipients (id) ON DELETE SET NULL,
  kind                 text NOT NULL CHECK (kind IN ('confirmation', 'reply', 'campaign')),
  to_phone             text NOT NULL,
  body                 text NOT NULL,
  segments             integer NOT NULL,
  state                text NOT NULL CHECK (state IN ('queued', 'sent', 'delivered', 'failed')),
  provider             text,
  provider_message_id  text,
  error                text,
  created_at           timestamptz NOT NULL,
  sent_at              timestamptz,
  status_at            timestamptz
);
-- Caps count a subscriber's campaign messages of the last day and week.
CREATE INDEX sms_messages_caps ON sms_messages (subscriber_id, created_at) WHERE kind = 'campaign';
CREATE INDEX sms_messages_campaign ON sms_messages (campaign_id) WHERE campaign_id IS NOT NULL;
CREATE UNIQUE INDEX sms_messages_provider_id ON sms_messages (provider, provider_message_id)
  WHERE provider_message_id IS NOT NULL;

-- Every message in, once: a provider's retry of the same message id is not taken twice.
CREATE TABLE sms_inbound (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  from_phone           text NOT NULL,
  body                 text NOT NULL,
  provider             text NOT NULL,
  provider_message_id  text NOT NULL,
  -- What the service read in it: stop, help, start, confirm, or nothing.
  keyword              text,
  received_at          timestamptz NOT NULL,
  UNIQUE (business_id, provider, provider_message_id)
);

-- One code per recipient of a campaign that offers one, kept hashed like every other code.
CREATE TABLE sms_offer_codes (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id        bigint NOT NULL REFERENCES businesses (id),
  campaign_id        bigint NOT NULL REFERENCES sms_campaigns (id) ON DELETE CASCADE,
  subscriber_id      bigint NOT NULL REFERENCES sms_subscribers (id) ON DELETE CASCADE,
  code_hash          text NOT NULL,
  expires_at         timestamptz NOT NULL,
  redeemed_at        timestamptz,
  redeemed_order_id  bigint,
  created_at         timestamptz NOT NULL,
  UNIQUE (business_id, code_hash),
  UNIQUE (campaign_id, subscriber_id)
);
