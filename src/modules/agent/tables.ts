import type { Generated } from 'kysely';

/** A tool call of a turn as it is kept and shown: what the model asked, and a short account of the answer. */
export interface KeptToolCall {
  name: string;
  arguments: Record<string, unknown>;
  summary: string;
  refused: boolean;
}

export interface AgentTables {
  /** A business is set up for the agent ("migrated") once it has these. */
  agent_settings: {
    business_id: number;
    instructions: string | null;
    created_at: Date;
    updated_at: Date;
  };
  agent_conversations: {
    id: Generated<number>;
    business_id: number;
    user_id: number;
    title: string;
    created_at: Date;
    updated_at: Date;
  };
  agent_turns: {
    id: Generated<number>;
    business_id: number;
    conversation_id: number;
    text: string;
    answer: string;
    tool_calls: KeptToolCall[];
    proposal_ids: number[];
    model: string;
    input_tokens: number;
    output_tokens: number;
    duration_ms: number;
    /** YYYY-MM-DD, the business's local day the turn was counted on. */
    local_day: string;
    created_at: Date;
  };
  agent_daily_turns: {
    business_id: number;
    day: string;
    turns: number;
  };
  agent_daily_caps: {
    business_id: number;
    daily_turns: number;
    updated_at: Date;
  };
}
