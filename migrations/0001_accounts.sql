-- Accounts and tenancy: businesses (the clients of the service), their module switches,
-- contractor companies that work for businesses, users of every account kind, and access tokens.

CREATE TABLE businesses (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code        text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9_-]{1,62}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  time_zone   text NOT NULL DEFAULT 'UTC',
  created_at  timestamptz NOT NULL
);

-- A module is off for a business until a row turns it on.
CREATE TABLE business_modules (
  business_id bigint NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  module      text NOT NULL,
  enabled     boolean NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (business_id, module)
);

CREATE TABLE contractor_companies (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL
);

-- Which businesses a contractor company works for.
CREATE TABLE contractor_engagements (
  contractor_company_id bigint NOT NULL REFERENCES contractor_companies (id) ON DELETE CASCADE,
  business_id           bigint NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  created_at            timestamptz NOT NULL,
  PRIMARY KEY (contractor_company_id, business_id)
);
CREATE INDEX contractor_engagements_business ON contractor_engagements (business_id);

CREATE TABLE users (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind                  text NOT NULL
                        CHECK (kind IN ('platform_admin', 'client_admin', 'employee', 'contractor', 'customer', 'driver')),
  business_id           bigint REFERENCES businesses (id),
  contractor_company_id bigint REFERENCES contractor_companies (id),
  email                 text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  password_hash         text,
  disabled              boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL,
  -- Platform admins belong to no business; contractors to a company; everyone else to one business.
  CHECK (
    (kind = 'platform_admin' AND business_id IS NULL AND contractor_company_id IS NULL) OR
    (kind = 'contractor' AND business_id IS NULL AND contractor_company_id IS NOT NULL) OR
    (kind NOT IN ('platform_admin', 'contractor') AND business_id IS NOT NULL AND contractor_company_id IS NULL)
  )
);
CREATE UNIQUE INDEX users_email ON users (email);
CREATE INDEX users_business ON users (business_id);

-- Opaque bearer tokens, stored as SHA-256 digests only.
CREATE TABLE access_tokens (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE,
  kind        text NOT NULL CHECK (kind IN ('login', 'personal', 'agent')),
  name        text,
  profile     text,
  scopes      text[],
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX access_tokens_user ON access_tokens (user_id);
