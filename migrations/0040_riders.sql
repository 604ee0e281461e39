-- Instant riders: drivers a business granted instant delivery, their online state and last known
-- position, and the instant orders offered to them (each order's dispatch state and its offers).

-- A rider: a driver granted instant delivery (the grant is the row). The last kept ping is its
-- last known position: `position_at` the phone's time (pings closer than 1 s to it are dropped),
-- `position_received_at` the server's (how fresh it is). `idle_since` is when it last became free
-- to take an order: ties in distance go to whoever has waited longest.
CREATE TABLE riders (
  driver_user_id        bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  business_id           bigint NOT NULL REFERENCES businesses (id),
  granted_at            timestamptz NOT NULL,
  online                boolean NOT NULL DEFAULT false,
  online_since          timestamptz,
  idle_since            timestamptz,
  lat                   double precision,
  lng                   double precision,
  accuracy_meters       real,
  position_at           timestamptz,
  position_received_at  timestamptz,
  -- The instant order it accepted and has not finished yet: no other offer until then.
  busy_order_id         bigint REFERENCES orders (id) ON DELETE SET NULL,
  CHECK ((lat IS NULL) = (position_at IS NULL))
);
CREATE INDEX riders_online ON riders (business_id) WHERE online;
CREATE INDEX riders_busy ON riders (busy_order_id) WHERE busy_order_id IS NOT NULL;

-- How a business offers its instant orders: riders per wave, seconds each offer stays open.
CREATE TABLE rider_settings (
  business_id    bigint PRIMARY KEY REFERENCES businesses (id),
  wave_size      integer NOT NULL CHECK (wave_size BETWEEN 1 AND 50),
  offer_seconds  integer NOT NULL CHECK (offer_seconds BETWEEN 5 AND 600),
  updated_at     timestamptz NOT NULL
);

-- An instant order's dispatch: offering (a wave of offers open), accepted (by `rider_user_id`,
-- on its one-order route), exhausted (nobody left: the order stays in the ordinary pool) or
-- withdrawn (the order left the pool otherwise: planned, held, cancelled). `origin` is where a
-- rider must go first, the point riders are ranked from.
CREATE TABLE instant_dispatches (
  order_id       bigint PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  state          text NOT NULL CHECK (state IN ('offering', 'accepted', 'exhausted', 'withdrawn')),
  origin_lat     double precision,
  origin_lng     double precision,
  wave           integer NOT NULL DEFAULT 0,
  rider_user_id  bigint REFERENCES users (id),
  route_id       bigint,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX instant_dispatches_business ON instant_dispatches (business_id, created_at);

-- One offer of an instant order to one rider, in a wave; a rider is offered an order once.
CREATE TABLE instant_offers (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  order_id         bigint NOT NULL REFERENCES instant_dispatches (order_id) ON DELETE CASCADE,
  driver_user_id   bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  wave             integer NOT NULL,
  state            text NOT NULL DEFAULT 'open'
                   CHECK (state IN ('open', 'accepted', 'declined', 'expired', 'taken', 'withdrawn')),
  distance_meters  integer NOT NULL,
  offered_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  answered_at      timestamptz,
  UNIQUE (order_id, driver_user_id)
);
CREATE INDEX instant_offers_open ON instant_offers (driver_user_id) WHERE state = 'open';
