-- Price hiding: a business may hide its prices from one customer account, per order family.

CREATE TABLE price_visibility (
  business_id      bigint NOT NULL REFERENCES businesses (id),
  customer_user_id bigint NOT NULL REFERENCES users (id),
  family           text NOT NULL,
  hidden           boolean NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (business_id, customer_user_id, family)
);
