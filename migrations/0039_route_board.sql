-- The driver route board (docs/route-board.md): routes a business publishes to a fleet's board
-- for drivers to claim, first come first served; their standby queues, the board's history and
-- the business's withdrawal cutoff.

-- A route on a fleet's board, with what the board shows of it as published (its window in the
-- business's local time, distance, stops and the area its stops cover, rounded outwards to
-- 0.01 degree) and where pulling it back returns it (the driver it was built for, its lock).
-- Who holds it is the route's own driver (null while it is open).
CREATE TABLE route_board_entries (
  route_id          bigint PRIMARY KEY REFERENCES routes (id) ON DELETE CASCADE,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  fleet_id          bigint NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
  board_date        date NOT NULL,
  window_start      time NOT NULL,
  window_end        time NOT NULL,
  distance_meters   integer NOT NULL,
  stops             integer NOT NULL,
  area_south        double precision,
  area_west         double precision,
  area_north        double precision,
  area_east         double precision,
  pay_minor         bigint CHECK (pay_minor >= 0),
  pay_currency      text CHECK (pay_currency ~ '^[A-Z]{3}$'),
  built_for_user_id bigint NOT NULL REFERENCES users (id),
  was_locked        boolean NOT NULL,
  published_by      bigint NOT NULL REFERENCES users (id),
  published_at      timestamptz NOT NULL,
  CHECK ((pay_minor IS NULL) = (pay_currency IS NULL))
);
CREATE INDEX route_board_entries_board ON route_board_entries (fleet_id, board_date);

-- Drivers waiting for a claimed route, in the order they joined (id breaks a tie of instants).
CREATE TABLE route_board_standby (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  route_id       bigint NOT NULL REFERENCES route_board_entries (route_id) ON DELETE CASCADE,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  driver_user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at      timestamptz NOT NULL,
  UNIQUE (route_id, driver_user_id)
);
CREATE INDEX route_board_standby_driver ON route_board_standby (business_id, driver_user_id);

-- Everything that happened to a route on a board; it outlives the route's stay there.
CREATE TABLE route_board_history (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  route_id       bigint NOT NULL REFERENCES routes (id) ON DELETE CASCADE,
  fleet_id       bigint NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
  action         text NOT NULL CHECK (action IN ('published', 'claimed', 'standby_joined', 'standby_left',
                   'standby_dropped', 'withdrawn', 'promoted', 'reopened', 'pulled_back', 'reassigned',
                   'queue_cleared')),
  driver_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_user_id  bigint REFERENCES users (id) ON DELETE SET NULL,
  details        jsonb NOT NULL DEFAULT '{}',
  at             timestamptz NOT NULL
);
CREATE INDEX route_board_history_route ON route_board_history (route_id, id);

-- How long before a route's departure its claimant may still withdraw alone (default 120 minutes).
CREATE TABLE route_board_settings (
  business_id               bigint PRIMARY KEY REFERENCES businesses (id),
  withdrawal_cutoff_minutes integer NOT NULL CHECK (withdrawal_cutoff_minutes BETWEEN 0 AND 1440),
  updated_at                timestamptz NOT NULL
);
