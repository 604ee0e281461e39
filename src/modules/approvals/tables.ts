import type { Generated } from 'kysely';

export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/**
 * A proposal the console agent made for the signed-in person it talks with: the conversation and
 * turn, what the person asked, and whether the model had read tool output (untrusted data)
 * before proposing, so a reviewer can tell a request from an injection.
 */
export interface ProposalOrigin {
  kind: 'console_agent';
  conversation_id: number;
  turn_id: number;
  request: string;
  after_tool_output: boolean;
}

export interface ApprovalsTables {
  agent_write_proposals: {
    id: Generated<number>;
    business_id: number;
    tool: string;
    arguments: Record<string, unknown>;
    reason: string;
    /** The dry run of the call as its proposer, or the refusal it met. */
    preview: Record<string, unknown>;
    status: ProposalStatus;
    proposed_by: number;
    /** The token that proposed it may not approve it; null: the console agent proposed it for its person. */
    proposed_token_id: number | null;
    /** Where an agent-made proposal came from (the console agent's conversation); null: a token proposed it. */
    origin: ProposalOrigin | null;
    proposed_at: Date;
    expires_at: Date;
    decided_by: number | null;
    decided_at: Date | null;
    decision_reason: string | null;
    /** What the approved call answered, or the refusal it met when it ran. */
    outcome: Record<string, unknown> | null;
    succeeded: boolean | null;
  };
  /** The approvals page's sign-in sessions (see sessions.ts). */
  approval_page_sessions: {
    id: Generated<number>;
    /** SHA-256 of the session id the browser holds; the id itself is never stored. */
    session_hash: Buffer;
    user_id: number;
    /** The login token of the sign-in: what the page's calls run as, never sent to the browser. */
    token_id: number;
    created_at: Date;
    last_used_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
  };
}
