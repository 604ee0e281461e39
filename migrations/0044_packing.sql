-- Packing plans and load plans (docs/packing.md, docs/loading.md): the business's packaging
-- catalog, its own loading spaces, and the plans the solvers answered, kept as they were asked
-- and answered so they can be read again, re-run and applied.

-- A carton type of the business: inner and outer sizes in millimetres, weights in grams, the cost
-- of one carton in minor units of its currency. Inactive types stay for old plans and are not used.
CREATE TABLE packaging_types (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  name              text NOT NULL,
  inner_length_mm   integer NOT NULL CHECK (inner_length_mm > 0),
  inner_width_mm    integer NOT NULL CHECK (inner_width_mm > 0),
  inner_height_mm   integer NOT NULL CHECK (inner_height_mm > 0),
  outer_length_mm   integer NOT NULL CHECK (outer_length_mm >= inner_length_mm),
  outer_width_mm    integer NOT NULL CHECK (outer_width_mm >= inner_width_mm),
  outer_height_mm   integer NOT NULL CHECK (outer_height_mm >= inner_height_mm),
  tare_grams        integer NOT NULL CHECK (tare_grams >= 0),
  max_gross_grams   integer NOT NULL CHECK (max_gross_grams > tare_grams),
  cost_minor        bigint NOT NULL CHECK (cost_minor >= 0),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  active            boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX packaging_types_business ON packaging_types (business_id, id);

-- A packing plan: what was asked (items, custom sizes, fill cap) and the answer, against an order
-- or on its own; applied_at says when its packages became the order's.
CREATE TABLE packing_plans (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  order_id     bigint REFERENCES orders (id) ON DELETE SET NULL,
  request      jsonb NOT NULL,
  answer       jsonb NOT NULL,
  created_by   bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  applied_at   timestamptz
);
CREATE INDEX packing_plans_business ON packing_plans (business_id, id);
CREATE INDEX packing_plans_order ON packing_plans (business_id, order_id) WHERE order_id IS NOT NULL;

-- A loading space the business defines (its own van, a trailer): a box, optionally cut by a
-- convex cross-section (an envelope), with its payload and, for a truck, two supports (axles) whose
-- share of the load is reported.
CREATE TABLE loading_spaces (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  name           text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('container', 'uld', 'van', 'truck', 'breakbulk', 'custom')),
  length_mm      integer NOT NULL CHECK (length_mm > 0),
  width_mm       integer NOT NULL CHECK (width_mm > 0),
  height_mm      integer NOT NULL CHECK (height_mm > 0),
  payload_kg     integer CHECK (payload_kg > 0),
  cross_section  jsonb,
  axles          jsonb,
  created_at     timestamptz NOT NULL
);
CREATE INDEX loading_spaces_business ON loading_spaces (business_id, id);

-- A load plan: the space as it was when planned, what was loaded (items or a route's packages)
-- and the answer.
CREATE TABLE load_plans (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  bigint NOT NULL REFERENCES businesses (id),
  route_id     bigint REFERENCES routes (id) ON DELETE SET NULL,
  space        jsonb NOT NULL,
  request      jsonb NOT NULL,
  answer       jsonb NOT NULL,
  created_by   bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX load_plans_business ON load_plans (business_id, id);
CREATE INDEX load_plans_route ON load_plans (business_id, route_id) WHERE route_id IS NOT NULL;
