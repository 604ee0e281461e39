import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam } from '../../platform/schemas.ts';
import type { ApprovalsService } from './service.ts';

const person = z.object({ id: z.int(), name: z.string() });

const namedOrder = z
  .object({
    id: z.int(),
    order_ref: z.string(),
    customer: z.string().nullable().describe("The customer account's name"),
    recipient: z.string().nullable().describe("The drop-off's name"),
  })
  .meta({ title: 'ApprovalOrder' });

/** A write proposal as every answer shows it (the dispatch suggestions' proposals too). */
export const proposalSchema = z
  .object({
    id: z.int(),
    tool: z.string(),
    title: z.string().describe('What the tool does, in a line a person reads'),
    arguments: z.record(z.string(), z.unknown()),
    orders: z
      .array(namedOrder)
      .describe('The orders of the business the arguments name (order_id, order_ids), as people know them'),
    reason: z.string(),
    preview: z
      .record(z.string(), z.unknown())
      .describe('The dry run of the call as its proposer, or the refusal it met'),
    status: z.enum(['pending', 'approved', 'rejected', 'expired']).meta({ title: 'ApprovalStatus' }),
    proposed_by: person,
    proposed_at: z.string(),
    expires_at: z.string(),
    decided_by: person.nullable(),
    decided_at: z.string().nullable(),
    decision_reason: z.string().nullable(),
    succeeded: z.boolean().nullable().describe('Approved: whether the call succeeded when it ran'),
    outcome: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('Approved: what the call answered, or its refusal'),
    origin: z
      .object({
        kind: z.literal('console_agent'),
        conversation_id: z.int(),
        turn_id: z.int(),
        request: z.string().describe('What the person asked in that turn, word for word'),
        after_tool_output: z
          .boolean()
          .describe('The model had read tool output (untrusted data, such as order notes) before proposing'),
      })
      .meta({ title: 'ApprovalOrigin' })
      .nullable()
      .describe(
        'Made by the operations AI agent for the person in proposed_by (docs/agent.md); null: proposed by a token',
      ),
  })
  .meta({ title: 'Approval' });
const proposalAnswer = z.object({ result: z.literal(true), proposal: proposalSchema });
const proposalId = z.object({ proposal_id: idParam });

export function approvalsOperations(approvals: ApprovalsService): Operation[] {
  return [
    defineOperation({
      name: 'propose_write',
      summary: 'Queue a write tool call for a person to approve',
      description:
        'The call is not run: it is kept with its arguments, the reason and a preview (its dry run as the proposer) ' +
        `until a person approves or rejects it, or it expires after 24 hours.`,
      tag: 'Approvals',
      kind: 'mutation',
      risk: 'low',
      tool: {
        user: 'propose_write',
        guide:
          'Queue a write tool call (its name, arguments and your reason) for a person to approve instead of executing it; answers the proposal with its id and a preview. Use it when you may not write yourself or the change needs a human decision.',
      },
      access: { kinds: STAFF, scopes: ['approvals:read'] },
      errors: ['TOOL_NOT_PROPOSABLE'],
      rest: { method: 'POST', path: '/v1/agent/approvals' },
      graphql: 'proposeWrite',
      input: z.object({
        tool: z.string().trim().min(1).max(64).describe('A write tool of the user agent server'),
        arguments: z.record(z.string(), z.unknown()).default({}).describe("The tool's arguments"),
        reason: z.string().trim().min(1).max(500).describe('Why, for the person who decides'),
      }),
      output: proposalAnswer,
      handler: (ctx, input) => approvals.propose(ctx, input),
    }),
    defineOperation({
      name: 'list_pending_approvals',
      summary: 'Write proposals waiting for a decision',
      description:
        'Each proposal with its tool, arguments, proposer, reason and preview; a person reads it to decide. Decided and expired proposals are not listed.',
      tag: 'Approvals',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_pending_approvals',
        guide:
          'The write proposals of the business waiting for a decision (newest first), with their tool, arguments, proposer, reason and preview.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['approvals:read'] },
      rest: { method: 'GET', path: '/v1/agent/approvals' },
      graphql: 'pendingApprovals',
      input: z.object({ ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, proposals: z.array(proposalSchema) }),
      handler: (ctx, input) => approvals.pending(ctx, input),
    }),
    defineOperation({
      name: 'approve_pending_write',
      summary: 'Approve a proposal: its call runs now, as the approver',
      description:
        "The call runs once, with the approver's token's scopes and account kind; the proposal keeps what it " +
        'answered, or the refusal it met. An approver who may not call the tool (its scopes, its account kinds) ' +
        'is refused as a direct call would be, and the proposal stays pending. The token that proposed it ' +
        'cannot approve it.',
      tag: 'Approvals',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      tool: {
        user: 'approve_pending_write',
        guide:
          'Approve a pending proposal: its tool call executes now as you (you need that tool’s scopes) and the proposal keeps the result.',
      },
      access: { kinds: STAFF, scopes: ['approvals:write'] },
      errors: ['PROPOSAL_NOT_FOUND', 'PROPOSAL_DECIDED', 'PROPOSAL_EXPIRED', 'OWN_PROPOSAL'],
      rest: { method: 'POST', path: '/v1/agent/approvals/:proposal_id/approve' },
      graphql: 'approvePendingWrite',
      input: proposalId,
      output: proposalAnswer,
      handler: (ctx, input) => approvals.approve(ctx, input.proposal_id),
    }),
    defineOperation({
      name: 'reject_pending_write',
      summary: 'Reject a proposal, with a reason; nothing runs',
      description: 'The proposal is decided and its call never runs; the reason is kept with it.',
      tag: 'Approvals',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'reject_pending_write',
        guide:
          'Reject a pending proposal with a reason its proposer reads; nothing executes, and it cannot be approved later.',
      },
      access: { kinds: STAFF, scopes: ['approvals:write'] },
      errors: ['PROPOSAL_NOT_FOUND', 'PROPOSAL_DECIDED', 'PROPOSAL_EXPIRED'],
      rest: { method: 'POST', path: '/v1/agent/approvals/:proposal_id/reject' },
      graphql: 'rejectPendingWrite',
      input: proposalId.extend({ reason: z.string().trim().min(1).max(500) }),
      output: proposalAnswer,
      handler: (ctx, input) => approvals.reject(ctx, input.proposal_id, input.reason),
    }),
  ];
}
