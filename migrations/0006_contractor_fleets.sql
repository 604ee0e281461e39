-- Drivers who drive for a contractor company (its fleet within the business), and the driver an
-- order is planned with, beside its route, so orders can be listed by driver.

ALTER TABLE driver_profiles ADD COLUMN contractor_company_id bigint REFERENCES contractor_companies (id);
CREATE INDEX driver_profiles_contractor ON driver_profiles (contractor_company_id)
  WHERE contractor_company_id IS NOT NULL;

ALTER TABLE orders ADD COLUMN driver_user_id bigint REFERENCES users (id);
CREATE INDEX orders_driver ON orders (driver_user_id) WHERE driver_user_id IS NOT NULL;
