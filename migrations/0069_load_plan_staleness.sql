-- A route's load plan follows the route (docs/loading.md, "When the route changes"): what it was
-- planned from, what changed on the route since and when, and who planned it last, as whom a job
-- plans it again when the business asks for that (loading_settings).

-- `basis`: the route's deliveries the plan loaded, in unloading order ([{order_id, stop}]); null
-- for a plan of given items, and for plans made before (nothing known to compare with).
-- `changes`: what differs on the route now ([{kind, order_id, planned_stop, stop, at}]), empty
-- while the plan holds; `stale_since` the earliest of them.
ALTER TABLE load_plans
  ADD COLUMN basis jsonb,
  ADD COLUMN changes jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN stale_since timestamptz,
  ADD COLUMN planned_at timestamptz,
  ADD COLUMN planned_by bigint,
  ADD COLUMN planned_token_id bigint,
  ADD COLUMN replan_job_id uuid;
UPDATE load_plans SET planned_at = created_at, planned_by = created_by;
ALTER TABLE load_plans ALTER COLUMN planned_at SET NOT NULL;

-- How the business keeps its load plans; a business without a row has the defaults.
CREATE TABLE loading_settings (
  business_id          bigint PRIMARY KEY REFERENCES businesses (id),
  -- A plan that goes stale is planned again by a job, as whoever planned it last.
  replan_automatically boolean NOT NULL DEFAULT false,
  updated_at           timestamptz NOT NULL
);
