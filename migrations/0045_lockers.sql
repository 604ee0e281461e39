-- Lockers and devices (docs/lockers.md): sites of an operator business, their devices (lockers,
-- kiosks, smart drops) with compartments, the bookings that hold a compartment for one purpose,
-- the commands sent to devices, the quotas an operator sells to other businesses, luggage relays,
-- and the append-only ledger of every handling.

CREATE TABLE locker_sites (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  name            text NOT NULL,
  address         jsonb NOT NULL,
  lat             double precision,
  lng             double precision,
  -- OpenStreetMap opening_hours syntax ("Mo-Fr 07:00-21:00; Sa 08:00-14:00"), as shown to people.
  opening_hours   text,
  -- How long a deposited parcel waits for its recipient before it goes back.
  hold_hours      integer NOT NULL DEFAULT 72 CHECK (hold_hours BETWEEN 1 AND 720),
  -- What sending a parcel from this site costs a customer (device orders), when it sells sends.
  send_price_minor bigint CHECK (send_price_minor >= 0),
  currency        text CHECK (currency ~ '^[A-Z]{3}$'),
  created_at      timestamptz NOT NULL
);
CREATE INDEX locker_sites_business ON locker_sites (business_id, id);

-- A device and its own credential (stored as a SHA-256 hash). It is online while it heartbeats.
CREATE TABLE locker_devices (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  site_id          bigint NOT NULL REFERENCES locker_sites (id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('locker', 'kiosk', 'smart_drop')),
  name             text NOT NULL,
  credential_hash  text NOT NULL,
  firmware         text,
  last_seen_at     timestamptz,
  disconnected_at  timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX locker_devices_site ON locker_devices (site_id, id);

CREATE TABLE locker_compartments (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  device_id        bigint NOT NULL REFERENCES locker_devices (id) ON DELETE CASCADE,
  site_id          bigint NOT NULL REFERENCES locker_sites (id) ON DELETE CASCADE,
  number           integer NOT NULL CHECK (number BETWEEN 1 AND 999),
  size_class       text NOT NULL CHECK (size_class IN ('S', 'M', 'L', 'XL')),
  length_mm        integer NOT NULL CHECK (length_mm > 0),
  width_mm         integer NOT NULL CHECK (width_mm > 0),
  height_mm        integer NOT NULL CHECK (height_mm > 0),
  state            text NOT NULL DEFAULT 'free' CHECK (state IN ('free', 'reserved', 'occupied', 'out_of_order')),
  -- The booking holding it, while reserved or occupied.
  booking_id       bigint,
  UNIQUE (device_id, number)
);
CREATE INDEX locker_compartments_site ON locker_compartments (site_id, size_class, state);

-- A compartment held for one purpose: a delivery to the recipient, a parcel sent from the locker,
-- a handover between two people, one hop of a luggage relay, or a paid storage period.
-- business_id is whose booking it is: the operator's own, or a tenant's (locker resale).
CREATE TABLE locker_bookings (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id           bigint NOT NULL REFERENCES businesses (id),
  operator_business_id  bigint NOT NULL REFERENCES businesses (id),
  -- Random, given with a code at the locker: booking ids can be counted, references cannot.
  reference             text NOT NULL UNIQUE,
  site_id               bigint NOT NULL REFERENCES locker_sites (id),
  device_id             bigint NOT NULL REFERENCES locker_devices (id),
  compartment_id        bigint NOT NULL REFERENCES locker_compartments (id),
  purpose               text NOT NULL CHECK (purpose IN ('delivery', 'send', 'handover', 'luggage', 'storage')),
  order_id              bigint REFERENCES orders (id) ON DELETE SET NULL,
  relay_id              bigint,
  hop                   integer,
  -- reserved: waiting for the deposit; occupied: waiting for the pickup; collected, expired
  -- (not collected in time: back to the sender), retrieved (taken back by staff), cancelled.
  state                 text NOT NULL CHECK (state IN ('reserved', 'occupied', 'collected', 'expired', 'retrieved', 'cancelled')),
  -- What the pending open command is for, while one is out: deposit, pickup or retrieval.
  opening               text CHECK (opening IN ('deposit', 'pickup', 'retrieval')),
  opening_command_id    uuid,
  -- Codes as salt$HMAC-SHA-256: a code is shown once, when it is made, and never stored.
  drop_code_hash        text,
  pickup_code_hash      text,
  pickup_expires_at     timestamptz,
  failed_attempts       integer NOT NULL DEFAULT 0,
  locked_at             timestamptz,
  -- Who may collect, when the booking names a person (a handover's receiver).
  recipient_user_id     bigint REFERENCES users (id) ON DELETE SET NULL,
  recipient_name        text,
  paid_until            timestamptz,
  created_by            bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at            timestamptz NOT NULL,
  deposited_at          timestamptz,
  finished_at           timestamptz
);
CREATE INDEX locker_bookings_business ON locker_bookings (business_id, id);
CREATE INDEX locker_bookings_site ON locker_bookings (site_id, state);
CREATE INDEX locker_bookings_order ON locker_bookings (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX locker_bookings_due ON locker_bookings (pickup_expires_at) WHERE state = 'occupied';

-- A command to a device: carried out at most once, never after expires_at; an answer after
-- that, or none, leaves it failed.
CREATE TABLE locker_commands (
  id              uuid PRIMARY KEY,
  -- The order commands were issued in (several may share a millisecond).
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  device_id       bigint NOT NULL REFERENCES locker_devices (id) ON DELETE CASCADE,
  compartment_id  bigint REFERENCES locker_compartments (id) ON DELETE CASCADE,
  booking_id      bigint REFERENCES locker_bookings (id),
  action          text NOT NULL CHECK (action IN ('open', 'reboot')),
  status          text NOT NULL CHECK (status IN ('pending', 'acked', 'failed')),
  error           text,
  issued_at       timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  answered_at     timestamptz
);
CREATE INDEX locker_commands_device ON locker_commands (device_id, issued_at);

-- Locker resale: compartments of an operator's site offered to a tenant business.
CREATE TABLE locker_quotas (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id         bigint NOT NULL REFERENCES businesses (id),
  site_id             bigint NOT NULL REFERENCES locker_sites (id) ON DELETE CASCADE,
  tenant_business_id  bigint NOT NULL REFERENCES businesses (id),
  size_class          text NOT NULL CHECK (size_class IN ('S', 'M', 'L', 'XL')),
  compartments        integer NOT NULL CHECK (compartments BETWEEN 1 AND 10000),
  price_minor         bigint NOT NULL CHECK (price_minor >= 0),
  currency            text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  period              text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  starts_on           date NOT NULL,
  ends_on             date,
  created_at          timestamptz NOT NULL,
  UNIQUE (site_id, tenant_business_id, size_class),
  CHECK (tenant_business_id <> business_id),
  CHECK (ends_on IS NULL OR ends_on >= starts_on)
);
CREATE INDEX locker_quotas_tenant ON locker_quotas (tenant_business_id, site_id);

-- A bag relayed between sites in hops, each hop a booking (luggage).
CREATE TABLE luggage_relays (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  bag_tag      text NOT NULL,
  owner_name   text,
  site_ids     bigint[] NOT NULL,
  created_by   bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL,
  UNIQUE (business_id, bag_tag)
);

-- Every deposit, pickup, handover, door event and command, as it happened. Rows are written and
-- never changed: the triggers below refuse UPDATE, DELETE and TRUNCATE from any role.
CREATE TABLE locker_ledger (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id         bigint NOT NULL REFERENCES businesses (id),
  tenant_business_id  bigint REFERENCES businesses (id),
  site_id             bigint NOT NULL,
  device_id           bigint,
  compartment_id      bigint,
  booking_id          bigint,
  order_id            bigint,
  relay_id            bigint,
  command_id          uuid,
  kind                text NOT NULL,
  actor_kind          text NOT NULL CHECK (actor_kind IN ('driver', 'customer', 'staff', 'device', 'recipient', 'system')),
  actor_user_id       bigint,
  -- Which code opened it, as a reference to its hash: never the code.
  code_ref            text,
  details             jsonb NOT NULL DEFAULT '{}',
  at                  timestamptz NOT NULL
);
CREATE INDEX locker_ledger_site ON locker_ledger (site_id, id);
CREATE INDEX locker_ledger_compartment ON locker_ledger (compartment_id, id);
CREATE INDEX locker_ledger_booking ON locker_ledger (booking_id, id);
CREATE INDEX locker_ledger_order ON locker_ledger (order_id, id) WHERE order_id IS NOT NULL;
CREATE INDEX locker_ledger_tenant ON locker_ledger (tenant_business_id, id) WHERE tenant_business_id IS NOT NULL;

CREATE FUNCTION locker_ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the locker ledger is append-only: % is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER locker_ledger_no_update BEFORE UPDATE OR DELETE ON locker_ledger
  FOR EACH ROW EXECUTE FUNCTION locker_ledger_is_append_only();
CREATE TRIGGER locker_ledger_no_truncate BEFORE TRUNCATE ON locker_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION locker_ledger_is_append_only();
