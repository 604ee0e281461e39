-- Online payment of orders (labels are label-service orders) through a payment provider, and the
-- credit ledger of customer accounts.

CREATE TABLE payments (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id        bigint NOT NULL REFERENCES businesses (id),
  order_id           bigint NOT NULL REFERENCES orders (id),
  payer_user_id      bigint NOT NULL REFERENCES users (id),
  amount_minor       bigint NOT NULL CHECK (amount_minor >= 0),
  currency           char(3) NOT NULL,
  method             text NOT NULL CHECK (method IN ('card', 'credits')),
  provider           text NOT NULL,
  provider_reference text NOT NULL,
  status             text NOT NULL CHECK (status IN ('succeeded', 'declined')),
  created_at         timestamptz NOT NULL
);
-- An order is paid once.
CREATE UNIQUE INDEX payments_paid_once ON payments (order_id) WHERE status = 'succeeded';
CREATE INDEX payments_business ON payments (business_id, id DESC);

CREATE TABLE credit_ledger (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  customer_user_id bigint NOT NULL REFERENCES users (id),
  -- Positive: credit added; negative: spent.
  amount_minor     bigint NOT NULL CHECK (amount_minor <> 0),
  currency         char(3) NOT NULL,
  reason           text NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
  payment_id       bigint REFERENCES payments (id),
  created_at       timestamptz NOT NULL
);
CREATE INDEX credit_ledger_customer ON credit_ledger (business_id, customer_user_id, id);
