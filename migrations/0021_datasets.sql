-- Datasets: a business's own tables of records (customer sites, lockers of a partner, ...), each
-- with a field schema the service checks on every write, grouped for the people who browse them.
-- Records keep their values as jsonb; what the searches need is kept beside them in columns: one
-- lower-cased text for the typo-forgiving search, the address text and the point that places the
-- record on the map, and how that point was found (geocoding_status), so nothing unplaced
-- pretends to be placed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE dataset_groups (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  name        text NOT NULL,
  description text,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
-- A group's name is how people tell groups apart: one of each name per business, whatever the case.
CREATE UNIQUE INDEX dataset_groups_name ON dataset_groups (business_id, lower(name));

CREATE TABLE datasets (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  -- null: not in a group. A group is deleted only empty, or after its datasets are ungrouped.
  group_id    bigint REFERENCES dataset_groups (id),
  name        text NOT NULL,
  description text,
  -- The declared fields, in order: [{ name, label, type, required, values }].
  fields      jsonb NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX datasets_name ON datasets (business_id, lower(name));
CREATE INDEX datasets_group ON datasets (group_id) WHERE group_id IS NOT NULL;

CREATE TABLE dataset_records (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id          bigint NOT NULL REFERENCES businesses (id),
  dataset_id           bigint NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  data                 jsonb NOT NULL,
  -- Lower-cased text of the record's text, enum and address values, for word search.
  search_text          text NOT NULL,
  -- The address of the record's location field, as written (null: none, or a geo point).
  address_text         text,
  lat                  double precision,
  lng                  double precision,
  geocoding_status     text NOT NULL
    CHECK (geocoding_status IN ('none', 'provided', 'geocoded', 'pending', 'not_found', 'unavailable')),
  geocoding_provider   text,
  geocoding_confidence double precision,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  CHECK ((lat IS NULL) = (lng IS NULL)),
  CHECK ((lat IS NOT NULL) = (geocoding_status IN ('provided', 'geocoded')))
);
CREATE INDEX dataset_records_dataset ON dataset_records (dataset_id, id DESC);
-- Equality filters on fields (`data @> {"status": "open"}`) within a dataset.
CREATE INDEX dataset_records_data ON dataset_records USING gin (data jsonb_path_ops);
-- The address search over placed records of a business (searchPlaces).
CREATE INDEX dataset_records_placed ON dataset_records (business_id) WHERE lat IS NOT NULL;
