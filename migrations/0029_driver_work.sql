-- The driver's working day: each driver write is kept with its first answer, keyed by the driver
-- and the id the phone gave it, so a replay answers the same and changes nothing; and the
-- positions a driver's phone reports along a route, for the dispatch board.
CREATE TABLE driver_writes (
  driver_user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id      text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 64),
  business_id    bigint NOT NULL REFERENCES businesses (id),
  operation      text NOT NULL,
  route_id       bigint NOT NULL,
  order_id       bigint,
  leg            text CHECK (leg IN ('pickup', 'delivery')),
  -- json, not jsonb: a replay answers the first answer as it was written.
  answer         json,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (driver_user_id, client_id)
);
CREATE INDEX driver_writes_business ON driver_writes (business_id, created_at);

CREATE TABLE driver_positions (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  driver_user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  route_id       bigint NOT NULL REFERENCES routes (id) ON DELETE CASCADE,
  -- The order whose stop was completed there, for the position a completion reports.
  order_id       bigint,
  lat            double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng            double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  accuracy_meters double precision CHECK (accuracy_meters >= 0),
  device_time    timestamptz NOT NULL,
  received_at    timestamptz NOT NULL
);
CREATE INDEX driver_positions_route ON driver_positions (route_id, device_time);
CREATE INDEX driver_positions_driver ON driver_positions (business_id, driver_user_id, device_time);
