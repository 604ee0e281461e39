import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { DispatchTables } from './tables.ts';

type Profile = DispatchTables['driver_profiles'];

export async function insertDepot(
  db: Queryable<DispatchTables>,
  values: Omit<DispatchTables['depots'], 'id'>,
): Promise<number> {
  return (await db.insertInto('depots').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export function depotsOf(db: Queryable<DispatchTables>, businessId: number) {
  return db.selectFrom('depots').selectAll().where('business_id', '=', businessId).orderBy('id').execute();
}

/** Saves a working profile; with `keepSkills`, a profile already saved keeps the skills it has. */
export async function upsertProfile(
  db: Queryable<DispatchTables>,
  profile: Profile,
  options: { keepSkills?: boolean } = {},
): Promise<void> {
  const { user_id: _user, skills, ...changes } = profile;
  await db
    .insertInto('driver_profiles')
    .values(profile)
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'user_id'])
        .doUpdateSet(options.keepSkills ? changes : { ...changes, skills }),
    )
    .execute();
}

/** Replaces the skills of a driver's working profile; false when the driver has none. */
export async function setProfileSkills(
  db: Queryable<DispatchTables>,
  businessId: number,
  driverId: number,
  skills: string[],
): Promise<boolean> {
  const updated = await db
    .updateTable('driver_profiles')
    .set({ skills })
    .where('business_id', '=', businessId)
    .where('user_id', '=', driverId)
    .returning('user_id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** The drivers of the business holding a skill: how many, and the first `limit` ids. */
export async function driversWithSkill(
  db: Queryable<DispatchTables>,
  businessId: number,
  code: string,
  limit: number,
): Promise<{ count: number; ids: number[] }> {
  const rows = await db
    .selectFrom('driver_profiles')
    .select(['user_id', sql<number>`count(*) OVER ()`.as('count')])
    .where('business_id', '=', businessId)
    .where(sql<boolean>`skills @> ARRAY[${code}]::text[]`)
    .orderBy('user_id')
    .limit(limit)
    .execute();
  return { count: Number(rows[0]?.count ?? 0), ids: rows.map((row) => Number(row.user_id)) };
}

/**
 * Which drivers: a contractor company's fleet, the business's own (null: drivers no contractor
 * company has), or, when absent, all of them.
 */
export type Fleet = { contractorCompanyId: number | null } | undefined;

/** The working profiles of these drivers of the business. */
export function profilesOf(db: Queryable<DispatchTables>, businessId: number, driverIds: readonly number[]) {
  if (driverIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('driver_profiles')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('user_id', 'in', driverIds)
    .execute();
}

const STOPS_PER_STATEMENT = 5000;

/**
 * Saves a plan's routes and all their stops in two statements, whatever their number; answers the
 * new route ids in the order given. A plan has one route per driver, which pairs ids with routes.
 */
export async function insertRoutes(
  db: Queryable<DispatchTables>,
  routes: ReadonlyArray<{
    route: Insertable<DispatchTables['routes']> & { driver_user_id: number };
    stops: Array<Omit<Insertable<DispatchTables['route_stops']>, 'business_id' | 'route_id'>>;
  }>,
): Promise<number[]> {
  if (routes.length === 0) return [];
  const inserted = await db
    .insertInto('routes')
    .values(routes.map(({ route }) => route))
    .returning(['id', 'driver_user_id'])
    .execute();
  const idOf = new Map(inserted.map((row) => [row.driver_user_id!, row.id]));
  const ids = routes.map(({ route }) => idOf.get(route.driver_user_id)!);
  const stops = routes.flatMap(({ route, stops }, index) =>
    stops.map((stop) => ({ ...stop, business_id: route.business_id, route_id: ids[index]! })),
  );
  // Chunks keep each statement well under PostgreSQL's 65,535 parameters.
  for (let from = 0; from < stops.length; from += STOPS_PER_STATEMENT) {
    await db
      .insertInto('route_stops')
      .values(stops.slice(from, from + STOPS_PER_STATEMENT))
      .execute();
  }
  return ids;
}

export function routesOf(
  db: Queryable<DispatchTables>,
  businessId: number,
  filter: { date?: string; driverId?: number; ids?: number[]; fleet?: Fleet },
) {
  return db
    .selectFrom('routes as r')
    .leftJoin('driver_profiles as p', 'p.user_id', 'r.driver_user_id')
    .select([
      'r.id',
      'r.driver_user_id',
      'r.route_date',
      'r.distance_meters',
      'r.departure',
      'r.return_time',
      'r.created_at',
      'r.status',
      'r.locked',
      'r.started_at',
      'r.finished_at',
      'r.distance_source',
      'r.load_weight_grams',
      'r.load_volume_cm3',
      'r.load_count',
      'r.plan_version',
      'r.depot_id',
    ])
    .where('r.business_id', '=', businessId)
    .$if(filter.date !== undefined, (q) => q.where('r.route_date', '=', filter.date!))
    .$if(filter.driverId !== undefined, (q) => q.where('r.driver_user_id', '=', filter.driverId!))
    .$if(filter.fleet !== undefined, (q) =>
      q.where('p.contractor_company_id', 'is not distinct from', filter.fleet!.contractorCompanyId),
    )
    .$if(filter.ids !== undefined, (q) => q.where('r.id', 'in', filter.ids!.length ? filter.ids! : [-1]))
    .orderBy('r.route_date', 'desc')
    .orderBy('r.id', 'desc')
    .limit(500)
    .execute();
}

/** The stops of these routes in sequence (only the business's, when it is named). */
export async function stopsOf(db: Queryable<DispatchTables>, routeIds: number[], businessId?: number) {
  if (routeIds.length === 0) return [];
  return db
    .selectFrom('route_stops')
    .selectAll()
    .where('route_id', 'in', routeIds)
    .$if(businessId !== undefined, (q) => q.where('business_id', '=', businessId!))
    .orderBy('route_id')
    .orderBy('sequence')
    .execute();
}

/**
 * Which of these ids are routes of the business; `lock` holds their rows until the transaction
 * ends (`share`: their stops cannot change meanwhile; `update`: as a writer of them).
 */
export async function routeIdsOf(
  db: Queryable<DispatchTables>,
  businessId: number,
  routeIds: readonly number[],
  lock?: 'share' | 'update',
): Promise<number[]> {
  if (routeIds.length === 0) return [];
  const rows = await db
    .selectFrom('routes')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', [...routeIds])
    .orderBy('id')
    .$if(lock === 'share', (q) => q.forShare())
    .$if(lock === 'update', (q) => q.forUpdate())
    .execute();
  return rows.map((row) => row.id);
}

/** An order's stop on a route of the business on this date (its delivery leg first), with the route's driver. */
export function stopOfOrder(
  db: Queryable<DispatchTables>,
  businessId: number,
  orderId: number,
  date: string,
) {
  return db
    .selectFrom('route_stops as s')
    .innerJoin('routes as r', 'r.id', 's.route_id')
    .select(['r.id as route_id', 'r.driver_user_id', 's.sequence'])
    .where('r.business_id', '=', businessId)
    .where('r.route_date', '=', date)
    .where('s.order_id', '=', orderId)
    .orderBy(sql`s.leg = 'delivery'`, 'desc')
    .orderBy('s.sequence')
    .limit(1)
    .executeTakeFirst();
}

/** Routes, stops and distance of each driver on each of these dates (one query, on the date index). */
export async function routeDays(db: Queryable<DispatchTables>, businessId: number, dates: string[]) {
  if (dates.length === 0) return [];
  return db
    .selectFrom('routes as r')
    .where('r.business_id', '=', businessId)
    .where('r.route_date', 'in', dates)
    .groupBy(['r.route_date', 'r.driver_user_id'])
    .select((eb) => [
      'r.route_date',
      'r.driver_user_id',
      eb.fn.countAll<number>().as('routes'),
      eb.fn.sum<number>('r.distance_meters').as('distance_meters'),
      eb.fn
        .sum<number>(
          eb
            .selectFrom('route_stops as s')
            .whereRef('s.route_id', '=', 'r.id')
            .select(eb.fn.countAll().as('n')),
        )
        .as('stops'),
    ])
    .execute();
}

export function settingsOf(db: Queryable<DispatchTables>, businessId: number) {
  return db
    .selectFrom('dispatch_settings')
    .select(['preparation_minutes', 'circuity_factor', 'average_speed_kmh', 'locker_reservation'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveSettings(
  db: Queryable<DispatchTables>,
  settings: DispatchTables['dispatch_settings'],
): Promise<void> {
  const { business_id: _business, ...changes } = settings;
  await db
    .insertInto('dispatch_settings')
    .values(settings)
    .onConflict((oc) => oc.column('business_id').doUpdateSet(changes))
    .execute();
}

/**
 * The routes of these drivers on a date, with what a rebuild asks of them: their state, whether
 * every stop is still pending, and the orders on them.
 */
export async function routesOfDrivers(
  db: Queryable<DispatchTables>,
  businessId: number,
  date: string,
  driverIds: readonly number[],
) {
  if (driverIds.length === 0) return [];
  const rows = await db
    .selectFrom('routes as r')
    .leftJoin('route_stops as s', (join) =>
      join.onRef('s.business_id', '=', 'r.business_id').onRef('s.route_id', '=', 'r.id'),
    )
    .where('r.business_id', '=', businessId)
    .where('r.route_date', '=', date)
    .where('r.driver_user_id', 'in', driverIds)
    .groupBy(['r.id', 'r.business_id'])
    .select((eb) => [
      'r.id',
      'r.driver_user_id',
      'r.status',
      'r.locked',
      eb.fn.coalesce(sql<boolean>`bool_and(s.status = 'pending')`, sql<boolean>`true`).as('all_pending'),
      sql<number[]>`coalesce(array_agg(DISTINCT s.order_id) FILTER (WHERE s.order_id IS NOT NULL), '{}')`.as(
        'order_ids',
      ),
    ])
    .orderBy('r.id')
    .execute();
  return rows.map((row) => ({ ...row, order_ids: row.order_ids.map(Number) }));
}

/** Deletes routes of the business (their stops go with them). */
export async function deleteRoutes(
  db: Queryable<DispatchTables>,
  businessId: number,
  routeIds: readonly number[],
): Promise<void> {
  if (routeIds.length === 0) return;
  await db.deleteFrom('routes').where('business_id', '=', businessId).where('id', 'in', routeIds).execute();
}

/**
 * Takes these orders off every route of the business they are stops of, in one statement;
 * answers the routes that lost stops.
 */
export async function deleteStopsOfOrders(
  db: Queryable<DispatchTables>,
  businessId: number,
  orderIds: readonly number[],
): Promise<number[]> {
  if (orderIds.length === 0) return [];
  // Fewer stops is another plan: the routes' plan versions move (plan-versions.ts).
  const routes = await db
    .updateTable('routes')
    .set((eb) => ({ plan_version: eb('plan_version', '+', 1) }))
    .where('business_id', '=', businessId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('route_stops').select('route_id').where('order_id', 'in', orderIds),
    )
    .returning('id')
    .execute();
  await db
    .deleteFrom('route_stops')
    .where('order_id', 'in', orderIds)
    .where('route_id', 'in', (eb) =>
      eb.selectFrom('routes').select('id').where('business_id', '=', businessId),
    )
    .execute();
  return routes.map((route) => route.id);
}
