-- Analytics rollups: a business's orders counted by local day, kept in the transaction of every
-- order change (the orders module's status listener) and rebuilt from the orders module's facts.
-- customer_key 0 holds the whole business; a customer account's id holds that customer's share,
-- so a customer's summary and the business's each read one narrow range of the primary key.

CREATE TABLE analytics_daily (
  business_id     bigint NOT NULL REFERENCES businesses (id),
  customer_key    bigint NOT NULL,
  -- The local day (business time zone) the counted event happened on.
  day             date NOT NULL,
  family          text NOT NULL,
  created         integer NOT NULL DEFAULT 0,
  delivered       integer NOT NULL DEFAULT 0,
  on_time         integer NOT NULL DEFAULT 0,
  early           integer NOT NULL DEFAULT 0,
  late            integer NOT NULL DEFAULT 0,
  without_window  integer NOT NULL DEFAULT 0,
  -- Sum of creation-to-delivery times of the day's deliveries, in milliseconds.
  delivery_ms     bigint NOT NULL DEFAULT 0,
  failed_attempts integer NOT NULL DEFAULT 0,
  returned        integer NOT NULL DEFAULT 0,
  cancelled       integer NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, customer_key, day, family)
);

-- Orders by the local day they were created and the status they are in now.
CREATE TABLE analytics_statuses (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  customer_key bigint NOT NULL,
  day          date NOT NULL,
  family       text NOT NULL,
  status       text NOT NULL,
  orders       integer NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, customer_key, day, family, status)
);

-- Booked revenue: the price of the orders created on the day, cancelled ones taken out again.
CREATE TABLE analytics_revenue (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  customer_key bigint NOT NULL,
  day          date NOT NULL,
  family       text NOT NULL,
  currency     text NOT NULL,
  amount_minor bigint NOT NULL DEFAULT 0,
  orders       integer NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, customer_key, day, family, currency)
);

-- Reasons of the day's failed attempts and returns.
CREATE TABLE analytics_reasons (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  customer_key bigint NOT NULL,
  day          date NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('failed_attempt', 'returned')),
  code         text NOT NULL,
  n            integer NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, customer_key, day, kind, code)
);

-- Each failed attempt and return, with its order, for the daily digest's list.
CREATE TABLE analytics_exceptions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  day              date NOT NULL,
  at               timestamptz NOT NULL,
  order_id         bigint NOT NULL,
  order_ref        text NOT NULL,
  customer_user_id bigint,
  family           text NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('failed_attempt', 'returned')),
  reason_code      text NOT NULL,
  note             text
);
CREATE INDEX analytics_exceptions_day ON analytics_exceptions (business_id, day, at, id);
