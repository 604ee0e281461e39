-- Shipping: the carriers of each business (built-in ones priced by a rate card) and the labels
-- bought from them, one per package, with the PDF as issued.

CREATE TABLE shipping_carriers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  code        text NOT NULL CHECK (code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- Which adapter reaches the carrier: 'rate_card' for the built-in one.
  kind        text NOT NULL,
  -- The rate card of a 'rate_card' carrier, as validated by the shipping module.
  rate_card   jsonb,
  -- Bumped on every change, so a rate quoted from an older card is recognised (rate_id).
  version     integer NOT NULL DEFAULT 1,
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  UNIQUE (business_id, code),
  CHECK (kind <> 'rate_card' OR rate_card IS NOT NULL)
);

CREATE TABLE shipping_labels (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id           bigint NOT NULL REFERENCES businesses (id),
  order_id              bigint NOT NULL REFERENCES orders (id),
  package_id            bigint NOT NULL REFERENCES packages (id),
  tracking_number       text NOT NULL UNIQUE,
  carrier_id            bigint NOT NULL REFERENCES shipping_carriers (id),
  -- Carrier and service as named when the label was bought.
  carrier_code          text NOT NULL,
  carrier_name          text NOT NULL,
  service_code          text NOT NULL,
  service_name          text NOT NULL,
  carrier_reference     text NOT NULL,
  rate_id               text NOT NULL,
  zone                  text NOT NULL,
  transit_days          integer NOT NULL,
  billable_weight_grams integer NOT NULL,
  -- This package's price, in minor units of the currency.
  currency              char(3) NOT NULL,
  price_minor           bigint NOT NULL,
  surcharges            jsonb NOT NULL,
  tax_minor             bigint NOT NULL,
  total_minor           bigint NOT NULL,
  pdf                   bytea NOT NULL,
  -- The issued document (documents module) and its SHA-256, hex.
  document_id           text,
  document_sha256       text NOT NULL,
  created_at            timestamptz NOT NULL
);
CREATE INDEX shipping_labels_business ON shipping_labels (business_id, id);
