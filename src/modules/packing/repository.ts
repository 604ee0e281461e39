import type { Insertable, Selectable, Updateable } from 'kysely';
import { jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PackingTables } from './tables.ts';

type Db = Queryable<PackingTables>;
type PackagingRow = PackingTables['packaging_types'];

export function packagingOf(db: Db, businessId: number, filter: { ids?: number[]; active?: boolean } = {}) {
  let query = db.selectFrom('packaging_types').selectAll().where('business_id', '=', businessId);
  if (filter.ids) {
    if (filter.ids.length === 0) return Promise.resolve([]);
    query = query.where('id', 'in', filter.ids);
  }
  if (filter.active !== undefined) query = query.where('active', '=', filter.active);
  return query.orderBy('id').execute();
}

export function countPackaging(db: Db, businessId: number) {
  return db
    .selectFrom('packaging_types')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
}

export function insertPackaging(db: Db, row: Insertable<PackagingRow>) {
  return db.insertInto('packaging_types').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updatePackaging(db: Db, businessId: number, id: number, changes: Updateable<PackagingRow>) {
  return db
    .updateTable('packaging_types')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deletePackaging(db: Db, businessId: number, id: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('packaging_types')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

export function insertPackingPlan(
  db: Db,
  row: Omit<Insertable<PackingTables['packing_plans']>, 'request' | 'answer'> & {
    request: unknown;
    answer: unknown;
  },
) {
  return db
    .insertInto('packing_plans')
    .values({ ...row, request: jsonb(row.request), answer: jsonb(row.answer) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function packingPlanById(db: Db, businessId: number, id: number, lock = false) {
  let query = db
    .selectFrom('packing_plans')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A page of the business's plans, newest first. */
export function packingPlansOf(
  db: Db,
  businessId: number,
  filter: { orderId?: number },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('packing_plans').selectAll().where('business_id', '=', businessId);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  return pageById<Selectable<PackingTables['packing_plans']>>(query, page, 'desc');
}

export function savePackingAnswer(db: Db, businessId: number, id: number, answer: unknown, at: Date) {
  return db
    .updateTable('packing_plans')
    .set({ answer: jsonb(answer), updated_at: at, applied_at: null })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function markApplied(db: Db, businessId: number, id: number, orderId: number, at: Date) {
  return db
    .updateTable('packing_plans')
    .set({ order_id: orderId, applied_at: at, updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function spacesOf(db: Db, businessId: number) {
  return db
    .selectFrom('loading_spaces')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
}

export function spaceById(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('loading_spaces')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertSpace(
  db: Db,
  row: Omit<Insertable<PackingTables['loading_spaces']>, 'cross_section' | 'axles'> & {
    cross_section: Array<[number, number]> | null;
    axles: PackingTables['loading_spaces']['axles'];
  },
) {
  return db
    .insertInto('loading_spaces')
    .values({
      ...row,
      cross_section: row.cross_section && jsonb(row.cross_section),
      axles: row.axles && jsonb(row.axles),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSpace(db: Db, businessId: number, id: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('loading_spaces')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

type LoadPlanRow = PackingTables['load_plans'];

/** How a route's plan stands against its route: what it loaded, and what differs now. */
export type Following = Pick<Updateable<LoadPlanRow>, 'basis' | 'changes' | 'stale_since' | 'replan_job_id'>;

/** The jsonb columns of a plan's row, as values PostgreSQL takes. */
function jsonColumns<T extends { basis?: unknown; changes?: unknown }>(row: T): T {
  return {
    ...row,
    ...(row.basis !== undefined && { basis: row.basis === null ? null : jsonb(row.basis) }),
    ...(row.changes !== undefined && { changes: jsonb(row.changes) }),
  };
}

export function insertLoadPlan(
  db: Db,
  row: Omit<Insertable<LoadPlanRow>, 'space' | 'request' | 'answer'> & {
    space: unknown;
    request: unknown;
    answer: unknown;
  },
) {
  return db
    .insertInto('load_plans')
    .values(
      jsonColumns({
        ...row,
        space: jsonb(row.space),
        request: jsonb(row.request),
        answer: jsonb(row.answer),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A plan of the business; `lock` holds its row until the transaction ends. */
export function loadPlanById(db: Db, businessId: number, id: number, lock = false) {
  return db
    .selectFrom('load_plans')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** The plans that follow these routes (made from a route), their rows held, in id order. */
export function followingPlans(db: Db, businessId: number, routeIds: readonly number[]) {
  return db
    .selectFrom('load_plans')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', 'in', routeIds.length ? [...routeIds] : [-1])
    .where('basis', 'is not', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** A plan's new answer (planned again), or how it stands against its route now. */
export function updateLoadPlan(
  db: Db,
  businessId: number,
  id: number,
  changes: Following &
    Pick<Updateable<LoadPlanRow>, 'planned_at' | 'planned_by' | 'planned_token_id'> & {
      answer?: unknown;
    },
) {
  const { answer, ...rest } = changes;
  return db
    .updateTable('load_plans')
    .set(jsonColumns({ ...rest, ...(answer !== undefined && { answer: jsonb(answer) }) }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function loadingSettingsOf(db: Db, businessId: number) {
  return db
    .selectFrom('loading_settings')
    .select(['replan_automatically', 'updated_at'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveLoadingSettings(db: Db, settings: PackingTables['loading_settings']) {
  const { business_id: _business, ...changes } = settings;
  await db
    .insertInto('loading_settings')
    .values(settings)
    .onConflict((oc) => oc.column('business_id').doUpdateSet(changes))
    .execute();
}

/** A page of the business's plans, newest first. */
export function loadPlansOf(
  db: Db,
  businessId: number,
  filter: { routeId?: number },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('load_plans').selectAll().where('business_id', '=', businessId);
  if (filter.routeId !== undefined) query = query.where('route_id', '=', filter.routeId);
  return pageById<Selectable<PackingTables['load_plans']>>(query, page, 'desc');
}
