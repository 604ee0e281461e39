import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { DispatchTables, PlanEditTables } from './tables.ts';

type Tables = DispatchTables & PlanEditTables;

/** Most routes of a day the suggestions look at (a board shows as many). */
export const MAX_SUGGESTION_ROUTES = 500;

/**
 * A day's routes that have a driver, each with its own depot, what its timing needs from the
 * driver's profile (depot, shift, skills) and the capacity it drives with (its vehicle's, else the
 * profile's): one statement. A driver without a profile has no row here (nothing to time the
 * route for).
 */
export function dayRoutes(db: Queryable<Tables>, businessId: number, date: string) {
  return db
    .selectFrom('routes as r')
    .innerJoin('driver_profiles as p', (join) =>
      join.onRef('p.user_id', '=', 'r.driver_user_id').on('p.business_id', '=', businessId),
    )
    .leftJoin('vehicles as v', (join) =>
      join.onRef('v.id', '=', 'r.vehicle_id').on('v.business_id', '=', businessId),
    )
    .select([
      'r.id',
      'r.status',
      'r.departure',
      'r.depot_id as route_depot_id',
      'p.depot_id',
      'p.shift_start',
      'p.shift_end',
      'p.skills',
      sql<number>`coalesce(v.capacity_weight_grams, p.capacity_weight_grams)`.as('capacity_weight_grams'),
      sql<number>`coalesce(v.capacity_volume_cm3, p.capacity_volume_cm3)`.as('capacity_volume_cm3'),
      sql<number>`coalesce(v.capacity_count, p.capacity_count)`.as('capacity_count'),
      'r.load_weight_grams',
      'r.load_volume_cm3',
      'r.load_count',
    ])
    .select((eb) => eb.ref('r.driver_user_id').$notNull().as('driver_user_id'))
    .where('r.business_id', '=', businessId)
    .where('r.route_date', '=', date)
    .where('r.driver_user_id', 'is not', null)
    .orderBy('r.id')
    .limit(MAX_SUGGESTION_ROUTES)
    .execute();
}

/** The business's available drivers' profiles. */
export function availableProfiles(db: Queryable<Tables>, businessId: number) {
  return db
    .selectFrom('driver_profiles')
    .select(['user_id', 'depot_id'])
    .where('business_id', '=', businessId)
    .where('available', '=', true)
    .orderBy('user_id')
    .execute();
}
