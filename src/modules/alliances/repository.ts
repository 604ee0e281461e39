import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { AlliancesTables, Grant, Grants, MemberState } from './tables.ts';

export type AllianceRow = Selectable<AlliancesTables['alliances']>;
export type MemberRow = Selectable<AlliancesTables['alliance_members']>;

export async function insertAlliance(
  db: Queryable<AlliancesTables>,
  values: { name: string; ownerBusinessId: number; userId: number; at: Date },
): Promise<number> {
  const { id } = await db
    .insertInto('alliances')
    .values({
      name: values.name,
      owner_business_id: values.ownerBusinessId,
      created_at: values.at,
      updated_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('alliance_members')
    .values({
      alliance_id: id,
      business_id: values.ownerBusinessId,
      state: 'active',
      invited_by_user_id: values.userId,
      invited_at: values.at,
      joined_at: values.at,
      updated_at: values.at,
    })
    .execute();
  return id;
}

/**
 * The alliance with the business's own membership in it, or nothing when the business is neither
 * invited nor a member: to everyone else an alliance does not exist. `lock` takes the alliance row
 * for the rest of the transaction, so two changes of one alliance's members run one after the other.
 */
export async function allianceOf(
  db: Queryable<AlliancesTables>,
  allianceId: number,
  businessId: number,
  lock = false,
) {
  const alliance = await db
    .selectFrom('alliances')
    .selectAll()
    .where('id', '=', allianceId)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!alliance) return undefined;
  const membership = await memberOf(db, allianceId, businessId);
  return membership ? { alliance, membership } : undefined;
}

export function memberOf(db: Queryable<AlliancesTables>, allianceId: number, businessId: number) {
  return db
    .selectFrom('alliance_members')
    .selectAll()
    .where('alliance_id', '=', allianceId)
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

/** The alliances the business is invited to or a member of, newest first, with their active member count. */
export function alliancesOf(
  db: Queryable<AlliancesTables>,
  businessId: number,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('alliance_members as mine')
    .innerJoin('alliances as a', 'a.id', 'mine.alliance_id')
    .selectAll('a')
    .select([
      'mine.state as my_state',
      'mine.track_packages',
      'mine.see_orders',
      'mine.hand_over_orders',
      (eb) =>
        eb
          .selectFrom('alliance_members as m')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('m.alliance_id', '=', 'a.id')
          .where('m.state', '=', 'active')
          .as('member_count'),
    ])
    .where('mine.business_id', '=', businessId)
    .orderBy('a.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAlliancesOf(db: Queryable<AlliancesTables>, businessId: number) {
  const row = await db
    .selectFrom('alliance_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countActiveMembers(db: Queryable<AlliancesTables>, allianceId: number) {
  const row = await db
    .selectFrom('alliance_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('alliance_id', '=', allianceId)
    .where('state', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Members of an alliance (invited ones too), oldest first. */
export function membersOf(
  db: Queryable<AlliancesTables>,
  allianceId: number,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('alliance_members')
    .selectAll()
    .where('alliance_id', '=', allianceId)
    .orderBy('invited_at')
    .orderBy('business_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countMembers(db: Queryable<AlliancesTables>, allianceId: number) {
  const row = await db
    .selectFrom('alliance_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('alliance_id', '=', allianceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function renameAlliance(db: Queryable<AlliancesTables>, allianceId: number, name: string, at: Date) {
  return db.updateTable('alliances').set({ name, updated_at: at }).where('id', '=', allianceId).execute();
}

export function deleteAlliance(db: Queryable<AlliancesTables>, allianceId: number) {
  return db.deleteFrom('alliances').where('id', '=', allianceId).execute();
}

export function insertInvitation(
  db: Queryable<AlliancesTables>,
  values: { allianceId: number; businessId: number; userId: number; at: Date },
) {
  return db
    .insertInto('alliance_members')
    .values({
      alliance_id: values.allianceId,
      business_id: values.businessId,
      state: 'invited',
      invited_by_user_id: values.userId,
      invited_at: values.at,
      updated_at: values.at,
    })
    .execute();
}

export function activate(db: Queryable<AlliancesTables>, allianceId: number, businessId: number, at: Date) {
  return db
    .updateTable('alliance_members')
    .set({ state: 'active', joined_at: at, updated_at: at })
    .where('alliance_id', '=', allianceId)
    .where('business_id', '=', businessId)
    .where('state', '=', 'invited')
    .execute();
}

export function deleteMember(db: Queryable<AlliancesTables>, allianceId: number, businessId: number) {
  return db
    .deleteFrom('alliance_members')
    .where('alliance_id', '=', allianceId)
    .where('business_id', '=', businessId)
    .execute();
}

export function setGrants(
  db: Queryable<AlliancesTables>,
  allianceId: number,
  businessId: number,
  grants: Partial<Grants>,
  at: Date,
) {
  return db
    .updateTable('alliance_members')
    .set({ ...grants, updated_at: at })
    .where('alliance_id', '=', allianceId)
    .where('business_id', '=', businessId)
    .where('state', '=', 'active')
    .execute();
}

/**
 * For each business that shares something with the reader: which grants it gives, gathered over
 * every alliance where both are active members, and which alliances those are.
 */
export async function grantorsOf(db: Queryable<AlliancesTables>, readerBusinessId: number) {
  const result = await sql<{
    business_id: number;
    track_packages: boolean;
    see_orders: boolean;
    hand_over_orders: boolean;
    alliance_id: number;
    alliance_name: string;
  }>`
    SELECT g.business_id, g.track_packages, g.see_orders, g.hand_over_orders,
      a.id AS alliance_id, a.name AS alliance_name
    FROM alliance_members r
    JOIN alliance_members g ON g.alliance_id = r.alliance_id AND g.business_id <> r.business_id
    JOIN alliances a ON a.id = r.alliance_id
    WHERE r.business_id = ${readerBusinessId} AND r.state = 'active' AND g.state = 'active'
    ORDER BY g.business_id, a.id`.execute(db);
  return result.rows;
}

/** Whether the owner grants the reader this, in some alliance where both are active members. */
export async function grants(
  db: Queryable<AlliancesTables>,
  ownerBusinessId: number,
  readerBusinessId: number,
  grant: Grant,
): Promise<boolean> {
  const result = await sql<{ granted: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM alliance_members g
      JOIN alliance_members r ON r.alliance_id = g.alliance_id
      WHERE g.business_id = ${ownerBusinessId} AND r.business_id = ${readerBusinessId}
        AND g.state = 'active' AND r.state = 'active' AND ${sql.ref(`g.${grant}`)}
    ) AS granted`.execute(db);
  return result.rows[0]?.granted === true;
}

export type { MemberState };
