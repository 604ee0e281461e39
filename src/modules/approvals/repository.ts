import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { jsonb } from '../../platform/db/database.ts';
import type { ApprovalsTables, ProposalStatus } from './tables.ts';

type Proposal = ApprovalsTables['agent_write_proposals'];

export async function insertProposal(db: Queryable<ApprovalsTables>, values: Omit<Proposal, 'id'>) {
  const row = await db
    .insertInto('agent_write_proposals')
    .values({
      ...values,
      arguments: jsonb(values.arguments),
      preview: jsonb(values.preview),
      origin: values.origin === null ? null : jsonb(values.origin),
    })
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

// ----- the approvals page's sessions -----

type Session = ApprovalsTables['approval_page_sessions'];

export async function insertSession(db: Queryable<ApprovalsTables>, values: Insertable<Session>) {
  await db.insertInto('approval_page_sessions').values(values).execute();
}

/** A session neither revoked, expired, nor idle since `idleBefore`, by its id's digest. */
export function liveSession(
  db: Queryable<ApprovalsTables>,
  sessionHash: Buffer,
  at: { now: Date; idleBefore: Date },
) {
  return db
    .selectFrom('approval_page_sessions')
    .select(['id', 'user_id', 'token_id'])
    .where('session_hash', '=', sessionHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at.now)
    .where('last_used_at', '>', at.idleBefore)
    .executeTakeFirst();
}

export async function touchSession(db: Queryable<ApprovalsTables>, id: number, now: Date) {
  await db.updateTable('approval_page_sessions').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(db: Queryable<ApprovalsTables>, sessionHash: Buffer, now: Date) {
  await db
    .updateTable('approval_page_sessions')
    .set({ revoked_at: now })
    .where('session_hash', '=', sessionHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Deletes the sessions that can no longer open the page; answers how many. */
export async function pruneSessions(
  db: Queryable<ApprovalsTables>,
  at: { now: Date; idleBefore: Date },
): Promise<number> {
  const result = await db
    .deleteFrom('approval_page_sessions')
    .where((eb) =>
      eb.or([
        eb('revoked_at', 'is not', null),
        eb('expires_at', '<=', at.now),
        eb('last_used_at', '<=', at.idleBefore),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
