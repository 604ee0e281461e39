-- The working day: a route is planned, started by its driver, then finished; a dispatcher may lock
-- it so that a rebuild leaves it as it is. Each stop records what happened there. The route keeps
-- the load it carries and where its distances came from, so a dispatcher sees the plan's balance.
ALTER TABLE routes
  ADD COLUMN status text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'started', 'finished')),
  ADD COLUMN locked boolean NOT NULL DEFAULT false,
  ADD COLUMN started_at timestamptz,
  ADD COLUMN finished_at timestamptz,
  ADD COLUMN distance_source text NOT NULL DEFAULT 'straight_line',
  ADD COLUMN load_weight_grams integer NOT NULL DEFAULT 0,
  ADD COLUMN load_volume_cm3 integer NOT NULL DEFAULT 0,
  ADD COLUMN load_count integer NOT NULL DEFAULT 0;

ALTER TABLE route_stops
  ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'arrived', 'done', 'failed')),
  ADD COLUMN arrived_at timestamptz,
  ADD COLUMN completed_at timestamptz;
