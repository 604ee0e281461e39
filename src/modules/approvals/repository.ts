import type { Queryable } from '../../platform/db/database.ts';
import { jsonb } from '../../platform/db/database.ts';
import type { ApprovalsTables, ProposalStatus } from './tables.ts';

type Proposal = ApprovalsTables['agent_write_proposals'];

export async function insertProposal(db: Queryable<ApprovalsTables>, values: Omit<Proposal, 'id'>) {
  const row = await db
    .insertInto('agent_write_proposals')
    .values({ ...values, arguments: jsonb(values.arguments), preview: jsonb(values.preview) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function proposalsOf(
  db: Queryable<ApprovalsTables>,
  businessId: number,
  filter: { status?: ProposalStatus; liveAt?: Date; ids?: number[]; limit: number; offset: number },
) {
  return db
    .selectFrom('agent_write_proposals')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.liveAt !== undefined, (q) => q.where('expires_at', '>', filter.liveAt!))
    .$if(filter.ids !== undefined, (q) => q.where('id', 'in', filter.ids!.length ? filter.ids! : [-1]))
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

export async function countProposals(
  db: Queryable<ApprovalsTables>,
  businessId: number,
  filter: { status?: ProposalStatus; liveAt?: Date },
) {
  const row = await db
    .selectFrom('agent_write_proposals')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', businessId)
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.liveAt !== undefined, (q) => q.where('expires_at', '>', filter.liveAt!))
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * Moves a pending, unexpired proposal to its decision and answers it; undefined when it is not
 * pending any more. The row lock makes a second decider wait for the first, then find it decided.
 */
export function decide(
  db: Queryable<ApprovalsTables>,
  businessId: number,
  id: number,
  decision: { status: 'approved' | 'rejected'; by: number; at: Date; reason: string | null },
) {
  return db
    .updateTable('agent_write_proposals')
    .set({
      status: decision.status,
      decided_by: decision.by,
      decided_at: decision.at,
      decision_reason: decision.reason,
    })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', decision.at)
    .returningAll()
    .executeTakeFirst();
}

export async function recordOutcome(
  db: Queryable<ApprovalsTables>,
  id: number,
  outcome: { succeeded: boolean; outcome: Record<string, unknown> },
) {
  await db
    .updateTable('agent_write_proposals')
    .set({ succeeded: outcome.succeeded, outcome: jsonb(outcome.outcome) })
    .where('id', '=', id)
    .execute();
}
