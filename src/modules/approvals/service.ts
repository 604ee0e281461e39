import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import { ReviewSessions } from './sessions.ts';
import type { ApprovalsTables, ProposalOrigin } from './tables.ts';

/** How long a proposal waits for a decision before it expires. */
export const PROPOSAL_TTL_HOURS = 24;

/**
 * The write tools of the user agent server, as the composition root lets this module run them
 * (the catalog and the executor are not a module's to reach).
 */
export interface ToolCalls {
  /** Whether the name is a write tool of the user server. */
  isWrite(tool: string): boolean;
  /** What the tool does, in a line a person reads (its operation's summary). */
  titleOf(tool: string): string;
  /**
   * Why the context's caller may not call the tool at all (account kind, scopes), as a direct
   * call on the context's door would be refused; none: it may.
   */
  refusal(ctx: OperationContext, tool: string): AppError | undefined;
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
 * The queue's own tools. Deciding is a person's act: an approval proposed for approval would be
 * run by whoever approves the outer proposal, deciding the inner one without anybody reading it.
 */
const QUEUE_TOOLS: ReadonlySet<string> = new Set([
  'propose_write',
  'approve_pending_write',
  'reject_pending_write',
]);

/** Whether a tool call may wait in the queue: a write tool of the user server, not one of the queue's own. */
export function isProposable(tools: Pick<ToolCalls, 'isWrite'>, tool: string): boolean {
  return tools.isWrite(tool) && !QUEUE_TOOLS.has(tool);
}

/**
 * The approval queue: write tool calls an agent proposed, waiting for a person. Approving runs
 * the call as the approver (who needs the tool's scopes and account kind) in the approval's own
 * transaction, so a proposal runs at most once however many approve it at the same moment.
 */
export class ApprovalsService {
  /** The approvals page's own sign-in sessions. */
  readonly sessions: ReviewSessions;

  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly tools: ToolCalls,
  ) {
    this.sessions = new ReviewSessions(clock, accounts);
  }

  /**
   * Queues a write tool call. With an `origin` the console agent proposes it for the signed-in
   * person: no proposing token is kept (the agent has none), so that person may approve it in place.
   */
  async propose(
    ctx: OperationContext,
    input: { tool: string; arguments: Record<string, unknown>; reason: string },
    origin?: ProposalOrigin,
  ) {
    const caller = callerOf(ctx);
    if (!isProposable(this.tools, input.tool)) {
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
      proposed_token_id: origin ? null : caller.tokenId,
      origin: origin ?? null,
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
    // The reviewer needs what the call needs (the tool's account kinds and scopes). Refused, the
    // approval's transaction is undone: the proposal stays pending for a reviewer who has them.
    const refusal = this.tools.refusal(ctx, decided.tool);
    if (refusal) throw refusal;
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

  /** Proposals of the caller's business by id, as every answer shows them (the agent's turns). */
  async viewsOf(ctx: OperationContext, ids: number[]) {
    if (ids.length === 0) return [];
    const rows = await repo.proposalsOf(ctx.db, businessOf(ctx), { ids, limit: ids.length, offset: 0 });
    return this.views(ctx, rows);
  }

  private async one(ctx: OperationContext, id: number) {
    const rows = await repo.proposalsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    return (await this.views(ctx, rows))[0]!;
  }

  private async views(ctx: OperationContext, rows: Row[]) {
    const orderIds = new Map(rows.map((row) => [row.id, orderIdsIn(row.arguments)]));
    const orders = await this.orders.queries.summaries(ctx.db, businessOf(ctx), [
      ...new Set([...orderIds.values()].flat()),
    ]);
    const names = await this.accounts.namesOf(ctx.db, [
      ...rows.flatMap((row) => [row.proposed_by, ...(row.decided_by === null ? [] : [row.decided_by])]),
      ...[...orders.values()].flatMap((order) =>
        order.customer_user_id === null ? [] : [order.customer_user_id],
      ),
    ]);
    const person = (id: number | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
    const named = (id: number) => {
      const order = orders.get(id);
      if (!order) return [];
      return [
        {
          id,
          order_ref: order.order_ref,
          customer: order.customer_user_id === null ? null : (names.get(order.customer_user_id) ?? null),
          recipient: order.dropoff?.name ?? null,
        },
      ];
    };
    const now = this.clock.now();
    return rows.map((row) => ({
      id: row.id,
      tool: row.tool,
      title: this.tools.titleOf(row.tool),
      arguments: row.arguments,
      orders: (orderIds.get(row.id) ?? []).flatMap(named),
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
      origin: row.origin,
    }));
  }
}

/**
 * The orders a tool call's arguments name by id (`order_id`, `order_ids`, the catalog's names for
 * an order of the caller's business), so a reviewer sees them by reference and customer.
 */
function orderIdsIn(args: Record<string, unknown>): number[] {
  const ids = [args.order_id, ...(Array.isArray(args.order_ids) ? args.order_ids : [])];
  return [...new Set(ids.filter((id): id is number => Number.isSafeInteger(id) && (id as number) > 0))];
}
