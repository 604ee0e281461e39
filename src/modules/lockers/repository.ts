import { type Insertable, type Selectable, sql } from 'kysely';
import { countOf, jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { LockersTables, SizeClass } from './tables.ts';

type Db = Queryable<LockersTables>;
export type SiteRow = Selectable<LockersTables['locker_sites']>;
export type DeviceRow = Selectable<LockersTables['locker_devices']>;
export type CompartmentRow = Selectable<LockersTables['locker_compartments']>;
export type BookingRow = Selectable<LockersTables['locker_bookings']>;
export type CommandRow = Selectable<LockersTables['locker_commands']>;
export type LedgerRow = Selectable<LockersTables['locker_ledger']>;
export type QuotaRow = Selectable<LockersTables['locker_quotas']>;
export type LedgerEntry = Omit<Insertable<LockersTables['locker_ledger']>, 'details'> & { details?: unknown };

// ----- sites, devices, compartments -----

export function insertSite(db: Db, row: Insertable<LockersTables['locker_sites']>) {
  return db
    .insertInto('locker_sites')
    .values({ ...row, address: jsonb(row.address) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sites the business operates, or (tenant) those where it holds a quota that has not ended. */
export function sitesOf(db: Db, businessId: number, today: string, ids?: number[]) {
  let query = db
    .selectFrom('locker_sites')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('business_id', '=', businessId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('locker_quotas')
            .select('site_id')
            .where('tenant_business_id', '=', businessId)
            .where('starts_on', '<=', today)
            .where((q) => q.or([q('ends_on', 'is', null), q('ends_on', '>=', today)])),
        ),
      ]),
    );
  if (ids) query = query.where('id', 'in', ids.length ? ids : [0]);
  return query.orderBy('id').limit(500).execute();
}

export function siteById(db: Db, id: number) {
  return db.selectFrom('locker_sites').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertDevice(db: Db, row: Insertable<LockersTables['locker_devices']>) {
  return db.insertInto('locker_devices').values(row).returningAll().executeTakeFirstOrThrow();
}

export function deviceById(db: Db, id: number) {
  return db.selectFrom('locker_devices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function devicesOfSites(db: Db, siteIds: number[]) {
  if (siteIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('locker_devices').selectAll().where('site_id', 'in', siteIds).orderBy('id').execute();
}

export function setCredential(db: Db, deviceId: number, hash: string) {
  return db
    .updateTable('locker_devices')
    .set({ credential_hash: hash })
    .where('id', '=', deviceId)
    .executeTakeFirst();
}

/** A device was heard: it is online from now until it misses its heartbeats. */
export function deviceHeard(db: Db, deviceId: number, at: Date, firmware?: string) {
  return db
    .updateTable('locker_devices')
    .set({ last_seen_at: at, ...(firmware ? { firmware } : {}) })
    .where('id', '=', deviceId)
    .execute();
}

/** A device connected: heard now, and no longer disconnected. */
export function deviceConnected(db: Db, deviceId: number, at: Date) {
  return db
    .updateTable('locker_devices')
    .set({ last_seen_at: at, disconnected_at: null })
    .where('id', '=', deviceId)
    .execute();
}

export function deviceDisconnected(db: Db, deviceId: number, at: Date) {
  return db.updateTable('locker_devices').set({ disconnected_at: at }).where('id', '=', deviceId).execute();
}

export function insertCompartments(db: Db, rows: Insertable<LockersTables['locker_compartments']>[]) {
  return db.insertInto('locker_compartments').values(rows).returningAll().execute();
}

export function compartmentsOfSites(db: Db, siteIds: number[]) {
  if (siteIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('locker_compartments')
    .selectAll()
    .where('site_id', 'in', siteIds)
    .orderBy('device_id')
    .orderBy('number')
    .execute();
}

export function compartmentOfDevice(db: Db, deviceId: number, number: number, lock = false) {
  const query = db
    .selectFrom('locker_compartments')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('number', '=', number);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function compartmentById(db: Db, id: number) {
  return db.selectFrom('locker_compartments').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Free compartments of the site with room for `volume` (cubic mm), smallest first, on devices
 * heard since `onlineSince`, locked for the caller's transaction; compartments another
 * transaction is taking are passed over. The caller picks the first whose sides fit.
 */
export function freeCompartments(
  db: Db,
  siteId: number,
  need: { sizeClass?: SizeClass; volume: number },
  onlineSince: Date,
) {
  let query = db
    .selectFrom('locker_compartments as c')
    .innerJoin('locker_devices as d', 'd.id', 'c.device_id')
    .selectAll('c')
    .where('c.site_id', '=', siteId)
    .where('c.state', '=', 'free')
    .where('d.last_seen_at', '>=', onlineSince)
    .where((eb) =>
      eb.or([eb('d.disconnected_at', 'is', null), eb('d.disconnected_at', '<', eb.ref('d.last_seen_at'))]),
    )
    .where(sql<boolean>`c.length_mm::bigint * c.width_mm * c.height_mm >= ${need.volume}`);
  if (need.sizeClass) query = query.where('c.size_class', '=', need.sizeClass);
  return query
    .orderBy(sql`c.length_mm::bigint * c.width_mm * c.height_mm`)
    .orderBy('c.id')
    .forUpdate('c')
    .skipLocked()
    .limit(50)
    .execute();
}

export function setCompartment(
  db: Db,
  id: number,
  changes: { state: CompartmentRow['state']; booking_id: number | null },
) {
  return db.updateTable('locker_compartments').set(changes).where('id', '=', id).execute();
}

// ----- bookings -----

export function insertBooking(db: Db, row: Insertable<LockersTables['locker_bookings']>) {
  return db.insertInto('locker_bookings').values(row).returningAll().executeTakeFirstOrThrow();
}

export function bookingById(db: Db, id: number, lock = false) {
  const query = db.selectFrom('locker_bookings').selectAll().where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** The booking a reference names, locked for the caller's transaction unless `lock` is false. */
export function bookingByReference(db: Db, reference: string, lock = true) {
  const query = db.selectFrom('locker_bookings').selectAll().where('reference', '=', reference);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function lastOpenCommand(db: Db, bookingId: number) {
  return db
    .selectFrom('locker_commands')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function compartmentsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('locker_compartments').selectAll().where('id', 'in', ids).execute();
}

export function updateBooking(db: Db, id: number, changes: Partial<Omit<BookingRow, 'id'>>) {
  return db
    .updateTable('locker_bookings')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

interface BookingFilter {
  siteId?: number;
  orderId?: number;
  purpose?: string;
  states?: string[];
}

/** The bookings a business may see: its own, and every one at the sites it operates. */
function visibleBookings(db: Db, businessId: number, filter: BookingFilter) {
  let query = db
    .selectFrom('locker_bookings')
    .where((eb) => eb.or([eb('business_id', '=', businessId), eb('operator_business_id', '=', businessId)]));
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  if (filter.purpose !== undefined) query = query.where('purpose', '=', filter.purpose as never);
  if (filter.states?.length) query = query.where('state', 'in', filter.states as never);
  return query;
}

export function bookingsVisibleTo(db: Db, businessId: number, filter: BookingFilter & { limit: number }) {
  return visibleBookings(db, businessId, filter).selectAll().orderBy('id').limit(filter.limit).execute();
}

/** A page of the bookings a business may see, oldest first, by page number or after a cursor's row. */
export function bookingsPage(db: Db, businessId: number, filter: BookingFilter, window: PageWindow) {
  const base = visibleBookings(db, businessId, filter);
  return pageById<Selectable<LockersTables['locker_bookings']>>(base.selectAll(), window, 'asc');
}

export function bookingsOfRelay(db: Db, relayId: number) {
  return db
    .selectFrom('locker_bookings')
    .selectAll()
    .where('relay_id', '=', relayId)
    .orderBy('hop')
    .execute();
}

/** Bookings of a tenant at a site in a size class that still hold a compartment. */
export function tenantHolding(db: Db, tenantId: number, siteId: number, sizeClass: SizeClass) {
  return db
    .selectFrom('locker_bookings as b')
    .innerJoin('locker_compartments as c', 'c.id', 'b.compartment_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('b.business_id', '=', tenantId)
    .where('b.site_id', '=', siteId)
    .where('c.size_class', '=', sizeClass)
    .where('b.state', 'in', ['reserved', 'occupied'])
    .executeTakeFirstOrThrow();
}

// ----- commands -----

export function insertCommand(db: Db, row: Insertable<LockersTables['locker_commands']>) {
  return db.insertInto('locker_commands').values(row).returningAll().executeTakeFirstOrThrow();
}

export function commandById(db: Db, id: string) {
  return db.selectFrom('locker_commands').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Answers a pending command of this device: the row as it was answered, or none (unknown, or answered already). */
export function answerCommand(
  db: Db,
  id: string,
  deviceId: number,
  answer: { status: 'acked' | 'failed'; error: string | null; answered_at: Date },
) {
  return db
    .updateTable('locker_commands')
    .set(answer)
    .where('id', '=', id)
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Pending commands past their deadline, failed (at most `limit`, oldest first), as they now are. */
export function failOverdueCommands(db: Db, now: Date, error: string, limit: number) {
  return db
    .updateTable('locker_commands')
    .set({ status: 'failed', error, answered_at: now })
    .where(
      'id',
      'in',
      db
        .selectFrom('locker_commands')
        .select('id')
        .where('status', '=', 'pending')
        .where('expires_at', '<', now)
        .orderBy('expires_at')
        .limit(limit),
    )
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
}

/** A page of a device's commands, newest first. */
export async function commandsOfDevice(db: Db, deviceId: number, window: { limit: number; offset: number }) {
  const base = db.selectFrom('locker_commands').where('device_id', '=', deviceId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('seq', 'desc').limit(window.limit).offset(window.offset).execute(),
    countOf(base),
  ]);
  return { rows, total };
}

// ----- quotas -----

export function upsertQuota(db: Db, row: Insertable<LockersTables['locker_quotas']>) {
  return db
    .insertInto('locker_quotas')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['business_id', 'site_id', 'tenant_business_id', 'size_class']).doUpdateSet({
        compartments: row.compartments,
        price_minor: row.price_minor,
        currency: row.currency,
        period: row.period,
        starts_on: row.starts_on,
        ends_on: row.ends_on ?? null,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Quotas the business sells (operator) or holds (tenant). */
export function quotasOf(db: Db, businessId: number) {
  return db
    .selectFrom('locker_quotas')
    .selectAll()
    .where((eb) => eb.or([eb('business_id', '=', businessId), eb('tenant_business_id', '=', businessId)]))
    .orderBy('id')
    .execute();
}

export function deleteQuota(db: Db, operatorId: number, id: number) {
  return db
    .deleteFrom('locker_quotas')
    .where('business_id', '=', operatorId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The tenant's quotas at a site valid today, locked so two reservations count one after the other. */
export function quotasAt(db: Db, tenantId: number, siteId: number, today: string) {
  return db
    .selectFrom('locker_quotas')
    .selectAll()
    .where('tenant_business_id', '=', tenantId)
    .where('site_id', '=', siteId)
    .where('starts_on', '<=', today)
    .where((eb) => eb.or([eb('ends_on', 'is', null), eb('ends_on', '>=', today)]))
    .orderBy('id')
    .forUpdate()
    .execute();
}

// ----- ledger -----

export function appendLedger(db: Db, entries: LedgerEntry[]) {
  if (entries.length === 0) return Promise.resolve();
  return db
    .insertInto('locker_ledger')
    .values(entries.map((entry) => ({ ...entry, details: jsonb(entry.details ?? {}) })))
    .execute()
    .then(() => undefined);
}

interface LedgerFilter {
  siteId?: number;
  compartmentId?: number;
  bookingId?: number;
  orderId?: number;
}

/** Ledger rows a business may read: every row of its own sites, and a tenant's rows of its own. */
function visibleLedger(db: Db, businessId: number, filter: LedgerFilter) {
  let query = db
    .selectFrom('locker_ledger')
    .where((eb) => eb.or([eb('business_id', '=', businessId), eb('tenant_business_id', '=', businessId)]));
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.compartmentId !== undefined) query = query.where('compartment_id', '=', filter.compartmentId);
  if (filter.bookingId !== undefined) query = query.where('booking_id', '=', filter.bookingId);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  return query;
}

/** The history of one booking, oldest first. */
export function ledgerOfBooking(db: Db, businessId: number, bookingId: number) {
  return visibleLedger(db, businessId, { bookingId }).selectAll().orderBy('id').execute();
}

/** A page of the ledger a business may read, oldest first, by page number or after a cursor's row. */
export function ledgerPage(db: Db, businessId: number, filter: LedgerFilter, window: PageWindow) {
  const base = visibleLedger(db, businessId, filter);
  return pageById<Selectable<LockersTables['locker_ledger']>>(base.selectAll(), window, 'asc');
}

// ----- luggage relays -----

export function insertRelay(db: Db, row: Insertable<LockersTables['luggage_relays']>) {
  return db
    .insertInto('luggage_relays')
    .values(row)
    .onConflict((oc) => oc.columns(['business_id', 'bag_tag']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function relayOf(db: Db, businessId: number, filter: { id?: number; bagTag?: string }) {
  let query = db.selectFrom('luggage_relays').selectAll().where('business_id', '=', businessId);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  if (filter.bagTag !== undefined) query = query.where('bag_tag', '=', filter.bagTag);
  return query.executeTakeFirst();
}
