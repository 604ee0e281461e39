import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { ThirdPartyTables } from './tables.ts';

type Db = Queryable<ThirdPartyTables>;
export type ConnectionRow = Selectable<ThirdPartyTables['third_party_connections']>;
export type ProviderOrderRow = Selectable<ThirdPartyTables['third_party_orders']>;
export type StatusPushRow = Selectable<ThirdPartyTables['third_party_status_pushes']>;

// ----- connections -----

export function insertConnection(db: Db, row: Insertable<ThirdPartyTables['third_party_connections']>) {
  return db
    .insertInto('third_party_connections')
    .values({ ...row, mapping: jsonb(row.mapping), rules: row.rules === null ? null : jsonb(row.rules) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateConnection(
  db: Db,
  businessId: number,
  id: number,
  changes: Updateable<ThirdPartyTables['third_party_connections']>,
) {
  const values = { ...changes };
  if ('mapping' in values) values.mapping = jsonb(values.mapping);
  if ('rules' in values) values.rules = values.rules === null ? null : jsonb(values.rules);
  return db
    .updateTable('third_party_connections')
    .set(values)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function connectionOf(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('third_party_connections')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** For a push, before anyone is known: the token is checked right after. */
export function connectionById(db: Db, id: number) {
  return db.selectFrom('third_party_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export function connectionsOf(db: Db, businessId: number) {
  return db
    .selectFrom('third_party_connections')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .limit(200)
    .execute();
}

export function deleteConnection(db: Db, businessId: number, id: number) {
  return db
    .deleteFrom('third_party_connections')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Claims the connections whose pull is due: their next pull moves `leaseMs` ahead at once, so
 * another instance (or the next tick) does not pull them too; the pull's outcome sets it again.
 */
export function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number) {
  return db
    .updateTable('third_party_connections')
    .set({ next_pull_at: leaseUntil })
    .where(
      'id',
      'in',
      db
        .selectFrom('third_party_connections')
        .select('id')
        .where('active', '=', true)
        .where('next_pull_at', '<=', now)
        .orderBy('next_pull_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

// ----- provider orders -----

/** Inserts the order unless the connection already has it; undefined when it did. */
export function insertProviderOrder(db: Db, row: Insertable<ThirdPartyTables['third_party_orders']>) {
  return db
    .insertInto('third_party_orders')
    .values({ ...row, mapped: jsonb(row.mapped) })
    .onConflict((oc) => oc.columns(['business_id', 'connection_id', 'provider_order_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function providerOrderOf(db: Db, businessId: number, id: number, lock = false) {
  let query = db
    .selectFrom('third_party_orders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function providerOrderById(db: Db, id: number) {
  return db.selectFrom('third_party_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface OrderFilter {
  connectionId?: number;
  state?: ProviderOrderRow['state'];
}

/** A page of the orders the providers sent, newest first, by page number or after a cursor's row. */
export function providerOrdersOf(db: Db, businessId: number, filter: OrderFilter, window: PageWindow) {
  let query = db.selectFrom('third_party_orders').selectAll().where('business_id', '=', businessId);
  if (filter.connectionId !== undefined) query = query.where('connection_id', '=', filter.connectionId);
  if (filter.state !== undefined) query = query.where('state', '=', filter.state);
  return pageById<ProviderOrderRow>(query, window, 'desc');
}

/** Pending orders of a connection still within their deadline: the rules try them again after each pull. */
export function pendingOf(db: Db, connectionId: number, now: Date) {
  return db
    .selectFrom('third_party_orders')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('state', '=', 'pending')
    .where('accept_by', '>', now)
    .orderBy('id')
    .limit(500)
    .execute();
}

/** Pending orders whose deadline passed: no longer anyone's to accept. */
export function expirePending(db: Db, connectionId: number, now: Date) {
  return db
    .updateTable('third_party_orders')
    .set({ state: 'expired', decided_by: 'deadline', decided_at: now })
    .where('connection_id', '=', connectionId)
    .where('state', '=', 'pending')
    .where('accept_by', '<=', now)
    .execute();
}

export function decideOrder(
  db: Db,
  id: number,
  decision: Pick<
    Updateable<ThirdPartyTables['third_party_orders']>,
    'state' | 'order_id' | 'decided_by' | 'decision_reason' | 'decided_at' | 'last_error'
  >,
) {
  return db
    .updateTable('third_party_orders')
    .set(decision)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function noteOrderError(db: Db, id: number, error: string) {
  return db.updateTable('third_party_orders').set({ last_error: error }).where('id', '=', id).execute();
}

/** Orders a connection accepted since a moment (the start of the business's day): its daily capacity used. */
export async function acceptedSince(db: Db, connectionId: number, since: Date) {
  const row = await db
    .selectFrom('third_party_orders')
    .select(sql<string>`count(*)`.as('n'))
    .where('connection_id', '=', connectionId)
    .where('state', '=', 'accepted')
    .where('decided_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The provider orders behind these local orders (accepted ones only have a local order). */
export function byLocalOrders(db: Db, orderIds: readonly number[]) {
  return db
    .selectFrom('third_party_orders')
    .selectAll()
    .where('order_id', 'in', orderIds.length ? orderIds : [0])
    .execute();
}

// ----- status pushes -----

/** The next change of an order, numbered after the last one. */
export async function insertStatusPush(
  db: Db,
  row: { business_id: number; third_party_order_id: number; status: string; at: Date },
) {
  return db
    .insertInto('third_party_status_pushes')
    .values({
      ...row,
      seq: sql<number>`coalesce((select max(seq) from third_party_status_pushes where third_party_order_id = ${row.third_party_order_id}), 0) + 1`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function statusPushById(db: Db, id: number) {
  return db.selectFrom('third_party_status_pushes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether a change before this one of the same order is not at the provider yet. */
export async function earlierUnsent(db: Db, push: StatusPushRow) {
  const row = await db
    .selectFrom('third_party_status_pushes')
    .select('id')
    .where('third_party_order_id', '=', push.third_party_order_id)
    .where('seq', '<', push.seq)
    .where('sent_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function recordPushAttempt(
  db: Db,
  id: number,
  outcome: { sentAt: Date | null; error: string | null },
) {
  return db
    .updateTable('third_party_status_pushes')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      sent_at: outcome.sentAt,
      last_error: outcome.error,
    }))
    .where('id', '=', id)
    .execute();
}

export function pushesOf(db: Db, thirdPartyOrderId: number) {
  return db
    .selectFrom('third_party_status_pushes')
    .selectAll()
    .where('third_party_order_id', '=', thirdPartyOrderId)
    .orderBy('seq')
    .limit(500)
    .execute();
}
