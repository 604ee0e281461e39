import type { Queryable } from '../../platform/db/database.ts';
import type { FleetRole, FleetsTables } from './tables.ts';

type Db = Queryable<FleetsTables>;

export function fleetsOf(db: Db, businessId: number, memberId?: number) {
  let query = db
    .selectFrom('fleets')
    .selectAll('fleets')
    .select((eb) =>
      eb
        .selectFrom('fleet_members')
        .whereRef('fleet_members.fleet_id', '=', 'fleets.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('members'),
    )
    .where('fleets.business_id', '=', businessId);
  if (memberId !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('fleet_members')
          .whereRef('fleet_members.fleet_id', '=', 'fleets.id')
          .where('fleet_members.driver_user_id', '=', memberId),
      ),
    );
  }
  return query.orderBy('fleets.id').execute();
}

export function fleetById(db: Db, businessId: number, fleetId: number) {
  return db
    .selectFrom('fleets')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', fleetId)
    .executeTakeFirst();
}

export function createFleet(db: Db, businessId: number, name: string, now: Date) {
  return db
    .insertInto('fleets')
    .values({ business_id: businessId, name, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function renameFleet(db: Db, businessId: number, fleetId: number, name: string, now: Date) {
  return db
    .updateTable('fleets')
    .set({ name, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', fleetId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteFleet(db: Db, businessId: number, fleetId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('fleets')
    .where('business_id', '=', businessId)
    .where('id', '=', fleetId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

export function membersOf(db: Db, businessId: number, fleetId: number) {
  return db
    .selectFrom('fleet_members')
    .select(['driver_user_id', 'role', 'joined_at'])
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .orderBy('driver_user_id')
    .execute();
}

/** The caller's place in each of its fleets. */
export function membershipsOf(db: Db, businessId: number, driverId: number) {
  return db
    .selectFrom('fleet_members')
    .select(['fleet_id', 'role'])
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .execute();
}

export function membershipOf(db: Db, businessId: number, fleetId: number, driverId: number) {
  return db
    .selectFrom('fleet_members')
    .select(['role'])
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('driver_user_id', '=', driverId)
    .executeTakeFirst();
}

/** Adds the driver, or changes its role when it is already a member. */
export function setMember(
  db: Db,
  member: { businessId: number; fleetId: number; driverId: number; role: FleetRole },
  now: Date,
) {
  return db
    .insertInto('fleet_members')
    .values({
      fleet_id: member.fleetId,
      business_id: member.businessId,
      driver_user_id: member.driverId,
      role: member.role,
      joined_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['business_id', 'fleet_id', 'driver_user_id']).doUpdateSet({ role: member.role }),
    )
    .returning(['driver_user_id', 'role', 'joined_at'])
    .executeTakeFirstOrThrow();
}

export async function removeMember(db: Db, businessId: number, fleetId: number, driverId: number) {
  const removed = await db
    .deleteFrom('fleet_members')
    .where('business_id', '=', businessId)
    .where('fleet_id', '=', fleetId)
    .where('driver_user_id', '=', driverId)
    .executeTakeFirst();
  return removed.numDeletedRows > 0n;
}
