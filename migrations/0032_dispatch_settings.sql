-- How a business plans its routes: how long a van needs before it can leave (planning today
-- starts no route earlier than now plus this), and how straight lines stand in for roads when no
-- routing engine answers (road distance over straight-line distance, and the average speed).
CREATE TABLE dispatch_settings (
  business_id         bigint PRIMARY KEY REFERENCES businesses (id),
  preparation_minutes integer NOT NULL DEFAULT 30 CHECK (preparation_minutes BETWEEN 0 AND 720),
  circuity_factor     double precision NOT NULL DEFAULT 1.3 CHECK (circuity_factor BETWEEN 1 AND 3),
  average_speed_kmh   double precision NOT NULL DEFAULT 30 CHECK (average_speed_kmh BETWEEN 1 AND 150),
  updated_at          timestamptz NOT NULL
);
