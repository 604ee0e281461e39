-- Warehouses: a business's sites with their locations, the packages and stock they hold now,
-- what happened to them (movements), who may scan there, route lanes and outbound loads, and
-- transfers between warehouses. The warehouses module owns every table here; orders, routes
-- and depots are referred to by id only (their modules own them).

CREATE TABLE warehouses (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  code            text NOT NULL,
  name            text NOT NULL,
  line1           text NOT NULL,
  postal_code     text,
  city            text,
  country         text,
  lat             double precision,
  lng             double precision,
  time_zone       text NOT NULL,
  opening_hours   jsonb NOT NULL DEFAULT '{}',
  depot_id        bigint,
  -- Drop-off postal codes starting with one of these belong to this warehouse (longest wins).
  postal_prefixes text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL,
  UNIQUE (business_id, code)
);

CREATE TABLE warehouse_locations (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  warehouse_id bigint NOT NULL REFERENCES warehouses (id),
  code         text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('zone', 'aisle', 'bin', 'staging_lane')),
  capacity     integer NOT NULL CHECK (capacity >= 0),
  -- Parcels held now (packages plus stock units), kept with every move under the row's lock,
  -- so a capacity check never counts a 100,000-row inventory.
  occupied     integer NOT NULL DEFAULT 0 CHECK (occupied >= 0),
  UNIQUE (warehouse_id, code)
);

-- Employees and drivers who may scan at a warehouse (the warehouse role); client admins may everywhere.
CREATE TABLE warehouse_staff (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  warehouse_id bigint NOT NULL REFERENCES warehouses (id),
  user_id      bigint NOT NULL REFERENCES users (id),
  granted_by   bigint REFERENCES users (id),
  granted_at   timestamptz NOT NULL,
  PRIMARY KEY (warehouse_id, user_id)
);

-- One row per package the business has received in a warehouse: where it is now. The primary
-- key on package_id is what makes two concurrent receiving scans one receipt.
CREATE TABLE warehouse_packages (
  package_id        bigint PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  warehouse_id      bigint NOT NULL REFERENCES warehouses (id),
  order_id          bigint NOT NULL,
  tracking_number   text NOT NULL,
  state             text NOT NULL CHECK (state IN ('received', 'stored', 'sorted', 'loaded', 'dispatched')),
  location_id       bigint REFERENCES warehouse_locations (id),
  route_id          bigint,
  -- The warehouse the package belongs to when it is not this one (mis-received), else null.
  home_warehouse_id bigint REFERENCES warehouses (id),
  received_at       timestamptz NOT NULL,
  -- The latest movement: a transfer can be rolled back only while it is still each package's latest.
  last_movement_id  bigint NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX warehouse_packages_place ON warehouse_packages (warehouse_id, state, location_id);
CREATE INDEX warehouse_packages_route ON warehouse_packages (business_id, route_id) WHERE route_id IS NOT NULL;

-- Stock-keeping items of storage-service customers: a quantity per SKU and location (null: not put away yet).
CREATE TABLE warehouse_stock (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  warehouse_id     bigint NOT NULL REFERENCES warehouses (id),
  location_id      bigint REFERENCES warehouse_locations (id),
  customer_user_id bigint NOT NULL REFERENCES users (id),
  sku              text NOT NULL,
  quantity         integer NOT NULL CHECK (quantity >= 0),
  updated_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX warehouse_stock_place
  ON warehouse_stock (warehouse_id, customer_user_id, sku, coalesce(location_id, 0));

-- Every change of a package's or stock's place, with who made it, when and through which door.
CREATE TABLE warehouse_movements (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  warehouse_id      bigint NOT NULL REFERENCES warehouses (id),
  package_id        bigint,
  sku               text,
  quantity          integer,
  action            text NOT NULL,
  before            jsonb,
  after             jsonb,
  transfer_id       bigint,
  actor_user_id     bigint REFERENCES users (id),
  door              text NOT NULL,
  at                timestamptz NOT NULL
);
CREATE INDEX warehouse_movements_package ON warehouse_movements (package_id, id) WHERE package_id IS NOT NULL;

-- The staging lane a route is sorted to (one route per lane and date).
CREATE TABLE warehouse_route_lanes (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  warehouse_id bigint NOT NULL REFERENCES warehouses (id),
  route_id     bigint NOT NULL,
  route_date   date NOT NULL,
  location_id  bigint NOT NULL REFERENCES warehouse_locations (id),
  PRIMARY KEY (warehouse_id, route_id),
  UNIQUE (location_id, route_date)
);

-- A route's outbound: the scans that were not its packages (extra), and when it was dispatched.
CREATE TABLE warehouse_outbounds (
  business_id   bigint NOT NULL REFERENCES businesses (id),
  route_id      bigint NOT NULL,
  warehouse_id  bigint NOT NULL REFERENCES warehouses (id),
  extra         text[] NOT NULL DEFAULT '{}',
  dispatched_at timestamptz,
  dispatched_by bigint REFERENCES users (id),
  PRIMARY KEY (business_id, route_id)
);

CREATE TABLE warehouse_transfers (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  from_warehouse_id bigint NOT NULL REFERENCES warehouses (id),
  to_warehouse_id   bigint NOT NULL REFERENCES warehouses (id),
  package_ids       bigint[] NOT NULL,
  note              text,
  created_by        bigint REFERENCES users (id),
  created_at        timestamptz NOT NULL,
  door              text NOT NULL,
  rolled_back_at    timestamptz,
  rolled_back_by    bigint REFERENCES users (id)
);
