-- A route's plan version: a counter every change of its plan moves (its stops and their order,
-- lock, driver, vehicle), so that an edit made on a view of the route that is no longer current
-- can be refused instead of overwriting what changed since (docs/dispatch.md, "Stale views").
ALTER TABLE routes ADD COLUMN plan_version integer NOT NULL DEFAULT 1;
