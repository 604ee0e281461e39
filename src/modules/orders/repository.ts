import { type QueryCreator, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { countOf, pageById, type Queryable } from '../../platform/db/database.ts';
import { NO_ROWS, type PageWindow, type ReadPage } from '../../platform/pagination.ts';
import type { OrderFamily } from './schemas.ts';
import type { OrderStatus } from './statuses.ts';
import type { OrdersTables } from './tables.ts';

type OrderRow = OrdersTables['orders'];
export type StoredOrder = Omit<OrderRow, 'id'> & { id: number };
export type StoredPackage = Omit<OrdersTables['packages'], 'id'> & { id: number };

export async function trackingPrefix(
  db: Queryable<OrdersTables>,
  businessId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('order_settings')
    .select('tracking_prefix')
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row?.tracking_prefix;
}

export async function insertOrder(
  db: Queryable<OrdersTables>,
  values: Omit<OrderRow, 'id'>,
): Promise<number> {
  const row = await db
    .insertInto('orders')
    .values({
      ...values,
      pickup: json(values.pickup),
      dropoff: json(values.dropoff),
      surcharges: json(values.surcharges),
      price_details: json(values.price_details),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPackage(
  db: Queryable<OrdersTables>,
  values: Omit<OrdersTables['packages'], 'id'>,
): Promise<void> {
  await db.insertInto('packages').values(values).execute();
}

/** Many orders in one statement; their ids by order reference (unique in a business). */
export async function insertOrders(
  db: Queryable<OrdersTables>,
  rows: ReadonlyArray<Omit<OrderRow, 'id'>>,
): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const inserted = await db
    .insertInto('orders')
    .values(
      rows.map((values) => ({
        ...values,
        pickup: json(values.pickup),
        dropoff: json(values.dropoff),
        surcharges: json(values.surcharges),
        price_details: json(values.price_details),
      })),
    )
    .returning(['id', 'order_ref'])
    .execute();
  return new Map(inserted.map((row) => [row.order_ref, Number(row.id)]));
}

/** Many packages in one statement, answered with their ids. */
export async function insertPackages(
  db: Queryable<OrdersTables>,
  rows: ReadonlyArray<Omit<OrdersTables['packages'], 'id'>>,
): Promise<StoredPackage[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('packages')
    .values([...rows])
    .returningAll()
    .execute();
  return inserted.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Many orders' status, route and time set in one statement, each to its own values. */
export async function saveOrderStates(
  db: Queryable<OrdersTables>,
  businessId: number,
  states: ReadonlyArray<Pick<StoredOrder, 'id' | 'status' | 'route_id' | 'driver_user_id' | 'updated_at'>>,
): Promise<void> {
  if (states.length === 0) return;
  await sql`
    UPDATE orders o
    SET status = v.status, route_id = v.route_id, driver_user_id = v.driver_user_id, updated_at = v.updated_at
    FROM unnest(
      ${states.map((state) => state.id)}::bigint[],
      ${states.map((state) => state.status)}::text[],
      ${states.map((state) => state.route_id)}::bigint[],
      ${states.map((state) => state.driver_user_id)}::bigint[],
      ${states.map((state) => state.updated_at)}::timestamptz[]
    ) AS v(id, status, route_id, driver_user_id, updated_at)
    WHERE o.business_id = ${businessId} AND o.id = v.id`.execute(db);
}

export interface OrderFilter {
  statuses?: OrderStatus[];
  scheduledDate?: string;
  orderRef?: string;
  trackingNumber?: string;
  routeIds?: number[];
  ids?: number[];
  orderRefs?: string[];
  family?: OrderFamily;
  /** Only orders the business delivers itself (no third-party carrier holds them). */
  selfDelivery?: boolean;
  driverId?: number;
  customerUserId?: number;
  /** Only orders inside one of the areas (a contractor's rules) or among the ids. */
  reach?: { areas: ServiceArea[]; orderIds: number[] };
  excludeIds?: number[];
  /** Only orders whose leg planning needs has no coordinates (see locations.ts, neededLegs). */
  lacksLocation?: boolean;
  /** Words found, case-insensitively, in the reference, a tracking number, a name or an address line. */
  search?: string;
}

/** Orders whose service address has a postal code with one of the prefixes, scheduled in the range. */
export interface ServiceArea {
  /** Upper case, without spaces. */
  postalPrefixes: string[];
  from: string;
  /** Inclusive; null for open-ended. */
  to: string | null;
}

/** The postal code of where the driver goes: the pickup of a pickup order, the drop-off otherwise. */
const servicePostalCode = sql<string>`upper(regexp_replace(coalesce(
  (CASE WHEN o.type = 'P' THEN o.pickup ELSE o.dropoff END) ->> 'postal_code', ''), '[[:space:]]', '', 'g'))`;

/** The drop-off of a D or P2P order, or the pickup of a P or P2P order, lacks a latitude or longitude. */
const lacksLocation = sql<boolean>`(
  (o.type IN ('D', 'P2P') AND (o.dropoff ->> 'lat' IS NULL OR o.dropoff ->> 'lng' IS NULL))
  OR (o.type IN ('P', 'P2P') AND (o.pickup ->> 'lat' IS NULL OR o.pickup ->> 'lng' IS NULL)))`;

/**
 * The order's reference, a package's tracking number, or the name or first address line of its
 * drop-off or pickup contains the words, whatever their case. The words' own % and _ are matched
 * as themselves, not as wildcards.
 */
function matchesWords(words: string) {
  const pattern = `%${words.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql<boolean>`(o.order_ref ILIKE ${pattern}
    OR o.dropoff ->> 'name' ILIKE ${pattern} OR o.dropoff ->> 'line1' ILIKE ${pattern}
    OR o.pickup ->> 'name' ILIKE ${pattern} OR o.pickup ->> 'line1' ILIKE ${pattern}
    OR EXISTS (SELECT 1 FROM packages p WHERE p.order_id = o.id AND p.tracking_number ILIKE ${pattern}))`;
}

function inArea(area: ServiceArea) {
  return sql<boolean>`(o.scheduled_date >= ${area.from}::date
    AND (${area.to}::date IS NULL OR o.scheduled_date <= ${area.to}::date)
    AND EXISTS (SELECT 1 FROM unnest(${area.postalPrefixes}::text[]) AS prefix
                WHERE starts_with(${servicePostalCode}, prefix)))`;
}

function filtered(db: Queryable<OrdersTables>, businessId: number, filter: OrderFilter) {
  return db
    .selectFrom('orders as o')
    .where('o.business_id', '=', businessId)
    .$if(filter.statuses !== undefined, (q) => q.where('o.status', 'in', filter.statuses!))
    .$if(filter.scheduledDate !== undefined, (q) => q.where('o.scheduled_date', '=', filter.scheduledDate!))
    .$if(filter.orderRef !== undefined, (q) => q.where('o.order_ref', '=', filter.orderRef!))
    .$if(filter.ids !== undefined, (q) => q.where('o.id', 'in', filter.ids!))
    .$if(filter.orderRefs !== undefined, (q) => q.where('o.order_ref', 'in', filter.orderRefs!))
    .$if(filter.routeIds !== undefined, (q) => q.where('o.route_id', 'in', filter.routeIds!))
    .$if(filter.family !== undefined, (q) => q.where('o.family', '=', filter.family!))
    .$if(filter.selfDelivery === true, (q) => q.where('o.carrier', 'is', null))
    .$if(filter.driverId !== undefined, (q) => q.where('o.driver_user_id', '=', filter.driverId!))
    .$if(filter.customerUserId !== undefined, (q) =>
      q.where('o.customer_user_id', '=', filter.customerUserId!),
    )
    .$if(filter.reach !== undefined, (q) =>
      q.where((eb) => {
        const { areas, orderIds } = filter.reach!;
        return eb.or([...areas.map(inArea), ...(orderIds.length ? [eb('o.id', 'in', orderIds)] : [])]);
      }),
    )
    .$if(filter.lacksLocation === true, (q) => q.where(lacksLocation))
    .$if(filter.search !== undefined, (q) => q.where(matchesWords(filter.search!)))
    .$if((filter.excludeIds?.length ?? 0) > 0, (q) => q.where('o.id', 'not in', filter.excludeIds!))
    .$if(filter.trackingNumber !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('packages as p')
            .select('p.id')
            .whereRef('p.order_id', '=', 'o.id')
            .where('p.tracking_number', '=', filter.trackingNumber!),
        ),
      ),
    );
}

export async function countOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  filter: OrderFilter,
): Promise<number> {
  if (isEmptyList(filter)) return 0;
  const row = await filtered(db, businessId, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function listOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  filter: OrderFilter,
  page: { limit: number; offset: number },
): Promise<StoredOrder[]> {
  if (isEmptyList(filter)) return [];
  return filtered(db, businessId, filter)
    .selectAll('o')
    .orderBy('o.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A page of the orders of a filter, newest first, by page number or after a cursor's row. */
export function pageOfOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  filter: OrderFilter,
  window: PageWindow,
): Promise<ReadPage<StoredOrder>> {
  if (isEmptyList(filter)) return Promise.resolve(NO_ROWS);
  return pageById<StoredOrder>(filtered(db, businessId, filter).selectAll('o'), window, 'desc', 'o.id');
}

/** An `in ()` on an empty list matches nothing; say so without asking the database. */
function isEmptyList(filter: OrderFilter): boolean {
  const unreachable =
    filter.reach !== undefined && filter.reach.areas.length + filter.reach.orderIds.length === 0;
  return (
    unreachable ||
    [filter.ids, filter.orderRefs, filter.routeIds, filter.statuses].some((list) => list?.length === 0)
  );
}

export function findOrder(
  db: Queryable<OrdersTables>,
  businessId: number,
  id: number,
  options: { lock?: boolean } = {},
) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * Orders' whole rows, locked for update in id order, each with its packages' ids and numbers:
 * what a status change reads, in one round trip whatever the number of orders.
 */
export function lockOrdersWithPackages(
  db: Queryable<OrdersTables>,
  businessId: number,
  ids: readonly number[],
) {
  return db
    .selectFrom('orders as o')
    .selectAll('o')
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('packages as p')
          .select(['p.id', 'p.tracking_number'])
          .whereRef('p.order_id', '=', 'o.id')
          .whereRef('p.business_id', '=', 'o.business_id')
          .orderBy('p.id'),
      ).as('packages'),
    )
    .where('o.business_id', '=', businessId)
    .where('o.id', 'in', [...new Set(ids)])
    .orderBy('o.id')
    .forUpdate()
    .execute();
}

/** Whole rows of these orders of the business, optionally locked for update, in id order. */
export function findOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  ids: readonly number[],
  options: { lock?: boolean } = {},
) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('orders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .orderBy('id')
    .$if(options.lock === true, (q) => q.forUpdate())
    .execute();
}

/** Puts many orders on routes in one statement: PLANNED, each with its route and driver. */
export async function planOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  plans: ReadonlyArray<{ orderId: number; routeId: number; driverId: number }>,
  at: Date,
): Promise<void> {
  if (plans.length === 0) return;
  const planned: OrderStatus = 'PLANNED';
  await sql`
    UPDATE orders o
    SET status = ${planned}, route_id = v.route_id, driver_user_id = v.driver_user_id, updated_at = ${at}
    FROM unnest(
      ${plans.map((plan) => plan.orderId)}::bigint[],
      ${plans.map((plan) => plan.routeId)}::bigint[],
      ${plans.map((plan) => plan.driverId)}::bigint[]
    ) AS v(id, route_id, driver_user_id)
    WHERE o.business_id = ${businessId} AND o.id = v.id`.execute(db);
}

/** Sends planned orders back to the planning pool, set-based: NEW_ORDER, on no route. */
export async function returnOrdersToPool(
  db: Queryable<OrdersTables>,
  businessId: number,
  orderIds: readonly number[],
  at: Date,
): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .updateTable('orders')
    .set({ status: 'NEW_ORDER', route_id: null, driver_user_id: null, updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', 'in', orderIds)
    .execute();
}

export function lockOrders(db: Queryable<OrdersTables>, businessId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('orders')
    .select(['id', 'order_ref', 'status', 'family', 'carrier', 'route_id', 'scheduled_date'])
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * The business's packages behind these tracking numbers with their orders' facts, the orders
 * locked (in id order, as lockOrders), in one round trip: what a scan reads first.
 */
export function lockOrdersOfPackages(db: Queryable<OrdersTables>, businessId: number, numbers: string[]) {
  if (numbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('packages as p')
    .innerJoin('orders as o', 'o.id', 'p.order_id')
    .select([
      'p.id as package_id',
      'p.tracking_number',
      'o.id',
      'o.order_ref',
      'o.status',
      'o.family',
      'o.carrier',
      'o.route_id',
      'o.scheduled_date',
      'o.pickup',
      'o.dropoff',
    ])
    .where('p.business_id', '=', businessId)
    .where('o.business_id', '=', businessId)
    .where('p.tracking_number', 'in', numbers)
    .orderBy('o.id')
    .orderBy('p.id')
    .forUpdate('o')
    .execute();
}

export function packagesOf(
  db: Queryable<OrdersTables>,
  businessId: number,
  orderIds: number[],
): Promise<StoredPackage[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('packages')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', 'in', orderIds)
    .orderBy('id')
    .execute();
}

/** Across businesses, on purpose: a tracking number is unique in the whole service. */
export function packagesByTrackingNumber(
  db: Queryable<OrdersTables>,
  trackingNumbers: string[],
  businessId?: number,
) {
  if (trackingNumbers.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('packages')
    .select(['id', 'business_id', 'order_id', 'tracking_number'])
    .where('tracking_number', 'in', trackingNumbers);
  if (businessId !== undefined) query = query.where('business_id', '=', businessId);
  return query.execute();
}

/** Changes an order's row; with `events`, appends them to its audit trail in the same statement. */
export async function updateOrder(
  db: Queryable<OrdersTables>,
  businessId: number,
  id: number,
  changes: Partial<Omit<OrderRow, 'id' | 'business_id'>>,
  events: ReadonlyArray<Omit<OrdersTables['order_events'], 'id'>> = [],
): Promise<void> {
  await updateOrders(db, businessId, [id], changes, events);
}

/** The same change to several orders, with their audit events, in one statement. */
export async function updateOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  ids: readonly number[],
  changes: Partial<Omit<OrderRow, 'id' | 'business_id'>>,
  events: ReadonlyArray<Omit<OrdersTables['order_events'], 'id'>> = [],
): Promise<void> {
  if (ids.length === 0) return;
  const values: Record<string, unknown> = { ...changes };
  for (const field of ['pickup', 'dropoff', 'surcharges', 'price_details'] as const) {
    if (field in changes) values[field] = json(changes[field] ?? null);
  }
  const update = (q: QueryCreator<OrdersTables>) =>
    q
      .updateTable('orders')
      .set(values)
      .where('business_id', '=', businessId)
      .where('id', 'in', [...ids]);
  if (events.length === 0) {
    await update(db).execute();
    return;
  }
  await db
    .with('changed', (q) => update(q))
    .insertInto('order_events')
    .values(events.map((event) => ({ ...event, changes: json(event.changes) as never })))
    .execute();
}

export async function movePackages(
  db: Queryable<OrdersTables>,
  businessId: number,
  fromOrder: number,
  toOrder: number,
) {
  await db
    .updateTable('packages')
    .set({ order_id: toOrder })
    .where('business_id', '=', businessId)
    .where('order_id', '=', fromOrder)
    .execute();
}

export async function insertEvent(
  db: Queryable<OrdersTables>,
  event: Omit<OrdersTables['order_events'], 'id'>,
): Promise<void> {
  await db
    .insertInto('order_events')
    .values({ ...event, changes: json(event.changes) as never })
    .execute();
}

/** Many audit events in one statement. */
export async function insertEvents(
  db: Queryable<OrdersTables>,
  events: ReadonlyArray<Omit<OrdersTables['order_events'], 'id'>>,
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('order_events')
    .values(events.map((event) => ({ ...event, changes: json(event.changes) as never })))
    .execute();
}

export async function eventsOf(db: Queryable<OrdersTables>, businessId: number, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('order_events as e')
    .innerJoin('orders as o', 'o.id', 'e.order_id')
    .select([
      'e.id',
      'e.order_id',
      'o.order_ref',
      'e.at',
      'e.actor_user_id',
      'e.source',
      'e.action',
      'e.changes',
    ])
    .where('e.business_id', '=', businessId)
    .where('e.order_id', 'in', orderIds)
    .orderBy('e.at')
    .orderBy('e.id')
    .execute();
}

export async function countByStatus(db: Queryable<OrdersTables>, businessId: number, scheduledDate: string) {
  return db
    .selectFrom('orders')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('business_id', '=', businessId)
    .where('scheduled_date', '=', scheduledDate)
    .groupBy('status')
    .execute();
}

/** Orders needing attention: failed attempts, held orders, and open orders past their date or window. */
export async function exceptionalOrders(
  db: Queryable<OrdersTables>,
  businessId: number,
  today: string,
  nowTime: string,
  openStatuses: OrderStatus[],
  window: { limit: number; offset: number },
) {
  const base = db
    .selectFrom('orders')
    .where('business_id', '=', businessId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['FAILED_ATTEMPT', 'HOLD']),
        eb.and([
          eb('status', 'in', openStatuses),
          eb.or([
            eb('scheduled_date', '<', today),
            eb.and([eb('scheduled_date', '=', today), eb('window_end', '<', nowTime)]),
          ]),
        ]),
      ]),
    );
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('scheduled_date')
      .orderBy('id')
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
    countOf(base),
  ]);
  return { rows, total };
}

/** Orders of the business in these statuses that need a skill: how many, and the first `limit` ids. */
export async function ordersNeedingSkill(
  db: Queryable<OrdersTables>,
  businessId: number,
  code: string,
  statuses: readonly OrderStatus[],
  limit: number,
): Promise<{ count: number; ids: number[] }> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', sql<number>`count(*) OVER ()`.as('count')])
    .where('business_id', '=', businessId)
    .where('status', 'in', statuses)
    .where(sql<boolean>`required_skills @> ARRAY[${code}]::text[]`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return { count: Number(rows[0]?.count ?? 0), ids: rows.map((row) => Number(row.id)) };
}

/** jsonb parameters must be sent as JSON text; pg would turn a JS array into a PostgreSQL array. */
export function json<T>(value: T): T {
  return (value === null || value === undefined ? null : sql`${JSON.stringify(value)}::jsonb`) as T;
}
