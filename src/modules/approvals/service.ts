import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';
import type { ApprovalsTables } from './tables.ts';

/** How long a proposal waits for a decision before it expires. */
export const PROPOSAL_TTL_HOURS = 24;

/**
 * The write tools of the user agent server, as the composition root lets this module run them
 * (the catalog and the executor are not a module's to reach).
 */
export interface ToolCalls {
  /** Whether the name is a write tool of the user server. */
  isWrite(tool: string): boolean;
  /**
   * Runs the tool call inside the context's transaction, as its caller, with every check a call
   * gets; `preview` undoes it at once and performs nothing outside (a dry run).
   */
  run(
    ctx: OperationContext,
    tool: string,
    args: Record<string, unknown>,
    options?: { preview?: boolean; confirmed?: boolean },
  ): Promise<unknown>;
}

type Row = Selectable<ApprovalsTables['agent_write_proposals']>;

/**
 * The approval queue: write tool calls an agent proposed, waiting for a person. Approving runs
 * the call as the approver (who needs the tool's scopes and account kind) in the approval's own
 * transaction, so a proposal runs at most once however many approve it at the same moment.
 */
export class ApprovalsService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly tools: ToolCalls,
  ) {}

  async propose(
    ctx: OperationContext,
    input: { tool: string; arguments: Record<string, unknown>; reason: string },
  ) {
    const caller = callerOf(ctx);
    if (!this.tools.isWrite(input.tool)) {
      throw new AppError('TOOL_NOT_PROPOSABLE', { params: { tool: input.tool } });
    }
    const preview = await this.outcomeOf(ctx, input.tool, input.arguments, { preview: true });
    const now = this.clock.now();
    const id = await repo.insertProposal(ctx.db, {
      business_id: businessOf(ctx),
      tool: input.tool,
      arguments: input.arguments,
      reason: input.reason,
      preview: preview.outcome,
      status: 'pending',
      proposed_by: caller.userId,
      proposed_token_id: caller.tokenId,
      proposed_at: now,
      expires_at: new Date(now.getTime() + PROPOSAL_TTL_HOURS * 3_600_000),
      decided_by: null,
      decided_at: null,
      decision_reason: null,
      outcome: null,
      succeeded: null,
    });
    return { result: true as const, proposal: await this.one(ctx, id) };
  }

  async pending(ctx: OperationContext, page: PageQuery) {
    const businessId = businessOf(ctx);
    const live = { status: 'pending' as const, liveAt: this.clock.now() };
    const [total, rows] = await Promise.all([
      repo.countProposals(ctx.db, businessId, live),
      repo.proposalsOf(ctx.db, businessId, { ...live, ...pageWindow(page) }),
    ]);
    return { result: true as const, ...envelopeOf(page, total), proposals: await this.views(ctx, rows) };
  }

  async approve(ctx: OperationContext, id: number) {
    const caller = callerOf(ctx);
    const decided = await this.decide(ctx, id, { status: 'approved', reason: null });
    // The agent that proposed a write cannot wave it through with its own token.
    if (decided.proposed_token_id === caller.tokenId) throw new AppError('OWN_PROPOSAL');
    // The approval is the confirmation a high-risk call needs.
    const ran = await this.outcomeOf(ctx, decided.tool, decided.arguments, { confirmed: true });
    await repo.recordOutcome(ctx.db, id, { succeeded: ran.succeeded, outcome: ran.outcome });
    return { result: true as const, proposal: await this.one(ctx, id) };
  }

  async reject(ctx: OperationContext, id: number, reason: string) {
    await this.decide(ctx, id, { status: 'rejected', reason });
    return { result: true as const, proposal: await this.one(ctx, id) };
  }

  /** Decides a pending proposal, or says why it cannot be (unknown, decided, expired). */
  private async decide(
    ctx: OperationContext,
    id: number,
    decision: { status: 'approved' | 'rejected'; reason: string | null },
  ): Promise<Row> {
    const businessId = businessOf(ctx);
    const now = this.clock.now();
    const decided = await repo.decide(ctx.db, businessId, id, {
      ...decision,
      by: callerOf(ctx).userId,
      at: now,
    });
    if (decided) return decided;
    const [row] = await repo.proposalsOf(ctx.db, businessId, { ids: [id], limit: 1, offset: 0 });
    if (!row) throw new AppError('PROPOSAL_NOT_FOUND', { params: { id } });
    if (row.status !== 'pending')
      throw new AppError('PROPOSAL_DECIDED', { params: { id, status: row.status } });
    throw new AppError('PROPOSAL_EXPIRED', { params: { id } });
  }

  /** What the call answered, or the refusal it met, as the proposal keeps it. */
  private async outcomeOf(
    ctx: OperationContext,
    tool: string,
    args: Record<string, unknown>,
    options: { preview?: boolean; confirmed?: boolean } = {},
  ): Promise<{ succeeded: boolean; outcome: Record<string, unknown> }> {
    try {
      return {
        succeeded: true,
        outcome: (await this.tools.run(ctx, tool, args, options)) as Record<string, unknown>,
      };
    } catch (error) {
      if (!isAppError(error)) throw error;
      return {
        succeeded: false,
        outcome: {
          result: false,
          error_code: error.code,
          message: errorMessage(error.code, ctx.lang, error.options.params),
          ...(error.options.details ? { details: error.options.details } : {}),
        },
      };
    }
  }

  private async one(ctx: OperationContext, id: number) {
    const rows = await repo.proposalsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    return (await this.views(ctx, rows))[0]!;
  }

  private async views(ctx: OperationContext, rows: Row[]) {
    const names = await this.accounts.namesOf(
      ctx.db,
      rows.flatMap((row) => [row.proposed_by, ...(row.decided_by === null ? [] : [row.decided_by])]),
    );
    const person = (id: number | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
    const now = this.clock.now();
    return rows.map((row) => ({
      id: row.id,
      tool: row.tool,
      arguments: row.arguments,
      reason: row.reason,
      preview: row.preview,
      status: row.status === 'pending' && row.expires_at <= now ? ('expired' as const) : row.status,
      proposed_by: person(row.proposed_by)!,
      proposed_at: row.proposed_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      decided_by: person(row.decided_by),
      decided_at: row.decided_at?.toISOString() ?? null,
      decision_reason: row.decision_reason,
      succeeded: row.succeeded,
      outcome: row.outcome,
    }));
  }
}
