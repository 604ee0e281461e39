import type { Insertable, Selectable, Updateable } from 'kysely';
import { pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { BookingState, ReservationsTables } from './tables.ts';

type Db = Queryable<ReservationsTables>;
export type ResourceRow = Selectable<ReservationsTables['reservation_resources']>;
export type SlotRow = Selectable<ReservationsTables['reservation_slots']>;
export type BookingRow = Selectable<ReservationsTables['reservation_bookings']>;

// ----- resources -----

export function insertResource(db: Db, row: Insertable<ReservationsTables['reservation_resources']>) {
  return db.insertInto('reservation_resources').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateResource(
  db: Db,
  businessId: number,
  id: number,
  changes: Updateable<ReservationsTables['reservation_resources']>,
) {
  return db
    .updateTable('reservation_resources')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function resourcesOf(db: Db, businessId: number, limit: number) {
  return db
    .selectFrom('reservation_resources')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function resourceOf(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('reservation_resources')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// ----- slots: the capacity rows -----

/** The slot's capacity row, made on its first booking, locked until the transaction ends. */
export async function lockSlot(db: Db, resource: ResourceRow, startsAt: Date): Promise<SlotRow> {
  await db
    .insertInto('reservation_slots')
    .values({
      business_id: resource.business_id,
      resource_id: resource.id,
      starts_at: startsAt,
      capacity: resource.capacity,
    })
    .onConflict((oc) => oc.columns(['business_id', 'resource_id', 'starts_at']).doNothing())
    .execute();
  return db
    .selectFrom('reservation_slots')
    .selectAll()
    .where('resource_id', '=', resource.id)
    .where('starts_at', '=', startsAt)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function lockSlotById(db: Db, id: number) {
  return db
    .selectFrom('reservation_slots')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function slotById(db: Db, id: number) {
  return db.selectFrom('reservation_slots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function slotsBetween(db: Db, resourceId: number, from: Date, to: Date) {
  return db
    .selectFrom('reservation_slots')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to)
    .execute();
}

export async function setTaken(db: Db, slotId: number, taken: number) {
  await db.updateTable('reservation_slots').set({ taken }).where('id', '=', slotId).execute();
}

/** Waiting people of a slot (contact confirmed) in the order they joined; locked to be promoted. */
export function firstWaiting(db: Db, slotId: number, count: number, lock = true) {
  const query = db
    .selectFrom('reservation_bookings')
    .selectAll()
    .where('slot_id', '=', slotId)
    .where('state', '=', 'waitlisted')
    .where('contact_confirmed', '=', true)
    .orderBy('id')
    .limit(count);
  return (lock ? query.forUpdate() : query).execute();
}

// ----- bookings -----

export function insertBooking(db: Db, row: Insertable<ReservationsTables['reservation_bookings']>) {
  return db.insertInto('reservation_bookings').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateBooking(
  db: Db,
  id: number,
  changes: Updateable<ReservationsTables['reservation_bookings']>,
) {
  return db
    .updateTable('reservation_bookings')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function bookingByReference(db: Db, reference: string, lock = false) {
  const query = db.selectFrom('reservation_bookings').selectAll().where('reference', '=', reference);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function bookingById(db: Db, id: number, lock = false) {
  const query = db.selectFrom('reservation_bookings').selectAll().where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** A page of the business's bookings with their slot's start, oldest first, by page number or cursor. */
export function bookingsOf(
  db: Db,
  businessId: number,
  filter: {
    resourceId?: number;
    states?: readonly BookingState[];
    from?: Date;
    to?: Date;
  },
  window: PageWindow,
) {
  let query = db
    .selectFrom('reservation_bookings as b')
    .innerJoin('reservation_slots as s', 's.id', 'b.slot_id')
    .selectAll('b')
    .select('s.starts_at')
    .where('b.business_id', '=', businessId);
  if (filter.resourceId !== undefined) query = query.where('b.resource_id', '=', filter.resourceId);
  if (filter.states?.length) query = query.where('b.state', 'in', filter.states);
  if (filter.from) query = query.where('s.starts_at', '>=', filter.from);
  if (filter.to) query = query.where('s.starts_at', '<', filter.to);
  return pageById<Selectable<ReservationsTables['reservation_bookings']> & { starts_at: Date }>(
    query,
    window,
    'asc',
    'b.id',
  );
}
