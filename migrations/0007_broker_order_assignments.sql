-- Platform-level module availability (a module a business may turn on only once the platform
-- offers it), and broker order assignments: one order handed exclusively to one contractor.

CREATE TABLE platform_modules (
  module     text PRIMARY KEY,
  available  boolean NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE broker_order_assignments (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id           bigint NOT NULL REFERENCES businesses (id),
  order_id              bigint NOT NULL REFERENCES orders (id),
  broker_user_id        bigint NOT NULL REFERENCES users (id),
  status                text NOT NULL CHECK (status IN ('active', 'revoked', 'released')),
  note                  text CHECK (length(note) <= 500),
  assigned_by           bigint REFERENCES users (id),
  assigned_at           timestamptz NOT NULL,
  ended_by              bigint REFERENCES users (id),
  ended_at              timestamptz,
  end_reason            text CHECK (length(end_reason) <= 255),
  CHECK ((status = 'active') = (ended_at IS NULL))
);
-- The guarantee behind "one contractor at a time": at most one active assignment per order.
CREATE UNIQUE INDEX broker_order_assignments_one_active ON broker_order_assignments (order_id)
  WHERE status = 'active';
CREATE INDEX broker_order_assignments_business ON broker_order_assignments (business_id, id DESC);
CREATE INDEX broker_order_assignments_broker ON broker_order_assignments (broker_user_id, id DESC);
