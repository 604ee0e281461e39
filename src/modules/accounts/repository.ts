import type { AccountKind } from '../../platform/catalog/operation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { AccountsTables, RegistrationStatus, TokenKind } from './tables.ts';

type UserRow = AccountsTables['users'];

export async function insertBusiness(
  db: Queryable<AccountsTables>,
  values: { code: string; name: string; timeZone: string; now: Date },
): Promise<number> {
  const row = await db
    .insertInto('businesses')
    .values({ code: values.code, name: values.name, time_zone: values.timeZone, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findBusinessByCode(db: Queryable<AccountsTables>, code: string) {
  return db.selectFrom('businesses').selectAll().where('code', '=', code).executeTakeFirst();
}

export function businessCodes(db: Queryable<AccountsTables>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('businesses').select(['id', 'code']).where('id', 'in', ids).execute();
}

/** Businesses' public code and name by id (what one business may show of another). */
export function businessSummaries(db: Queryable<AccountsTables>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('businesses').select(['id', 'code', 'name']).where('id', 'in', ids).execute();
}

export function findBusinessById(db: Queryable<AccountsTables>, id: number) {
  return db.selectFrom('businesses').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countBusinesses(db: Queryable<AccountsTables>): Promise<number> {
  const row = await db
    .selectFrom('businesses')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function enabledModules(db: Queryable<AccountsTables>, businessId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('business_modules')
    .select('module')
    .where('business_id', '=', businessId)
    .where('enabled', '=', true)
    .execute();
  return rows.map((row) => row.module);
}

export async function isModuleAvailable(db: Queryable<AccountsTables>, module: string): Promise<boolean> {
  const row = await db
    .selectFrom('platform_modules')
    .select('available')
    .where('module', '=', module)
    .executeTakeFirst();
  return row?.available ?? false;
}

export async function setPlatformModule(
  db: Queryable<AccountsTables>,
  module: string,
  available: boolean,
  now: Date,
) {
  await db
    .insertInto('platform_modules')
    .values({ module, available, updated_at: now })
    .onConflict((oc) => oc.column('module').doUpdateSet({ available, updated_at: now }))
    .execute();
}

export async function setBusinessModule(
  db: Queryable<AccountsTables>,
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

export async function familySwitch(
  db: Queryable<AccountsTables>,
  businessId: number,
  family: string,
): Promise<{ enabled: boolean; revoked: boolean }> {
  const row = await db
    .selectFrom('business_families')
    .select(['enabled', 'revoked'])
    .where('business_id', '=', businessId)
    .where('family', '=', family)
    .executeTakeFirst();
  return row ?? { enabled: false, revoked: false };
}

/** Sets one side of a family's switch (the business's `enabled`, the platform's `revoked`), keeping the other. */
export async function setFamilySwitch(
  db: Queryable<AccountsTables>,
  businessId: number,
  family: string,
  change: { enabled: boolean } | { revoked: boolean },
  now: Date,
) {
  await db
    .insertInto('business_families')
    .values({ business_id: businessId, family, enabled: false, revoked: false, ...change, updated_at: now })
    .onConflict((oc) => oc.columns(['business_id', 'family']).doUpdateSet({ ...change, updated_at: now }))
    .execute();
}

export async function insertContractorCompany(
  db: Queryable<AccountsTables>,
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

export function findContractorCompany(db: Queryable<AccountsTables>, id: number) {
  return db.selectFrom('contractor_companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The businesses a contractor company works for. */
export function engagedBusinesses(db: Queryable<AccountsTables>, contractorCompanyId: number) {
  return db
    .selectFrom('contractor_engagements as e')
    .innerJoin('businesses as b', 'b.id', 'e.business_id')
    .select(['b.id', 'b.code', 'b.name'])
    .where('e.contractor_company_id', '=', contractorCompanyId)
    .orderBy('b.id')
    .execute();
}

export async function insertUser(
  db: Queryable<AccountsTables>,
  values: Omit<UserRow, 'id' | 'disabled'> & { disabled?: boolean },
): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUserByEmail(db: Queryable<AccountsTables>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Queryable<AccountsTables>, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertToken(
  db: Queryable<AccountsTables>,
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
/** A token that is neither revoked nor expired, of an account not disabled, by its digest or its id. */
export function findLiveToken(
  db: Queryable<AccountsTables>,
  token: { hash: Buffer } | { id: number },
  now: Date,
) {
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
    .$if('hash' in token, (q) => q.where('t.token_hash', '=', (token as { hash: Buffer }).hash))
    .$if('id' in token, (q) => q.where('t.id', '=', (token as { id: number }).id))
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('u.disabled', '=', false)
    .executeTakeFirst();
}

export function findTokenOfUser(db: Queryable<AccountsTables>, tokenId: number, userId: number) {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'kind', 'profile', 'scopes', 'expires_at', 'business_scope_id'])
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function revokeToken(
  db: Queryable<AccountsTables>,
  tokenId: number,
  userId: number,
  now: Date,
): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The names of these users, in one query. */
export function userNames(db: Queryable<AccountsTables>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
}

/** A business's accounts of one kind (all of them, or those with these ids), by id. */
export function usersOfKind(
  db: Queryable<AccountsTables>,
  businessId: number,
  kind: AccountKind,
  ids?: readonly number[],
) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'disabled'])
    .where('business_id', '=', businessId)
    .where('kind', '=', kind)
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!.length ? ids! : [-1]))
    .orderBy('id')
    .execute();
}

export function findUserInBusiness(db: Queryable<AccountsTables>, userId: number, businessId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'kind', 'name'])
    .where('id', '=', userId)
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

/** A new account, unless the email is taken (then undefined: the caller decides what to say). */
export async function insertUserUnlessTaken(
  db: Queryable<AccountsTables>,
  values: Omit<UserRow, 'id' | 'disabled'> & { disabled: boolean },
): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values(values)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function insertDriverRegistration(
  db: Queryable<AccountsTables>,
  values: Omit<
    AccountsTables['driver_registrations'],
    'id' | 'decided_by' | 'decided_at' | 'reason' | 'status'
  >,
): Promise<number> {
  const row = await db
    .insertInto('driver_registrations')
    .values({ ...values, status: 'pending' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A business's registrations, newest first, with the applicant's name and email (its own table). */
export function driverRegistrationsOf(
  db: Queryable<AccountsTables>,
  businessId: number,
  filter: { status?: RegistrationStatus; limit: number; offset: number },
) {
  let query = db
    .selectFrom('driver_registrations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.user_id',
      'u.name',
      'u.email',
      'r.phone',
      'r.vehicle_type',
      'r.status',
      'r.created_at',
      'r.decided_by',
      'r.decided_at',
      'r.reason',
    ])
    .where('r.business_id', '=', businessId);
  if (filter.status) query = query.where('r.status', '=', filter.status);
  return query.orderBy('r.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

export async function countDriverRegistrations(
  db: Queryable<AccountsTables>,
  businessId: number,
  status?: RegistrationStatus,
) {
  let query = db
    .selectFrom('driver_registrations')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('business_id', '=', businessId);
  if (status) query = query.where('status', '=', status);
  return Number((await query.executeTakeFirstOrThrow()).total);
}

/** The registration, locked until the transaction ends: two admins cannot decide it at once. */
export function lockDriverRegistration(db: Queryable<AccountsTables>, businessId: number, id: number) {
  return db
    .selectFrom('driver_registrations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function decideDriverRegistration(
  db: Queryable<AccountsTables>,
  id: number,
  decision: { status: 'approved' | 'rejected'; decidedBy: number; at: Date; reason: string | null },
) {
  await db
    .updateTable('driver_registrations')
    .set({
      status: decision.status,
      decided_by: decision.decidedBy,
      decided_at: decision.at,
      reason: decision.reason,
    })
    .where('id', '=', id)
    .execute();
}

export async function enableUser(db: Queryable<AccountsTables>, userId: number) {
  await db.updateTable('users').set({ disabled: false }).where('id', '=', userId).execute();
}

export function registrationStatusOf(db: Queryable<AccountsTables>, userId: number) {
  return db
    .selectFrom('driver_registrations')
    .select('status')
    .where('user_id', '=', userId)
    .executeTakeFirst();
}
