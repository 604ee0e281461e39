-- Plan edits: the business's vehicles, and the vehicle a route drives when it is not its driver's
-- own (null: the capacity of the driver's profile, as before).
CREATE TABLE vehicles (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id           bigint NOT NULL REFERENCES businesses (id),
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  vehicle_type          text NOT NULL DEFAULT 'van',
  capacity_weight_grams integer NOT NULL CHECK (capacity_weight_grams > 0),
  capacity_volume_cm3   integer NOT NULL CHECK (capacity_volume_cm3 > 0),
  capacity_count        integer NOT NULL CHECK (capacity_count > 0),
  active                boolean NOT NULL DEFAULT true
);
CREATE INDEX vehicles_business ON vehicles (business_id);

ALTER TABLE routes ADD COLUMN vehicle_id bigint REFERENCES vehicles (id);
