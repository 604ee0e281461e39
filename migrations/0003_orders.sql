-- Orders of every family, their packages (one tracking number each), the per-business order
-- settings, and the audit trail of every change to an order.

CREATE TABLE order_settings (
  business_id     bigint PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  tracking_prefix text NOT NULL CHECK (tracking_prefix ~ '^[A-Z0-9]{2,8}$')
);

CREATE TABLE orders (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  order_ref            text NOT NULL CHECK (length(order_ref) BETWEEN 1 AND 64),
  family               text NOT NULL CHECK (family IN ('local_delivery', 'label_service', 'shipping_service',
                         'ltl_service', 'storage_service', 'moving_service', 'device_order')),
  type                 text CHECK (type IN ('D', 'P', 'P2P')),
  status               text NOT NULL,
  scheduled_date       date,
  window_start         time,
  window_end           time,
  pickup               jsonb,
  dropoff              jsonb,
  customer_user_id     bigint REFERENCES users (id),
  note                 text,
  delivery_instruction text,
  -- Skills the driver must have (refrigerated, heavy, ...): route building honours them.
  required_skills      text[] NOT NULL DEFAULT '{}',
  -- NULL: the business delivers itself; otherwise the third-party carrier holding the order.
  carrier              text,
  currency             char(3),
  shipping_price_minor bigint,
  tax_minor            bigint,
  surcharges           jsonb,
  price_details        jsonb,
  rerouted_from        bigint REFERENCES orders (id),
  -- The route the order is planned on (set by dispatch through the orders service).
  route_id             bigint,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  UNIQUE (business_id, order_ref),
  CHECK ((family = 'local_delivery') = (type IS NOT NULL)),
  CHECK (window_start IS NULL OR window_end IS NULL OR window_start < window_end)
);
CREATE INDEX orders_business_status ON orders (business_id, status);
CREATE INDEX orders_business_date ON orders (business_id, scheduled_date);
CREATE INDEX orders_route ON orders (route_id) WHERE route_id IS NOT NULL;

CREATE TABLE packages (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  order_id        bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  tracking_number text NOT NULL UNIQUE,
  weight_grams    integer CHECK (weight_grams >= 0),
  length_mm       integer CHECK (length_mm >= 0),
  width_mm        integer CHECK (width_mm >= 0),
  height_mm       integer CHECK (height_mm >= 0),
  description     text
);
CREATE INDEX packages_order ON packages (order_id);

-- The audit trail: who changed what on an order, when, and through which door.
CREATE TABLE order_events (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id   bigint NOT NULL REFERENCES businesses (id),
  order_id      bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  at            timestamptz NOT NULL,
  actor_user_id bigint REFERENCES users (id),
  source        text NOT NULL,
  action        text NOT NULL,
  changes       jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX order_events_order ON order_events (order_id, id);
