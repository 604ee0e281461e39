-- The approvals page's own sign-in sessions: a person signs in there with email and password, and
-- the browser holds only an opaque session id (stored here as its SHA-256 digest). The login token
-- that sign-in issued stays on the server and is what the page's calls run as; agent tokens and
-- bearer tokens never open the page. A session ends when idle too long, at its absolute expiry,
-- at sign-out, or with its login token.
CREATE TABLE approval_page_sessions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_hash bytea NOT NULL UNIQUE,
  user_id      bigint NOT NULL REFERENCES users (id),
  token_id     bigint NOT NULL,
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX approval_page_sessions_expiry ON approval_page_sessions (expires_at);
