import { type Insertable, type Selectable, sql } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { PackageState, WarehousesTables } from './tables.ts';

type Db = Queryable<WarehousesTables>;
export type WarehouseRow = Selectable<WarehousesTables['warehouses']>;
export type LocationRow = Selectable<WarehousesTables['warehouse_locations']>;
export type PackageRow = WarehousesTables['warehouse_packages'];
export type TransferRow = Selectable<WarehousesTables['warehouse_transfers']>;

/** The states of a package still inside its warehouse (loaded ones stand on the van's dock). */
export const IN_HOUSE: readonly PackageState[] = ['received', 'stored', 'sorted'];

// ----- warehouses and locations -----

export async function insertWarehouse(db: Db, row: Insertable<WarehousesTables['warehouses']>) {
  const { id } = await db
    .insertInto('warehouses')
    .values({ ...row, opening_hours: jsonb(row.opening_hours) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateWarehouse(
  db: Db,
  businessId: number,
  id: number,
  changes: Partial<Omit<Insertable<WarehousesTables['warehouses']>, 'id' | 'business_id' | 'created_at'>>,
): Promise<boolean> {
  const row = await db
    .updateTable('warehouses')
    .set({
      ...changes,
      ...(changes.opening_hours === undefined ? {} : { opening_hours: jsonb(changes.opening_hours) }),
    })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export function warehousesOf(db: Db, businessId: number, ids?: number[]): Promise<WarehouseRow[]> {
  return db
    .selectFrom('warehouses')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!.length ? ids! : [-1]))
    .orderBy('code')
    .execute() as Promise<WarehouseRow[]>;
}

export function findWarehouse(db: Db, businessId: number, id: number, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('warehouses')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst() as Promise<WarehouseRow | undefined>;
}

export async function insertLocation(db: Db, row: Insertable<WarehousesTables['warehouse_locations']>) {
  const { id } = await db
    .insertInto('warehouse_locations')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function locationsOf(db: Db, businessId: number, warehouseIds: number[]): Promise<LocationRow[]> {
  if (warehouseIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('warehouse_locations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('warehouse_id', 'in', warehouseIds)
    .orderBy('warehouse_id')
    .orderBy('code')
    .execute() as Promise<LocationRow[]>;
}

/** Locks locations in id order (two moves between the same pair never deadlock). */
export function lockLocations(db: Db, warehouseId: number, ids: number[]): Promise<LocationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('warehouse_locations')
    .selectAll()
    .where('warehouse_id', '=', warehouseId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute() as Promise<LocationRow[]>;
}

/** Changes a location (its row already locked by the caller): the location as it now is. */
export function updateLocation(
  db: Db,
  id: number,
  changes: Partial<Pick<WarehousesTables['warehouse_locations'], 'code' | 'kind' | 'capacity'>>,
) {
  return db
    .updateTable('warehouse_locations')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<LocationRow>;
}

export async function addOccupancy(db: Db, locationId: number, delta: number): Promise<void> {
  await db
    .updateTable('warehouse_locations')
    .set({ occupied: sql`occupied + ${delta}` })
    .where('id', '=', locationId)
    .execute();
}

/**
 * Takes room for `parcels` at a location if it has it, in one statement under the location's
 * row lock: the location as it now is, or nothing (unknown, or full: the caller tells which).
 */
export function takeRoom(db: Db, warehouseId: number, locationId: number, parcels: number) {
  return db
    .updateTable('warehouse_locations')
    .set({ occupied: sql`occupied + ${parcels}` })
    .where('warehouse_id', '=', warehouseId)
    .where('id', '=', locationId)
    .where(sql<boolean>`occupied + ${parcels} <= capacity`)
    .returningAll()
    .executeTakeFirst() as Promise<LocationRow | undefined>;
}

// ----- staff -----

export async function replaceStaff(
  db: Db,
  businessId: number,
  warehouseId: number,
  userIds: number[],
  grantedBy: number | null,
  at: Date,
) {
  await db.deleteFrom('warehouse_staff').where('warehouse_id', '=', warehouseId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('warehouse_staff')
    .values(
      userIds.map((userId) => ({
        business_id: businessId,
        warehouse_id: warehouseId,
        user_id: userId,
        granted_by: grantedBy,
        granted_at: at,
      })),
    )
    .execute();
}

export function staffOf(db: Db, warehouseIds: number[]) {
  if (warehouseIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('warehouse_staff')
    .select(['warehouse_id', 'user_id'])
    .where('warehouse_id', 'in', warehouseIds)
    .orderBy('user_id')
    .execute();
}

export async function isStaff(db: Db, warehouseId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('warehouse_staff')
    .select('user_id')
    .where('warehouse_id', '=', warehouseId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

// ----- packages -----

export function packageRows(
  db: Db,
  businessId: number,
  packageIds: number[],
  options: { lock?: boolean } = {},
) {
  if (packageIds.length === 0) return Promise.resolve([] as PackageRow[]);
  return db
    .selectFrom('warehouse_packages')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('package_id', 'in', packageIds)
    .orderBy('package_id')
    .$if(options.lock === true, (q) => q.forUpdate())
    .execute();
}

/** The business's parcels in its warehouses with one of these tracking numbers, at most 50. */
export function packagesByTrackingNumbers(db: Db, businessId: number, numbers: string[]) {
  if (numbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('warehouse_packages')
    .select(['package_id', 'order_id', 'warehouse_id', 'tracking_number', 'state', 'received_at'])
    .where('business_id', '=', businessId)
    .where('tracking_number', 'in', numbers)
    .orderBy('package_id')
    .limit(50)
    .execute();
}

/** A package's row by its tracking number, locked. */
export function lockPackageRowByNumber(db: Db, businessId: number, trackingNumber: string) {
  return db
    .selectFrom('warehouse_packages')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('tracking_number', '=', trackingNumber)
    .forUpdate()
    .executeTakeFirst();
}

export type MovementRow = Omit<Insertable<WarehousesTables['warehouse_movements']>, 'before' | 'after'> & {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const movementValues = (row: MovementRow) => ({
  ...row,
  before: row.before === null ? null : jsonb(row.before),
  after: row.after === null ? null : jsonb(row.after),
});

/**
 * A package's row as it now is, with the movement that made it so, in one statement: the
 * movement is inserted and the row (new or not) points at it, whatever it pointed at before.
 */
export async function savePackage(
  db: Db,
  movement: MovementRow,
  saved: Omit<PackageRow, 'last_movement_id'> & { last_movement_id?: number },
): Promise<void> {
  const { last_movement_id: _replaced, ...row } = saved;
  const { package_id: _id, ...changes } = row;
  await db
    .with('m', (q) => q.insertInto('warehouse_movements').values(movementValues(movement)).returning('id'))
    .insertInto('warehouse_packages')
    .columns([...(Object.keys(row) as Array<keyof typeof row>), 'last_movement_id'])
    .expression((eb) =>
      eb
        .selectFrom('m')
        .select([
          ...Object.entries(row).map(([column, value]) => eb.val(value).as(column)),
          'm.id as last_movement_id',
        ]),
    )
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'package_id'])
        .doUpdateSet((eb) => ({ ...changes, last_movement_id: eb.ref('excluded.last_movement_id') })),
    )
    .execute();
}

/**
 * `savePackage` for many packages in one statement (a batch received): each movement inserted,
 * and each package's row pointing at its own. One row a package.
 */
export async function savePackages(
  db: Db,
  saved: ReadonlyArray<{ movement: MovementRow; row: Omit<PackageRow, 'last_movement_id'> }>,
): Promise<void> {
  if (saved.length === 0) return;
  const columns = Object.keys(saved[0]!.row) as Array<keyof Omit<PackageRow, 'last_movement_id'>>;
  const changed = columns.filter((column) => column !== 'business_id' && column !== 'package_id');
  await db
    .with('m', (q) =>
      q
        .insertInto('warehouse_movements')
        .values(saved.map(({ movement }) => movementValues(movement)))
        .returning(['id', 'package_id']),
    )
    .insertInto('warehouse_packages')
    .columns([...columns, 'last_movement_id'])
    .expression(
      sql`SELECT ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))}, m.id
          FROM jsonb_populate_recordset(NULL::warehouse_packages, ${JSON.stringify(saved.map(({ row }) => row))}::jsonb) r
          JOIN m ON m.package_id = r.package_id`,
    )
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'package_id'])
        .doUpdateSet((eb) =>
          Object.fromEntries(
            [...changed, 'last_movement_id' as const].map((column) => [column, eb.ref(`excluded.${column}`)]),
          ),
        ),
    )
    .execute();
}

/**
 * Records a stock scan's movement unless its scan id was recorded already at that warehouse
 * (then: false, and nothing is written). A second transaction with the same scan id waits here
 * for the first, and sees it once it commits.
 */
export async function claimScan(db: Db, row: MovementRow): Promise<boolean> {
  const inserted = await db
    .insertInto('warehouse_movements')
    .values(movementValues(row))
    .onConflict((oc) =>
      oc.columns(['business_id', 'warehouse_id', 'scan_id']).where('scan_id', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function movementOfScan(db: Db, warehouseId: number, scanId: string) {
  return db
    .selectFrom('warehouse_movements')
    .selectAll()
    .where('warehouse_id', '=', warehouseId)
    .where('scan_id', '=', scanId)
    .executeTakeFirstOrThrow();
}

export interface InventoryFilter {
  warehouseId?: number;
  locationId?: number;
  states?: PackageState[];
  trackingNumber?: string;
  routeId?: number;
  misReceived?: boolean;
}

function packageFilter(db: Db, businessId: number, filter: InventoryFilter) {
  return db
    .selectFrom('warehouse_packages')
    .where('business_id', '=', businessId)
    .$if(filter.warehouseId !== undefined, (q) => q.where('warehouse_id', '=', filter.warehouseId!))
    .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
    .$if(filter.states !== undefined, (q) => q.where('state', 'in', filter.states!))
    .$if(filter.trackingNumber !== undefined, (q) => q.where('tracking_number', '=', filter.trackingNumber!))
    .$if(filter.routeId !== undefined, (q) => q.where('route_id', '=', filter.routeId!))
    .$if(filter.misReceived === true, (q) => q.where('home_warehouse_id', 'is not', null))
    .$if(filter.misReceived === false, (q) => q.where('home_warehouse_id', 'is', null));
}

export function listPackages(
  db: Db,
  businessId: number,
  filter: InventoryFilter,
  window: { limit: number; offset: number },
) {
  return packageFilter(db, businessId, filter)
    .selectAll()
    .orderBy('received_at', 'desc')
    .orderBy('package_id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

/** Packages by location and state: what is where now, in one grouped count. */
export function packageSummary(db: Db, businessId: number, filter: InventoryFilter) {
  return packageFilter(db, businessId, filter)
    .select(['warehouse_id', 'location_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy(['warehouse_id', 'location_id', 'state'])
    .orderBy('warehouse_id')
    .orderBy('location_id')
    .orderBy('state')
    .limit(500)
    .execute();
}

// ----- stock -----

export interface StockFilter {
  warehouseId?: number;
  locationId?: number;
  sku?: string;
  customerUserId?: number;
}

function stockFilter(db: Db, businessId: number, filter: StockFilter) {
  return db
    .selectFrom('warehouse_stock')
    .where('business_id', '=', businessId)
    .where('quantity', '>', 0)
    .$if(filter.warehouseId !== undefined, (q) => q.where('warehouse_id', '=', filter.warehouseId!))
    .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
    .$if(filter.sku !== undefined, (q) => q.where('sku', '=', filter.sku!))
    .$if(filter.customerUserId !== undefined, (q) =>
      q.where('customer_user_id', '=', filter.customerUserId!),
    );
}

export async function countStock(db: Db, businessId: number, filter: StockFilter): Promise<number> {
  const row = await stockFilter(db, businessId, filter)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listStock(
  db: Db,
  businessId: number,
  filter: StockFilter,
  window: { limit: number; offset: number },
) {
  return stockFilter(db, businessId, filter)
    .selectAll()
    .orderBy('sku')
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

/** The stock row of one SKU of one customer at one place (null: not put away), locked. */
export function lockStock(
  db: Db,
  place: { warehouseId: number; customerUserId: number; sku: string; locationId: number | null },
) {
  return db
    .selectFrom('warehouse_stock')
    .selectAll()
    .where('warehouse_id', '=', place.warehouseId)
    .where('customer_user_id', '=', place.customerUserId)
    .where('sku', '=', place.sku)
    .where('location_id', 'is not distinct from', place.locationId)
    .forUpdate()
    .executeTakeFirst();
}

/** Adds (or, negative, takes) a quantity at one place, creating the row the first time. */
export async function addStock(
  db: Db,
  place: {
    businessId: number;
    warehouseId: number;
    customerUserId: number;
    sku: string;
    locationId: number | null;
  },
  delta: number,
  at: Date,
): Promise<number> {
  if (delta < 0) {
    // Taking from a place that has it (the caller locked and checked the row): no row to create.
    const taken = await db
      .updateTable('warehouse_stock')
      .set({ quantity: sql`quantity + ${delta}`, updated_at: at })
      .where('warehouse_id', '=', place.warehouseId)
      .where('customer_user_id', '=', place.customerUserId)
      .where('sku', '=', place.sku)
      .where('location_id', 'is not distinct from', place.locationId)
      .returning('quantity')
      .executeTakeFirstOrThrow();
    return taken.quantity;
  }
  const row = await sql<{ quantity: number }>`
    INSERT INTO warehouse_stock (business_id, warehouse_id, location_id, customer_user_id, sku, quantity, updated_at)
    VALUES (${place.businessId}, ${place.warehouseId}, ${place.locationId}, ${place.customerUserId}, ${place.sku},
            ${delta}, ${at})
    ON CONFLICT (business_id, warehouse_id, customer_user_id, sku, coalesce(location_id, 0))
    DO UPDATE SET quantity = warehouse_stock.quantity + excluded.quantity, updated_at = excluded.updated_at
    RETURNING quantity`.execute(db);
  return row.rows[0]!.quantity;
}

// ----- route lanes and outbounds -----

/** The staging lane a route was given at a warehouse, as a location. */
export function laneLocationOf(db: Db, warehouseId: number, routeId: number) {
  return db
    .selectFrom('warehouse_route_lanes as l')
    .innerJoin('warehouse_locations as loc', 'loc.id', 'l.location_id')
    .selectAll('loc')
    .where('l.warehouse_id', '=', warehouseId)
    .where('l.route_id', '=', routeId)
    .executeTakeFirst() as Promise<LocationRow | undefined>;
}

export function lanesOfDate(db: Db, warehouseId: number, date: string) {
  return db
    .selectFrom('warehouse_route_lanes')
    .selectAll()
    .where('warehouse_id', '=', warehouseId)
    .where('route_date', '=', date)
    .execute();
}

/** The routes a lane serves on `from` or later. */
export async function routesOfLane(db: Db, locationId: number, from: string): Promise<number[]> {
  const rows = await db
    .selectFrom('warehouse_route_lanes')
    .select('route_id')
    .where('location_id', '=', locationId)
    .where('route_date', '>=', from)
    .orderBy('route_id')
    .execute();
  return rows.map((r) => r.route_id);
}

export async function insertLane(db: Db, row: WarehousesTables['warehouse_route_lanes']): Promise<void> {
  await db.insertInto('warehouse_route_lanes').values(row).execute();
}

/** The route's outbound, created on its first scan, locked: loading and dispatching go one at a time. */
export async function lockOutbound(db: Db, businessId: number, routeId: number, warehouseId: number) {
  await db
    .insertInto('warehouse_outbounds')
    .values({ business_id: businessId, route_id: routeId, warehouse_id: warehouseId, extra: [] })
    .onConflict((oc) => oc.columns(['business_id', 'route_id']).doNothing())
    .execute();
  return db
    .selectFrom('warehouse_outbounds')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function outboundsOf(db: Db, businessId: number, routeIds: number[]) {
  if (routeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('warehouse_outbounds')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('route_id', 'in', routeIds)
    .execute();
}

export async function updateOutbound(
  db: Db,
  businessId: number,
  routeId: number,
  changes: Partial<
    Pick<WarehousesTables['warehouse_outbounds'], 'extra' | 'dispatched_at' | 'dispatched_by'>
  >,
): Promise<void> {
  await db
    .updateTable('warehouse_outbounds')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('route_id', '=', routeId)
    .execute();
}

export function packagesOfOrders(db: Db, businessId: number, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([] as PackageRow[]);
  return db
    .selectFrom('warehouse_packages')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', 'in', orderIds)
    .execute();
}

// ----- transfers -----

export async function insertTransfer(db: Db, row: Insertable<WarehousesTables['warehouse_transfers']>) {
  const { id } = await db
    .insertInto('warehouse_transfers')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function findTransfer(db: Db, businessId: number, id: number, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('warehouse_transfers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst() as Promise<TransferRow | undefined>;
}

export async function markRolledBack(db: Db, id: number, by: number | null, at: Date): Promise<void> {
  await db
    .updateTable('warehouse_transfers')
    .set({ rolled_back_at: at, rolled_back_by: by })
    .where('id', '=', id)
    .execute();
}

/** Each package's latest movement that belongs to this transfer (its move in, or its rollback). */
export function transferMovements(db: Db, transferId: number) {
  return db
    .selectFrom('warehouse_movements')
    .select(['id', 'package_id', 'action'])
    .where('transfer_id', '=', transferId)
    .orderBy('id')
    .execute();
}
