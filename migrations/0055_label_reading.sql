-- Label reading (docs/ocr.md): orders created from a read label, with the carrier tracking numbers
-- the label carried, so reading the same label again finds the order; each business's choice of
-- keeping label images, and the images kept.

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

-- Absent row: label images are never kept.
CREATE TABLE label_reading_settings (
  business_id            bigint PRIMARY KEY REFERENCES businesses (id),
  keep_label_images_days integer NOT NULL CHECK (keep_label_images_days BETWEEN 0 AND 365),
  updated_at             timestamptz NOT NULL
);

-- A label image kept with the order made from it, until `expires_at` (an outbox message removes it).
CREATE TABLE label_images (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  order_id     bigint NOT NULL REFERENCES orders (id),
  storage_key  text NOT NULL UNIQUE,
  content_type text NOT NULL,
  size_bytes   integer NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);

CREATE INDEX label_images_business ON label_images (business_id, order_id);
