-- Label reading (docs/ocr.md): orders created from a read label, with the carrier tracking numbers
-- the label carried, so reading the same label again finds the order.

CREATE TABLE label_orders (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  order_id         bigint NOT NULL REFERENCES orders (id),
  -- Normalised (upper case, no spaces), as the reader gives them.
  tracking_numbers text[] NOT NULL,
  -- The creator's own id of the call: the same one again answers the first order.
  client_id        text,
  created_by       bigint NOT NULL,
  created_at       timestamptz NOT NULL,
  UNIQUE (business_id, client_id)
);

CREATE INDEX label_orders_tracking_numbers ON label_orders USING gin (tracking_numbers);
CREATE INDEX label_orders_business ON label_orders (business_id, order_id);
