-- The maps module: a business's custom maps (a style and an ordered list of layers drawn from its
-- own data) and the service zones it uploads for them. A map is seen by the business's staff, or,
-- once published, by anyone holding its public link: only the link's SHA-256 digest is stored,
-- and revoking the link clears it. The sites that may frame a published map are kept for the
-- page's Content-Security-Policy frame-ancestors.
CREATE TABLE maps (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id   bigint NOT NULL REFERENCES businesses (id),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  style         jsonb NOT NULL,
  layers        jsonb NOT NULL DEFAULT '[]',
  visibility    text NOT NULL DEFAULT 'authenticated' CHECK (visibility IN ('authenticated', 'public')),
  link_hash     bytea UNIQUE,
  embed_origins text[] NOT NULL DEFAULT '{}',
  published_at  timestamptz,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  -- Public exactly while a link is live.
  CHECK ((visibility = 'public') = (link_hash IS NOT NULL))
);
CREATE INDEX maps_business ON maps (business_id, id);

-- A service zone: a GeoJSON Polygon or MultiPolygon, checked on upload (closed rings, coordinate
-- ranges, a bounded number of vertices), stored as it was sent.
CREATE TABLE service_zones (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  geometry    jsonb NOT NULL,
  vertices    integer NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX service_zones_business ON service_zones (business_id, id);
