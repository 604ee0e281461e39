-- Write tool calls an agent proposed for a person to approve (the approval queue): what was
-- proposed, its preview, and how it ended. A proposal runs at most once: approving it moves it
-- out of 'pending' under a row lock, in the transaction that runs it.
CREATE TABLE agent_write_proposals (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id       bigint NOT NULL REFERENCES businesses (id),
  tool              text NOT NULL,
  arguments         jsonb NOT NULL,
  reason            text NOT NULL,
  preview           jsonb NOT NULL,
  status            text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  proposed_by       bigint NOT NULL REFERENCES users (id),
  proposed_token_id bigint NOT NULL,
  proposed_at       timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  decided_by        bigint REFERENCES users (id),
  decided_at        timestamptz,
  decision_reason   text,
  outcome           jsonb,
  succeeded         boolean
);
CREATE INDEX agent_write_proposals_queue ON agent_write_proposals (business_id, status, id DESC);
