-- Consolidation for package forwarding (docs/consolidation.md): a business's forwarding settings
-- (the tracking provider's webhook secret, free storage days and the daily fee after them), the
-- customers' suites at its warehouses, their pre-announced inbound parcels, the provider pushes
-- already taken (replays are refused), and the consolidations of received parcels into one
-- outbound shipment with its customs declaration.

CREATE TABLE forwarding_settings (
  business_id          bigint PRIMARY KEY REFERENCES businesses (id),
  -- Kept as given, like the webhooks module's signing secrets: an HMAC is checked with the
  -- secret itself, so a hash would not do (docs/consolidation.md).
  webhook_secret       text,
  free_storage_days    integer NOT NULL DEFAULT 14 CHECK (free_storage_days BETWEEN 0 AND 365),
  storage_fee_minor    bigint NOT NULL DEFAULT 0 CHECK (storage_fee_minor >= 0),
  currency             text NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  updated_at           timestamptz NOT NULL
);

CREATE TABLE forwarding_suites (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  warehouse_id      bigint NOT NULL,
  customer_user_id  bigint NOT NULL,
  code              text NOT NULL,
  created_at        timestamptz NOT NULL,
  UNIQUE (business_id, customer_user_id),
  UNIQUE (business_id, code)
);

CREATE TABLE inbound_parcels (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  suite_id          bigint NOT NULL REFERENCES forwarding_suites (id),
  customer_user_id  bigint NOT NULL,
  -- The parcel's own tracking number in the service (its OTEP timeline): carriers' numbers are
  -- not unique across businesses, and a timeline is read by number.
  reference         text NOT NULL UNIQUE,
  carrier           text NOT NULL,
  tracking_number   text NOT NULL,
  state             text NOT NULL CHECK (state IN ('announced', 'received', 'consolidated', 'shipped')),
  items             jsonb NOT NULL,
  weight_grams      integer,
  length_mm         integer,
  width_mm          integer,
  height_mm         integer,
  photo_urls        text[] NOT NULL DEFAULT '{}',
  received_at       timestamptz,
  received_by       bigint,
  consolidation_id  bigint,
  left_at           timestamptz,
  created_at        timestamptz NOT NULL,
  UNIQUE (business_id, carrier, tracking_number)
);
CREATE INDEX inbound_parcels_customer ON inbound_parcels (business_id, customer_user_id, id);

-- One row per provider push taken: the same event id again is a replay.
CREATE TABLE forwarding_pushes (
  business_id   bigint NOT NULL REFERENCES businesses (id),
  event_id      text NOT NULL,
  received_at   timestamptz NOT NULL,
  PRIMARY KEY (business_id, event_id)
);

CREATE TABLE consolidations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  customer_user_id  bigint NOT NULL,
  suite_id          bigint NOT NULL REFERENCES forwarding_suites (id),
  state             text NOT NULL CHECK (state IN ('requested', 'shipped')),
  parcel_ids        bigint[] NOT NULL,
  dropoff           jsonb NOT NULL,
  residential       boolean NOT NULL,
  package           jsonb NOT NULL,
  customs           jsonb NOT NULL,
  order_id          bigint,
  tracking_number   text,
  carrier           text,
  service           text,
  created_at        timestamptz NOT NULL,
  shipped_at        timestamptz
);
CREATE INDEX consolidations_customer ON consolidations (business_id, customer_user_id, id);
