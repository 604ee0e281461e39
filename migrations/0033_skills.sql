-- The skills module: a business's catalogue of skills (code and label). Drivers hold skills in
-- their working profile (dispatch) and orders name the skills they need (orders); both keep the
-- codes, the catalogue names them and is what the skills operations accept.
CREATE TABLE skills (
  business_id bigint NOT NULL REFERENCES businesses (id),
  code        text NOT NULL CHECK (code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  label       text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (business_id, code)
);

-- The codes already in use start the catalogue, labelled with themselves, so that what drivers
-- hold and open orders need can be set through the catalogue at once (a code of another form
-- stays where it is, outside the catalogue).
-- At most 200 a business, the catalogue's own limit.
INSERT INTO skills (business_id, code, label, created_at, updated_at)
SELECT business_id, code, code, now(), now()
FROM (
  SELECT business_id, code, row_number() OVER (PARTITION BY business_id ORDER BY code) AS rank
  FROM (
    SELECT business_id, unnest(skills) AS code FROM driver_profiles
    UNION
    SELECT business_id, unnest(required_skills) AS code
    FROM orders
    WHERE required_skills <> '{}' AND status NOT IN ('DELIVERED', 'RETURNED', 'CANCELLED')
  ) AS used
  WHERE code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'
) AS ranked
WHERE rank <= 200;
