-- A proposal the console agent made for a signed-in person: it has no proposing token (the
-- agent has none, and the person must be able to approve it in place), and it records where it
-- came from: {kind: 'console_agent', conversation_id, turn_id, request, after_tool_output}.
ALTER TABLE agent_write_proposals ALTER COLUMN proposed_token_id DROP NOT NULL;
ALTER TABLE agent_write_proposals ADD COLUMN origin jsonb;
