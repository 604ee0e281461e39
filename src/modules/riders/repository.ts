import { type Insertable, sql, type Updateable } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { OfferState, RidersTables } from './tables.ts';

type Db = Queryable<RidersTables>;

/** The mean Earth radius (IUGG), as route building's straight lines use it. */
const EARTH_RADIUS_METERS = 6_371_008.8;

// ----- riders -----

/** Grants a driver instant delivery; answers false when it had the grant already. */
export async function insertRider(db: Db, businessId: number, driverId: number, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('riders')
    .values({
      driver_user_id: driverId,
      business_id: businessId,
      granted_at: at,
      online_since: null,
      idle_since: null,
      lat: null,
      lng: null,
      accuracy_meters: null,
      position_at: null,
      position_received_at: null,
      busy_order_id: null,
    })
    .onConflict((oc) => oc.columns(['business_id', 'driver_user_id']).doNothing())
    .returning('driver_user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteRider(db: Db, businessId: number, driverId: number): Promise<void> {
  await db
    .deleteFrom('riders')
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .execute();
}

/** A rider of the business; `lock`: held until the transaction ends. */
export function riderOf(db: Db, businessId: number, driverId: number, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('riders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** The business's riders, online first, then by id; only these drivers when given. */
export function ridersOf(
  db: Db,
  businessId: number,
  options: { ids?: number[]; limit: number; offset: number },
) {
  return db
    .selectFrom('riders')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(options.ids !== undefined, (q) =>
      q.where('driver_user_id', 'in', options.ids!.length ? options.ids! : [-1]),
    )
    .orderBy('online', 'desc')
    .orderBy('driver_user_id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export async function countRiders(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('riders')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateRider(
  db: Db,
  businessId: number,
  driverId: number,
  changes: Updateable<RidersTables['riders']>,
): Promise<void> {
  await db
    .updateTable('riders')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .execute();
}

/**
 * Moves a rider from the position it had when read (`rider.position_at`) to `position`; false,
 * changing nothing, when another write moved it in between.
 */
export async function moveRider(
  db: Db,
  rider: { business_id: number; driver_user_id: number; position_at: Date | null },
  position: Updateable<RidersTables['riders']>,
): Promise<boolean> {
  const moved = await db
    .updateTable('riders')
    .set(position)
    .where('business_id', '=', rider.business_id)
    .where('driver_user_id', '=', rider.driver_user_id)
    .where((eb) =>
      rider.position_at === null ? eb('position_at', 'is', null) : eb('position_at', '=', rider.position_at),
    )
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

/** The riders busy on these orders are free again (from `at`: their wait starts then). */
export async function releaseRiders(db: Db, businessId: number, orderIds: readonly number[], at: Date) {
  if (orderIds.length === 0) return;
  await db
    .updateTable('riders')
    .set({ busy_order_id: null, idle_since: at })
    .where('business_id', '=', businessId)
    .where('busy_order_id', 'in', orderIds)
    .execute();
}

/** Meters along the great circle from `origin` to a rider's last position, in SQL. */
function distanceFrom(origin: { lat: number; lng: number }) {
  const lat = sql`${origin.lat}::float8`;
  const lng = sql`${origin.lng}::float8`;
  return sql<number>`2 * ${EARTH_RADIUS_METERS}::float8 * asin(least(1, sqrt(
    power(sin(radians(r.lat - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(r.lat)) * power(sin(radians(r.lng - ${lng}) / 2), 2))))`;
}

/**
 * The riders an order may be offered to, nearest first (ties: who has waited longest): online,
 * with a position received since `freshSince`, not busy on an instant order, without another
 * offer open now, never offered this order before, and not `excluding` (those already weighed
 * for this wave).
 */
export function nearestFreeRiders(
  db: Db,
  businessId: number,
  options: {
    orderId: number;
    origin: { lat: number; lng: number };
    freshSince: Date;
    now: Date;
    limit: number;
    excluding: readonly number[];
  },
) {
  const distance = distanceFrom(options.origin);
  const waitingSince = sql<Date | null>`coalesce(r.idle_since, r.online_since)`;
  return (
    db
      .selectFrom('riders as r')
      .select(['r.driver_user_id', distance.as('distance_meters'), waitingSince.as('waiting_since')])
      .where('r.business_id', '=', businessId)
      .where('r.online', '=', true)
      .where('r.busy_order_id', 'is', null)
      .where('r.position_received_at', '>=', options.freshSince)
      .$if(options.excluding.length > 0, (q) => q.where('r.driver_user_id', 'not in', options.excluding))
      // Uncorrelated, so each is read once and looked up by hash, whatever the table statistics say.
      .where('r.driver_user_id', 'not in', (eb) =>
        eb
          .selectFrom('instant_offers as o')
          .select('o.driver_user_id')
          .where('o.business_id', '=', businessId)
          .where('o.state', '=', 'open')
          .where('o.expires_at', '>', options.now),
      )
      .where('r.driver_user_id', 'not in', (eb) =>
        eb
          .selectFrom('instant_offers as o')
          .select('o.driver_user_id')
          .where('o.order_id', '=', options.orderId),
      )
      .orderBy(distance)
      .orderBy(waitingSince)
      .orderBy('r.driver_user_id')
      .limit(options.limit)
      .execute()
  );
}

// ----- settings -----

export function settingsOf(db: Db, businessId: number) {
  return db
    .selectFrom('rider_settings')
    .select(['wave_size', 'offer_seconds', 'offer_riders_on_route'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveSettings(db: Db, settings: RidersTables['rider_settings']): Promise<void> {
  const { business_id: _business, ...changes } = settings;
  await db
    .insertInto('rider_settings')
    .values(settings)
    .onConflict((oc) => oc.column('business_id').doUpdateSet(changes))
    .execute();
}

// ----- instant dispatches and their offers -----

export async function insertDispatches(
  db: Db,
  rows: ReadonlyArray<Insertable<RidersTables['instant_dispatches']>>,
) {
  if (rows.length === 0) return;
  await db.insertInto('instant_dispatches').values(rows).execute();
}

/** An order's dispatch; `lock`: held until the transaction ends (every decision on it takes this lock). */
export function dispatchOf(db: Db, businessId: number, orderId: number, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('instant_dispatches')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function updateDispatch(
  db: Db,
  orderId: number,
  changes: Updateable<RidersTables['instant_dispatches']>,
): Promise<void> {
  await db.updateTable('instant_dispatches').set(changes).where('order_id', '=', orderId).execute();
}

/** The dispatches of these orders still offering, now withdrawn; answers their order ids. */
export async function withdrawDispatches(db: Db, businessId: number, orderIds: readonly number[], at: Date) {
  if (orderIds.length === 0) return [];
  const rows = await db
    .updateTable('instant_dispatches')
    .set({ state: 'withdrawn', updated_at: at })
    .where('business_id', '=', businessId)
    .where('order_id', 'in', orderIds)
    .where('state', '=', 'offering')
    .returning('order_id')
    .execute();
  return rows.map((row) => row.order_id);
}

export function insertOffers(db: Db, rows: ReadonlyArray<Insertable<RidersTables['instant_offers']>>) {
  return db
    .insertInto('instant_offers')
    .values(rows.map((row) => ({ ...row, reason: row.reason ? jsonb(row.reason) : null })))
    .returningAll()
    .execute();
}

/** An offer made to this rider of the business. */
export function offerOf(db: Db, businessId: number, driverId: number, offerId: number) {
  return db
    .selectFrom('instant_offers')
    .selectAll()
    .where('id', '=', offerId)
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .executeTakeFirst();
}

/** The rider's offers open now (not past their expiry), oldest first. */
export function openOffersOf(db: Db, businessId: number, driverId: number, now: Date) {
  return db
    .selectFrom('instant_offers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .where('state', '=', 'open')
    .where('expires_at', '>', now)
    .orderBy('id')
    .limit(50)
    .execute();
}

/** Every offer of an order, in the order they were made. */
export function offersOfOrder(db: Db, businessId: number, orderId: number) {
  return db
    .selectFrom('instant_offers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

/**
 * Closes the open offers of these orders (only `ids`, or the rider's, when given) as `state`;
 * answers those closed.
 */
export function closeOpenOffers(
  db: Db,
  businessId: number,
  orderIds: readonly number[],
  state: OfferState,
  at: Date,
  only: { ids?: number[]; driverId?: number } = {},
) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .updateTable('instant_offers')
    .set({ state, answered_at: at })
    .where('business_id', '=', businessId)
    .where('order_id', 'in', orderIds)
    .where('state', '=', 'open')
    .$if(only.ids !== undefined, (q) => q.where('id', 'in', only.ids!.length ? only.ids! : [-1]))
    .$if(only.driverId !== undefined, (q) => q.where('driver_user_id', '=', only.driverId!))
    .returning(['id', 'order_id', 'driver_user_id'])
    .execute();
}

/** How many offers of the order are still open. */
export async function openOfferCount(db: Db, orderId: number): Promise<number> {
  const row = await db
    .selectFrom('instant_offers')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('order_id', '=', orderId)
    .where('state', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The orders this rider holds an open offer of (going offline or losing the grant declines them). */
export async function ordersOfferedTo(db: Db, businessId: number, driverId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('instant_offers')
    .select('order_id')
    .where('business_id', '=', businessId)
    .where('driver_user_id', '=', driverId)
    .where('state', '=', 'open')
    .execute();
  return rows.map((row) => row.order_id);
}
