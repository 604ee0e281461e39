// The approvals module (the queue of agent write proposals, and its page's sessions): what other modules, the doors and the composition root may use.
export { approvalsOperations, proposalSchema } from './operations.ts';
export { ApprovalsService, isProposable, PROPOSAL_TTL_HOURS, type ToolCalls } from './service.ts';
export { type PageSessions, REVIEW_SESSION_MAX_HOURS } from './sessions.ts';
export type { ProposalOrigin } from './tables.ts';
