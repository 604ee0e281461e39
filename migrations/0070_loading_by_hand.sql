-- A business space loaded by hand (docs/loading.md, "Loads a person handles"): the highest a box's
-- top may stand above the floor (a person's reach), the tallest a stack may stand against the
-- narrowest side of the floor under it, and whether the load goes to the door end. Spaces made
-- before keep none of these: loaded as they were.
ALTER TABLE loading_spaces
  ADD COLUMN reach_limit_mm integer,
  ADD COLUMN max_stack_ratio real,
  ADD COLUMN load_at_door boolean NOT NULL DEFAULT false;
