-- Documents: the fingerprint of every PDF the service issues (labels, ...), signed by a server
-- key, so anyone holding a PDF can ask whether we issued it and whether it is intact.

-- The public half of every key that signed a fingerprint, so a record keeps verifying after the
-- key is rotated (or when several processes each keep a key of their own).
CREATE TABLE document_signing_keys (
  key_id        text PRIMARY KEY,
  public_key    text NOT NULL,
  first_used_at timestamptz NOT NULL
);

CREATE TABLE documents (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  kind        text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_-]{0,31}$'),
  -- What the document is about, as printed on it (a tracking number for a label).
  reference   text NOT NULL CHECK (length(reference) BETWEEN 1 AND 200),
  sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  issued_at   timestamptz NOT NULL,
  key_id      text NOT NULL REFERENCES document_signing_keys (key_id),
  -- Ed25519 over 'tms-document:v1:<sha256>:<kind>:<issued_at ISO 8601, ms, Z>:<reference>'.
  signature   bytea NOT NULL
);
-- The same bytes issued again for the same business, kind and reference are the same document
-- (a label rendered again): one record. Also the index verification looks the SHA-256 up in.
CREATE UNIQUE INDEX documents_fingerprint ON documents (sha256, business_id, kind, reference);
CREATE INDEX documents_business ON documents (business_id, issued_at);
