-- The operations AI agent (docs/agent.md): a business is set up for it ("migrated") once it has
-- saved its agent settings; people's conversations with the agent and their turns; the turns a
-- business ran each local day, against its daily cap.
CREATE TABLE agent_settings (
  business_id  bigint PRIMARY KEY REFERENCES businesses (id),
  -- The business's own words added to the system prompt (how it names things, what to stress).
  instructions text,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE agent_conversations (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id bigint NOT NULL REFERENCES businesses (id),
  -- A conversation is its person's own: nobody else reads it.
  user_id     bigint NOT NULL REFERENCES users (id),
  title       text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX agent_conversations_recent ON agent_conversations (business_id, user_id, updated_at DESC, id DESC);

-- A turn is kept only once it ended: a turn the provider failed leaves no row.
CREATE TABLE agent_turns (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  conversation_id bigint NOT NULL REFERENCES agent_conversations (id),
  text            text NOT NULL,
  answer          text NOT NULL,
  -- [{name, arguments, summary, refused}], in the order the model made them.
  tool_calls      jsonb NOT NULL,
  proposal_ids    bigint[] NOT NULL,
  model           text NOT NULL,
  input_tokens    integer NOT NULL,
  output_tokens   integer NOT NULL,
  duration_ms     integer NOT NULL,
  -- The business's local day the turn was counted on.
  local_day       date NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX agent_turns_conversation ON agent_turns (conversation_id, id);
CREATE INDEX agent_turns_usage ON agent_turns (business_id, local_day);

-- Turns counted per business and local day: one upsert per turn, bounded by the cap.
CREATE TABLE agent_daily_turns (
  business_id bigint NOT NULL REFERENCES businesses (id),
  day         date NOT NULL,
  turns       integer NOT NULL,
  PRIMARY KEY (business_id, day)
);

-- The platform admin's cap for one business, over the platform default (AGENT_DAILY_TURNS).
CREATE TABLE agent_daily_caps (
  business_id bigint PRIMARY KEY REFERENCES businesses (id),
  daily_turns integer NOT NULL CHECK (daily_turns >= 0),
  updated_at  timestamptz NOT NULL
);
