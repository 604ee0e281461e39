import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { AppsTables } from './tables.ts';

type App = AppsTables['apps'];
type Assignment = AppsTables['app_assignments'];
type Provider = AppsTables['identity_providers'];

// ----- identity providers and bindings -----

export function providers(db: Queryable<AppsTables>) {
  return db.selectFrom('identity_providers').selectAll().orderBy('code').execute();
}

export function provider(db: Queryable<AppsTables>, code: string) {
  return db.selectFrom('identity_providers').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Creates or replaces the provider of `row.code` (keeping when it was first created); answers the row. */
export function saveProvider(db: Queryable<AppsTables>, row: Provider) {
  const { created_at: _, ...changes } = row;
  return db
    .insertInto('identity_providers')
    .values(row)
    .onConflict((oc) => oc.column('code').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function binding(db: Queryable<AppsTables>, issuer: string, subject: string) {
  return db
    .selectFrom('identity_bindings')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** Binds the identity to the user; a concurrent first sign-in of the same identity keeps the first binding. */
export async function bind(db: Queryable<AppsTables>, row: AppsTables['identity_bindings']): Promise<void> {
  await db
    .insertInto('identity_bindings')
    .values(row)
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .execute();
}

export async function touchBinding(
  db: Queryable<AppsTables>,
  issuer: string,
  subject: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('identity_bindings')
    .set({ last_used_at: at })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}

// ----- apps and assignments -----

export function apps(db: Queryable<AppsTables>) {
  return db.selectFrom('apps').selectAll().orderBy('code').execute();
}

export function appByCode(db: Queryable<AppsTables>, code: string) {
  return db.selectFrom('apps').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Creates or replaces the app of `row.code` (keeping when it was first created); answers the row. */
export function saveApp(db: Queryable<AppsTables>, row: Omit<App, 'id'>) {
  const { created_at: _, ...changes } = row;
  return db
    .insertInto('apps')
    .values(row)
    .onConflict((oc) => oc.column('code').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The assignment of an app (by its code) to a business, with the app. */
export function context(db: Queryable<AppsTables>, appCode: string, businessId: number) {
  return db
    .selectFrom('app_assignments as a')
    .innerJoin('apps', 'apps.id', 'a.app_id')
    .select([
      'a.id',
      'a.business_id',
      'a.enabled',
      'a.configuration_version',
      'a.config',
      'a.updated_at',
      'apps.code as app_code',
      'apps.name as app_name',
      'apps.type as app_type',
      'apps.schema_version',
      'apps.enabled as app_enabled',
      'apps.allowed_roles',
    ])
    .where('apps.code', '=', appCode)
    .where('a.business_id', '=', businessId)
    .executeTakeFirst();
}

/** Every assignment, or those of one business, with the app's code. */
export function assignments(db: Queryable<AppsTables>, businessId?: number) {
  return db
    .selectFrom('app_assignments as a')
    .innerJoin('apps', 'apps.id', 'a.app_id')
    .select(['a.id', 'a.business_id', 'apps.code as app_code', 'a.enabled', 'a.configuration_version'])
    .$if(businessId !== undefined, (q) => q.where('a.business_id', '=', businessId!))
    .execute();
}

/** The assignment row, locked for an update that bumps its version. */
export function assignmentForUpdate(db: Queryable<AppsTables>, appId: number, businessId: number) {
  return db
    .selectFrom('app_assignments')
    .selectAll()
    .where('app_id', '=', appId)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertAssignment(
  db: Queryable<AppsTables>,
  row: Omit<Assignment, 'id'>,
): Promise<void> {
  await db
    .insertInto('app_assignments')
    .values({ ...row, config: jsonb(row.config) })
    .execute();
}

export async function updateAssignment(
  db: Queryable<AppsTables>,
  id: number,
  changes: Pick<Assignment, 'enabled' | 'configuration_version' | 'config' | 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('app_assignments')
    .set({ ...changes, config: jsonb(changes.config) })
    .where('id', '=', id)
    .execute();
}

// ----- devices -----

export async function recordDevice(db: Queryable<AppsTables>, row: AppsTables['app_devices']): Promise<void> {
  await db
    .insertInto('app_devices')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['business_id', 'assignment_id', 'user_id', 'device_id']).doUpdateSet({
        platform: row.platform,
        app_version: row.app_version,
        last_seen_at: row.last_seen_at,
      }),
    )
    .execute();
}
