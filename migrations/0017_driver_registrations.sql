-- Drivers who sign themselves up for a business. The account is made at once, switched off, and
-- this row says where its application stands until an admin of the business decides.
CREATE TABLE driver_registrations (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id   bigint NOT NULL REFERENCES businesses (id),
  user_id       bigint NOT NULL UNIQUE REFERENCES users (id),
  phone         text CHECK (length(phone) <= 40),
  vehicle_type  text CHECK (vehicle_type IN ('bicycle', 'cargo_bike', 'scooter', 'car', 'van', 'truck')),
  status        text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  created_at    timestamptz NOT NULL,
  decided_by    bigint REFERENCES users (id),
  decided_at    timestamptz,
  reason        text CHECK (length(reason) <= 500),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);

CREATE INDEX driver_registrations_queue ON driver_registrations (business_id, status, id DESC);
