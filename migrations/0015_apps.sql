-- Platform apps: standalone (mobile) apps assigned to businesses (clients), the public
-- configuration they bootstrap from, and native sign-in with identity-provider ID tokens.

-- Identity providers the platform trusts: Google and Apple presets, or any OpenID Connect issuer.
CREATE TABLE identity_providers (
  code        text PRIMARY KEY CHECK (code ~ '^[a-z][a-z0-9_-]{1,31}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- The `iss` its ID tokens carry; Google's come with or without the scheme (issuer_aliases).
  issuer      text NOT NULL,
  issuer_aliases text[] NOT NULL DEFAULT '{}',
  jwks_uri    text NOT NULL,
  preset      text CHECK (preset IN ('google', 'apple')),
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);

-- The one global binding of an outside identity (issuer + subject) to an account, whatever
-- app, client or door (native or web sign-in) it first came through.
CREATE TABLE identity_bindings (
  issuer        text NOT NULL,
  subject       text NOT NULL,
  user_id       bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_code text NOT NULL,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX identity_bindings_user ON identity_bindings (user_id);

CREATE TABLE apps (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code           text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9_-]{1,62}$'),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  type           text NOT NULL CHECK (type IN ('customer', 'driver', 'contractor', 'staff')),
  schema_version integer NOT NULL CHECK (schema_version >= 1),
  enabled        boolean NOT NULL,
  -- The account kinds that may sign in to this app.
  allowed_roles  text[] NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);

-- An app's configuration for one client; configuration_version grows with every change.
CREATE TABLE app_assignments (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_id                bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  business_id           bigint NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  enabled               boolean NOT NULL,
  configuration_version integer NOT NULL CHECK (configuration_version >= 1),
  -- display name, capabilities, authentication, registration, services, branding, version policy,
  -- quick actions: validated by the apps module on every write.
  config                jsonb NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  UNIQUE (app_id, business_id)
);
CREATE INDEX app_assignments_business ON app_assignments (business_id);

-- The devices an account signed in from, per app assignment.
CREATE TABLE app_devices (
  assignment_id bigint NOT NULL REFERENCES app_assignments (id) ON DELETE CASCADE,
  user_id       bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id     text NOT NULL CHECK (length(device_id) BETWEEN 1 AND 191),
  platform      text NOT NULL CHECK (platform IN ('ios', 'android')),
  app_version   text,
  first_seen_at timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  PRIMARY KEY (assignment_id, user_id, device_id)
);

-- App sessions are tokens of their own kind, bound to the one client the app was opened for.
ALTER TABLE access_tokens DROP CONSTRAINT access_tokens_kind_check;
ALTER TABLE access_tokens ADD CONSTRAINT access_tokens_kind_check
  CHECK (kind IN ('login', 'personal', 'agent', 'app'));
ALTER TABLE access_tokens ADD COLUMN business_scope_id bigint REFERENCES businesses (id) ON DELETE CASCADE;
