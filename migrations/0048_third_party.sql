-- Third-party delivery (docs/third-party.md): connections to delivery providers that hand orders to
-- the business's fleet, the provider orders they bring in (one row per provider order id, whichever
-- way it came: a pull or a push), and the status changes sent back to the provider in order.

CREATE TABLE third_party_connections (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id        bigint NOT NULL REFERENCES businesses (id),
  name               text NOT NULL,
  -- Which adapter speaks to the provider (docs/third-party.md): the generic JSON connector, or a
  -- provider's own registered by the composition root.
  adapter            text NOT NULL DEFAULT 'generic_json',
  base_url           text NOT NULL,
  -- The provider's credential, sealed with AES-256-GCM (the service must send it, so it cannot be
  -- hashed); only its last characters are ever shown.
  credential_sealed  text,
  credential_hint    text,
  -- What the provider presents when it pushes orders to us: a SHA-256 hash, the token is shown once.
  push_token_hash    text NOT NULL,
  mapping            jsonb NOT NULL,
  family             text NOT NULL,
  rules              jsonb,
  poll_seconds       integer NOT NULL CHECK (poll_seconds BETWEEN 5 AND 86400),
  active             boolean NOT NULL DEFAULT true,
  cursor             text,
  -- When the next pull is due; a pull in progress moves it ahead (a lease other instances respect).
  next_pull_at       timestamptz NOT NULL,
  failures           integer NOT NULL DEFAULT 0,
  last_error         text,
  last_error_at      timestamptz,
  last_success_at    timestamptz,
  created_at         timestamptz NOT NULL
);
CREATE INDEX third_party_connections_business ON third_party_connections (business_id, id);
CREATE INDEX third_party_connections_due ON third_party_connections (next_pull_at) WHERE active;

CREATE TABLE third_party_orders (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id        bigint NOT NULL REFERENCES businesses (id),
  connection_id      bigint NOT NULL REFERENCES third_party_connections (id) ON DELETE CASCADE,
  provider_order_id  text NOT NULL,
  state              text NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected', 'expired')),
  accept_by          timestamptz NOT NULL,
  -- The local order, once accepted.
  order_id           bigint,
  decided_by         text CHECK (decided_by IN ('rules', 'dispatcher', 'deadline')),
  decision_reason    text,
  mapped             jsonb NOT NULL,
  dropoff_lat        double precision,
  dropoff_lng        double precision,
  last_error         text,
  received_at        timestamptz NOT NULL,
  decided_at         timestamptz,
  -- A provider order pulled twice (or pulled and pushed) is one row.
  UNIQUE (connection_id, provider_order_id)
);
CREATE INDEX third_party_orders_business ON third_party_orders (business_id, id);
CREATE INDEX third_party_orders_pending ON third_party_orders (connection_id, accept_by) WHERE state = 'pending';
CREATE UNIQUE INDEX third_party_orders_local ON third_party_orders (order_id) WHERE order_id IS NOT NULL;

-- Each status change of an accepted order, numbered per order: the outbox sends number n only once
-- number n - 1 reached the provider.
CREATE TABLE third_party_status_pushes (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  third_party_order_id bigint NOT NULL REFERENCES third_party_orders (id) ON DELETE CASCADE,
  seq                  integer NOT NULL,
  status               text NOT NULL,
  at                   timestamptz NOT NULL,
  sent_at              timestamptz,
  attempts             integer NOT NULL DEFAULT 0,
  last_error           text,
  UNIQUE (third_party_order_id, seq)
);
