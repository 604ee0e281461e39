import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { SkillsTables } from './tables.ts';

/**
 * The business's skills, by code; only `codes` when given. `lock`: 'share' keeps them from being
 * removed until the transaction ends (a write that uses them), 'update' holds them for removal.
 */
export function skillsOf(
  db: Queryable<SkillsTables>,
  businessId: number,
  options: { codes?: readonly string[]; lock?: 'share' | 'update' } = {},
) {
  const codes = options.codes;
  if (codes?.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('skills')
    .select(['code', 'label'])
    .where('business_id', '=', businessId)
    .$if(codes !== undefined, (q) => q.where('code', 'in', codes!))
    .$if(options.lock === 'share', (q) => q.forShare())
    .$if(options.lock === 'update', (q) => q.forUpdate())
    .orderBy('code')
    .execute();
}

/** The first key of the catalogue's transaction-level advisory locks (the second is the business). */
const CATALOGUE_LOCK = 0x534b494c;

/** Holds the business's catalogue for additions until the transaction ends. */
export async function lockCatalogue(db: Queryable<SkillsTables>, businessId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${CATALOGUE_LOCK}, ${businessId}::integer)`.execute(db);
}

export async function countSkills(db: Queryable<SkillsTables>, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('skills')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Adds a skill, or relabels it. */
export async function saveSkill(db: Queryable<SkillsTables>, skill: SkillsTables['skills']): Promise<void> {
  await db
    .insertInto('skills')
    .values(skill)
    .onConflict((oc) =>
      oc.columns(['business_id', 'code']).doUpdateSet({ label: skill.label, updated_at: skill.updated_at }),
    )
    .execute();
}

export async function deleteSkill(db: Queryable<SkillsTables>, businessId: number, code: string) {
  await db.deleteFrom('skills').where('business_id', '=', businessId).where('code', '=', code).execute();
}
