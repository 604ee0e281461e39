-- Reservations (docs/reservations.md): bookable resources of a business with recurring
-- availability, one capacity row per slot that bookings take places from, the bookings of people
-- without an account (with their waitlist), and the key that signs their links.

CREATE TABLE reservation_resources (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  name            text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('pickup_counter', 'moving_crew', 'delivery_slot', 'other')),
  -- The slots' start times as an RRULE (RFC 5545) read on the business's wall clock from starts_on.
  rrule           text NOT NULL,
  starts_on       date NOT NULL,
  time_zone       text NOT NULL,
  slot_minutes    integer NOT NULL CHECK (slot_minutes BETWEEN 5 AND 1440),
  capacity        integer NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
  -- How long a person promoted from the waitlist has to accept before the next is offered.
  offer_minutes   integer NOT NULL CHECK (offer_minutes BETWEEN 5 AND 10080),
  waitlist        boolean NOT NULL DEFAULT true,
  published       boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL
);
CREATE INDEX reservation_resources_business ON reservation_resources (business_id, id);

-- One row per slot that was ever booked: the row every booking of the slot locks, so two bookers
-- never both take its last place; the CHECK says the same once more.
CREATE TABLE reservation_slots (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  resource_id     bigint NOT NULL REFERENCES reservation_resources (id) ON DELETE CASCADE,
  starts_at       timestamptz NOT NULL,
  capacity        integer NOT NULL,
  taken           integer NOT NULL DEFAULT 0,
  CHECK (taken BETWEEN 0 AND capacity),
  UNIQUE (resource_id, starts_at)
);

CREATE TABLE reservation_bookings (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  resource_id       bigint NOT NULL REFERENCES reservation_resources (id) ON DELETE CASCADE,
  slot_id           bigint NOT NULL REFERENCES reservation_slots (id),
  -- The public handle of a booking (its links and its page), random: ids are not guessable names.
  reference         text NOT NULL UNIQUE,
  state             text NOT NULL CHECK (state IN ('held', 'confirmed', 'waitlisted', 'offered', 'cancelled', 'attended', 'lapsed')),
  name              text NOT NULL,
  contact           text NOT NULL,
  contact_kind      text NOT NULL CHECK (contact_kind IN ('email', 'phone')),
  contact_confirmed boolean NOT NULL DEFAULT false,
  code_hash         text,
  code_expires_at   timestamptz,
  code_attempts     integer NOT NULL DEFAULT 0,
  offer_expires_at  timestamptz,
  created_at        timestamptz NOT NULL,
  confirmed_at      timestamptz,
  ended_at          timestamptz
);
CREATE INDEX reservation_bookings_business ON reservation_bookings (business_id, id);
CREATE INDEX reservation_bookings_waiting ON reservation_bookings (slot_id, id) WHERE state = 'waitlisted';

-- The HMAC key of the bookings' cancel, change and accept links: one, made here from
-- gen_random_uuid (a strong random source built into PostgreSQL 13+), read by every instance.
CREATE TABLE reservation_link_keys (
  id              integer PRIMARY KEY CHECK (id = 1),
  secret          bytea NOT NULL
);
INSERT INTO reservation_link_keys (id, secret)
VALUES (1, decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'));
