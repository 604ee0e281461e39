-- Dispatch: depots, drivers' working profiles with skills, and routes (one driver's ordered
-- stops for a date).

CREATE TABLE depots (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  lat         double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng         double precision NOT NULL CHECK (lng BETWEEN -180 AND 180)
);
CREATE INDEX depots_business ON depots (business_id);

CREATE TABLE driver_profiles (
  user_id              bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  depot_id             bigint REFERENCES depots (id),
  vehicle_type         text NOT NULL DEFAULT 'van',
  capacity_weight_grams integer NOT NULL CHECK (capacity_weight_grams > 0),
  capacity_volume_cm3  integer NOT NULL CHECK (capacity_volume_cm3 > 0),
  capacity_count       integer NOT NULL CHECK (capacity_count > 0),
  shift_start          time NOT NULL,
  shift_end            time NOT NULL CHECK (shift_start < shift_end),
  skills               text[] NOT NULL DEFAULT '{}',
  available            boolean NOT NULL DEFAULT true
);
CREATE INDEX driver_profiles_business ON driver_profiles (business_id);

CREATE TABLE routes (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  driver_user_id  bigint NOT NULL REFERENCES users (id),
  route_date      date NOT NULL,
  distance_meters integer NOT NULL,
  departure       time NOT NULL,
  return_time     time NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX routes_business_date ON routes (business_id, route_date);
CREATE INDEX routes_driver_date ON routes (driver_user_id, route_date);

CREATE TABLE route_stops (
  route_id        bigint NOT NULL REFERENCES routes (id) ON DELETE CASCADE,
  sequence        integer NOT NULL,
  order_id        bigint NOT NULL REFERENCES orders (id),
  planned_arrival time NOT NULL,
  planned_departure time NOT NULL,
  PRIMARY KEY (route_id, sequence)
);
CREATE INDEX route_stops_order ON route_stops (order_id);

ALTER TABLE orders ADD CONSTRAINT orders_route FOREIGN KEY (route_id) REFERENCES routes (id);
