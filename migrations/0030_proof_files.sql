-- Proofs of delivery: the signature and photos uploaded for an order (by its driver or by staff).
-- The bytes live in the file storage (the data directory or an S3-compatible bucket) under
-- storage_key; the order is referred to by id only (the orders module owns it).
CREATE TABLE proof_files (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  order_id     bigint NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('signature', 'photo')),
  storage_key  text NOT NULL UNIQUE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  size_bytes   integer NOT NULL CHECK (size_bytes > 0),
  sha256       text NOT NULL,
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  uploaded_by  bigint NOT NULL REFERENCES users (id),
  client_id    text,
  created_at   timestamptz NOT NULL,
  -- An upload sent again with the same client_id is the same upload (NULLs never collide).
  UNIQUE (uploaded_by, client_id)
);

CREATE INDEX proof_files_order ON proof_files (business_id, order_id);
