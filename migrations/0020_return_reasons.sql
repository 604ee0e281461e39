-- A business's reasons for returning an order (refused, damaged, ...), with their labels in each
-- language and whether the return needs a photo; an order returned names one of them.
CREATE TABLE return_reasons (
  business_id    bigint NOT NULL REFERENCES businesses (id),
  code           text NOT NULL,
  labels         jsonb NOT NULL,
  photo_required boolean NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (business_id, code)
);
