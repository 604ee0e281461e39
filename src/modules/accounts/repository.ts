import type { Queryable } from '../../platform/db/database.ts';
import type { AccountsTables, TokenKind } from './tables.ts';

type UserRow = AccountsTables['users'];

export async function insertBusiness(
  db: Queryable,
  values: { code: string; name: string; timeZone: string; now: Date },
): Promise<number> {
  const row = await db
    .insertInto('businesses')
    .values({ code: values.code, name: values.name, time_zone: values.timeZone, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findBusinessByCode(db: Queryable, code: string) {
  return db.selectFrom('businesses').selectAll().where('code', '=', code).executeTakeFirst();
}

export function findBusinessById(db: Queryable, id: number) {
  return db.selectFrom('businesses').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countBusinesses(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('businesses')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function enabledModules(db: Queryable, businessId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('business_modules')
    .select('module')
    .where('business_id', '=', businessId)
    .where('enabled', '=', true)
    .execute();
  return rows.map((row) => row.module);
}

export async function isModuleAvailable(db: Queryable, module: string): Promise<boolean> {
  const row = await db
    .selectFrom('platform_modules')
    .select('available')
    .where('module', '=', module)
    .executeTakeFirst();
  return row?.available ?? false;
}

export async function setPlatformModule(db: Queryable, module: string, available: boolean, now: Date) {
  await db
    .insertInto('platform_modules')
    .values({ module, available, updated_at: now })
    .onConflict((oc) => oc.column('module').doUpdateSet({ available, updated_at: now }))
    .execute();
}

export async function setBusinessModule(
  db: Queryable,
  businessId: number,
  module: string,
  enabled: boolean,
  now: Date,
) {
  await db
    .insertInto('business_modules')
    .values({ business_id: businessId, module, enabled, updated_at: now })
    .onConflict((oc) => oc.columns(['business_id', 'module']).doUpdateSet({ enabled, updated_at: now }))
    .execute();
}

export async function insertContractorCompany(
  db: Queryable,
  values: { name: string; businessIds: number[]; now: Date },
): Promise<number> {
  const company = await db
    .insertInto('contractor_companies')
    .values({ name: values.name, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (values.businessIds.length > 0) {
    await db
      .insertInto('contractor_engagements')
      .values(
        values.businessIds.map((businessId) => ({
          contractor_company_id: company.id,
          business_id: businessId,
          created_at: values.now,
        })),
      )
      .execute();
  }
  return company.id;
}

export function findContractorCompany(db: Queryable, id: number) {
  return db.selectFrom('contractor_companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The businesses a contractor company works for. */
export function engagedBusinesses(db: Queryable, contractorCompanyId: number) {
  return db
    .selectFrom('contractor_engagements as e')
    .innerJoin('businesses as b', 'b.id', 'e.business_id')
    .select(['b.id', 'b.code', 'b.name'])
    .where('e.contractor_company_id', '=', contractorCompanyId)
    .orderBy('b.id')
    .execute();
}

export async function insertUser(
  db: Queryable,
  values: Omit<UserRow, 'id' | 'disabled'> & { disabled?: boolean },
): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUserByEmail(db: Queryable, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Queryable, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertToken(
  db: Queryable,
  values: {
    userId: number;
    tokenHash: Buffer;
    kind: TokenKind;
    name: string | null;
    profile: string | null;
    scopes: string[] | null;
    businessScopeId: number | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<number> {
  const row = await db
    .insertInto('access_tokens')
    .values({
      user_id: values.userId,
      token_hash: values.tokenHash,
      kind: values.kind,
      name: values.name,
      profile: values.profile,
      scopes: values.scopes,
      business_scope_id: values.businessScopeId,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live token with its enabled owner, or nothing. */
export function findLiveToken(db: Queryable, tokenHash: Buffer, now: Date) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      't.kind as token_kind',
      't.profile',
      't.scopes',
      't.expires_at',
      't.business_scope_id',
      'u.id as user_id',
      'u.kind',
      'u.business_id',
      'u.contractor_company_id',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('u.disabled', '=', false)
    .executeTakeFirst();
}

export function findTokenOfUser(db: Queryable, tokenId: number, userId: number) {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'kind', 'profile', 'scopes', 'expires_at', 'business_scope_id'])
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function revokeToken(db: Queryable, tokenId: number, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findUserInBusiness(db: Queryable, userId: number, businessId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'kind', 'name'])
    .where('id', '=', userId)
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}
