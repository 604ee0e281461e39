-- Jobs (docs/jobs.md): an operation call accepted to run in the background, as its caller, with
-- its progress and its outcome. The queue that carries it to a worker is pg-boss's, in its own
-- schema (`pgboss`), which pg-boss installs and upgrades itself.

CREATE TABLE jobs (
  business_id  bigint NOT NULL REFERENCES businesses (id),
  -- Also the id of the queue's message: a message run again finds its job by it.
  id           uuid NOT NULL,
  operation    text NOT NULL,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  progress     smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  -- The call as it came: its input, and who made it (re-checked when the job runs).
  input        jsonb NOT NULL,
  user_id      bigint NOT NULL,
  token_id     bigint NOT NULL,
  door         text NOT NULL,
  lang         text NOT NULL,
  -- What the call answers when it runs at once; or its refusal: { code, message, details }.
  result       jsonb,
  error        jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL,
  started_at   timestamptz,
  finished_at  timestamptz,
  PRIMARY KEY (business_id, id)
);

CREATE INDEX jobs_listing ON jobs (business_id, created_at DESC, id);
