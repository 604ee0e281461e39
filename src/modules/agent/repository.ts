import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { jsonb } from '../../platform/db/database.ts';
import type { AgentTables, KeptToolCall } from './tables.ts';

type Db = Queryable<AgentTables>;

export function settingsOf(db: Db, businessId: number) {
  return db.selectFrom('agent_settings').selectAll().where('business_id', '=', businessId).executeTakeFirst();
}

export function saveSettings(db: Db, businessId: number, instructions: string | null, now: Date) {
  return db
    .insertInto('agent_settings')
    .values({ business_id: businessId, instructions, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ instructions, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertConversation(
  db: Db,
  values: { business_id: number; user_id: number; title: string; now: Date },
) {
  const row = await db
    .insertInto('agent_conversations')
    .values({
      business_id: values.business_id,
      user_id: values.user_id,
      title: values.title,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The person's own conversation, in their business; undefined for anyone else's. */
export function conversationOf(db: Db, businessId: number, userId: number, id: number) {
  return db
    .selectFrom('agent_conversations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function conversationsOf(
  db: Db,
  businessId: number,
  userId: number,
  window: { limit: number; offset: number },
) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('agent_conversations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('business_id', '=', businessId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('agent_conversations')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
  ]);
  return { total: Number(count.count), rows };
}

export async function touchConversation(db: Db, id: number, values: { now: Date; title?: string }) {
  await db
    .updateTable('agent_conversations')
    .set({ updated_at: values.now, ...(values.title === undefined ? {} : { title: values.title }) })
    .where('id', '=', id)
    .execute();
}

/** Turns of a conversation, oldest first. */
export async function turnsOf(
  db: Db,
  businessId: number,
  conversationId: number,
  window: { limit: number; offset: number },
) {
  const rows = await db
    .selectFrom('agent_turns')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('conversation_id', '=', conversationId)
    .orderBy('id', 'asc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(withIds);
}

export async function countTurns(db: Db, businessId: number, conversationId: number) {
  const row = await db
    .selectFrom('agent_turns')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', businessId)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The latest turns of a conversation, oldest first: the history a new turn sends. */
export async function latestTurns(db: Db, businessId: number, conversationId: number, count: number) {
  const rows = await db
    .selectFrom('agent_turns')
    .select(['id', 'text', 'answer'])
    .where('business_id', '=', businessId)
    .where('conversation_id', '=', conversationId)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.reverse();
}

export interface NewTurn {
  business_id: number;
  conversation_id: number;
  text: string;
  answer: string;
  tool_calls: KeptToolCall[];
  model: string;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
  local_day: string;
  created_at: Date;
}

export async function insertTurn(db: Db, values: NewTurn) {
  const row = await db
    .insertInto('agent_turns')
    .values({ ...values, tool_calls: jsonb(values.tool_calls), proposal_ids: [] })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setTurnProposals(db: Db, id: number, proposalIds: number[]) {
  await db.updateTable('agent_turns').set({ proposal_ids: proposalIds }).where('id', '=', id).execute();
}

export async function oneTurn(db: Db, id: number) {
  return withIds(
    await db.selectFrom('agent_turns').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

/** bigint[] comes back as strings (only scalar int8 has a parser). */
function withIds<T extends { proposal_ids: unknown[] }>(row: T): T & { proposal_ids: number[] } {
  return { ...row, proposal_ids: row.proposal_ids.map(Number) };
}

/**
 * Counts one turn of the business's day, unless the day already holds `cap`: one statement, in
 * its own autocommit, so parallel turns on any instance never pass the cap and never wait on
 * each other's model calls. Answers the count with this turn, or undefined past the cap.
 */
export async function countTurn(db: Db, businessId: number, day: string, cap: number) {
  if (cap <= 0) return undefined;
  const row = await sql<{ turns: number }>`
    INSERT INTO agent_daily_turns (business_id, day, turns) VALUES (${businessId}, ${day}, 1)
    ON CONFLICT (business_id, day) DO UPDATE SET turns = agent_daily_turns.turns + 1
    WHERE agent_daily_turns.turns < ${cap}
    RETURNING turns`.execute(db);
  return row.rows[0]?.turns;
}

/** Gives a counted turn back (its provider failed: the business got no answer). */
export async function uncountTurn(db: Db, businessId: number, day: string) {
  await db
    .updateTable('agent_daily_turns')
    .set((eb) => ({ turns: eb('turns', '-', 1) }))
    .where('business_id', '=', businessId)
    .where('day', '=', day)
    .where('turns', '>', 0)
    .execute();
}

export async function turnsCounted(db: Db, businessId: number, day: string) {
  const row = await db
    .selectFrom('agent_daily_turns')
    .select('turns')
    .where('business_id', '=', businessId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.turns ?? 0;
}

export async function capOf(db: Db, businessId: number) {
  const row = await db
    .selectFrom('agent_daily_caps')
    .select('daily_turns')
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row?.daily_turns;
}

export async function setCap(db: Db, businessId: number, dailyTurns: number | null, now: Date) {
  if (dailyTurns === null) {
    await db.deleteFrom('agent_daily_caps').where('business_id', '=', businessId).execute();
    return;
  }
  await db
    .insertInto('agent_daily_caps')
    .values({ business_id: businessId, daily_turns: dailyTurns, updated_at: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ daily_turns: dailyTurns, updated_at: now }))
    .execute();
}

/** The business's turns per local day between two days (inclusive). */
export function usageOf(db: Db, businessId: number, from: string, to: string) {
  return db
    .selectFrom('agent_turns')
    .select((eb) => [
      'local_day',
      eb.fn.countAll<number>().as('turns'),
      eb.fn.sum<number>('input_tokens').as('input_tokens'),
      eb.fn.sum<number>('output_tokens').as('output_tokens'),
      eb.fn.sum<number>('duration_ms').as('duration_ms'),
    ])
    .where('business_id', '=', businessId)
    .where('local_day', '>=', from)
    .where('local_day', '<=', to)
    .groupBy('local_day')
    .orderBy('local_day')
    .execute();
}
