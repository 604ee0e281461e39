import type { Insertable, Selectable } from 'kysely';
import { jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { ConsolidationTables, ParcelState } from './tables.ts';

type Db = Queryable<ConsolidationTables>;
export type SettingsRow = Selectable<ConsolidationTables['forwarding_settings']>;
export type SuiteRow = Selectable<ConsolidationTables['forwarding_suites']>;
export type ParcelRow = Selectable<ConsolidationTables['inbound_parcels']>;
export type ConsolidationRow = Selectable<ConsolidationTables['consolidations']>;

// ----- settings -----

export function settingsOf(db: Db, businessId: number) {
  return db
    .selectFrom('forwarding_settings')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export function saveSettings(db: Db, row: Insertable<ConsolidationTables['forwarding_settings']>) {
  const { business_id: _, ...update } = row;
  return db
    .insertInto('forwarding_settings')
    .values(row)
    .onConflict((oc) => oc.column('business_id').doUpdateSet(update))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ----- suites -----

export function insertSuite(db: Db, row: Insertable<ConsolidationTables['forwarding_suites']>) {
  return db
    .insertInto('forwarding_suites')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function suitesOf(db: Db, businessId: number, filter: { customerId?: number; id?: number }) {
  let query = db.selectFrom('forwarding_suites').selectAll().where('business_id', '=', businessId);
  if (filter.customerId !== undefined) query = query.where('customer_user_id', '=', filter.customerId);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  return query.orderBy('id').limit(1).execute();
}

/** A page of the business's suites (or a customer's), oldest first, by page number or cursor. */
export function suitesPage(db: Db, businessId: number, filter: { customerId?: number }, window: PageWindow) {
  const base = db
    .selectFrom('forwarding_suites')
    .where('business_id', '=', businessId)
    .$if(filter.customerId !== undefined, (q) => q.where('customer_user_id', '=', filter.customerId!));
  return pageById<Selectable<ConsolidationTables['forwarding_suites']>>(base.selectAll(), window, 'asc');
}

// ----- parcels -----

export function insertParcel(db: Db, row: Insertable<ConsolidationTables['inbound_parcels']>) {
  return db
    .insertInto('inbound_parcels')
    .values({ ...row, items: jsonb(row.items) })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function parcelsOf(
  db: Db,
  businessId: number,
  filter: {
    customerId?: number;
    ids?: number[];
    state?: ParcelState;
    carrier?: string;
    trackingNumber?: string;
    limit: number;
    lock?: boolean;
  },
) {
  let query = db.selectFrom('inbound_parcels').selectAll().where('business_id', '=', businessId);
  if (filter.customerId !== undefined) query = query.where('customer_user_id', '=', filter.customerId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [0]);
  if (filter.state !== undefined) query = query.where('state', '=', filter.state);
  if (filter.carrier !== undefined) query = query.where('carrier', '=', filter.carrier);
  if (filter.trackingNumber !== undefined) query = query.where('tracking_number', '=', filter.trackingNumber);
  query = query.orderBy('id').limit(filter.limit);
  return (filter.lock ? query.forUpdate() : query).execute();
}

/** A page of the business's inbound parcels (or a customer's), oldest first, by page number or cursor. */
export function parcelsPage(
  db: Db,
  businessId: number,
  filter: { customerId?: number; state?: ParcelState },
  window: PageWindow,
) {
  const base = db
    .selectFrom('inbound_parcels')
    .where('business_id', '=', businessId)
    .$if(filter.customerId !== undefined, (q) => q.where('customer_user_id', '=', filter.customerId!))
    .$if(filter.state !== undefined, (q) => q.where('state', '=', filter.state!));
  return pageById<Selectable<ConsolidationTables['inbound_parcels']>>(base.selectAll(), window, 'asc');
}

export function updateParcels(
  db: Db,
  businessId: number,
  ids: number[],
  changes: Partial<Omit<ParcelRow, 'id' | 'business_id' | 'items'>>,
) {
  return db
    .updateTable('inbound_parcels')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .returningAll()
    .execute();
}

// ----- provider pushes -----

/** False when the business took this event id before: a replay. */
export async function claimPush(db: Db, businessId: number, eventId: string, at: Date): Promise<boolean> {
  const row = await db
    .insertInto('forwarding_pushes')
    .values({ business_id: businessId, event_id: eventId, received_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

// ----- consolidations -----

export function insertConsolidation(db: Db, row: Insertable<ConsolidationTables['consolidations']>) {
  return db
    .insertInto('consolidations')
    .values({
      ...row,
      dropoff: jsonb(row.dropoff),
      package: jsonb(row.package),
      customs: jsonb(row.customs),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function consolidationOf(db: Db, businessId: number, id: number, options: { lock?: boolean } = {}) {
  const query = db
    .selectFrom('consolidations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export function shipConsolidation(
  db: Db,
  id: number,
  changes: Pick<ConsolidationRow, 'order_id' | 'tracking_number' | 'carrier' | 'service' | 'shipped_at'>,
) {
  return db
    .updateTable('consolidations')
    .set({ ...changes, state: 'shipped' })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
