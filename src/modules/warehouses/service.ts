import { isDeepStrictEqual } from 'node:util';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, type ErrorCode } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { OpeningHours } from '../../platform/schemas.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrderStatus, OrderStatusChange, OrderStatusListener, OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import * as repo from './repository.ts';
import type { LocationKind, PackageState } from './tables.ts';

/** Most tracking numbers one receiving scan or one transfer batch may carry. */
export const MAX_BATCH = 100;

export interface WarehouseInput {
  code: string;
  name: string;
  line1: string;
  postal_code?: string;
  city?: string;
  country?: string;
  lat?: number;
  lng?: number;
  time_zone: string;
  opening_hours?: OpeningHours;
  depot_id?: number;
  postal_prefixes?: string[];
}

type Warehouse = repo.WarehouseRow;
type Nullable<T> = { [K in keyof T]: T[K] | null };
type Here = Pick<
  Warehouse,
  'id' | 'code' | 'name' | 'line1' | 'city' | 'postal_code' | 'country' | 'lat' | 'lng'
>;

/** Order statuses a received package's order goes through to reach AT_WAREHOUSE (docs/warehouses.md). */
const RECEIVING_STEPS: Partial<Record<OrderStatus, OrderStatus[]>> = {
  NEW_ORDER: ['PICKED_UP', 'AT_WAREHOUSE'],
  PLANNED: ['PICKED_UP', 'AT_WAREHOUSE'],
  PICKED_UP: ['AT_WAREHOUSE'],
  FAILED_ATTEMPT: ['AT_WAREHOUSE'],
  AT_WAREHOUSE: [],
};

/** Why a package of a transfer batch cannot move. */
export type TransferFailure =
  | 'unknown_tracking_number'
  | 'not_in_source_warehouse'
  | 'not_local_delivery'
  | 'delivered'
  | 'on_dispatched_route';

/**
 * Warehouses: sites and their locations, what they hold now, and the scan flow (receiving,
 * putaway, route sorting, route outbound) and transfers between them. Order statuses change
 * through the orders module, whose journal tells tracking; the warehouse's own events
 * (transfers) are appended through the tracking module's service.
 */
export class WarehousesService implements OrderStatusListener {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly tracking: TrackingService,
    private readonly dispatch: DispatchService,
  ) {}

  /**
   * Keeps the inventory true to the orders (registered with `orders.journal.onStatusChange`): an
   * order that goes out for delivery, is delivered or returned by any door has left the warehouse,
   * so its packages still held there leave it too, in the same transaction. A scan that names its
   * packages (`package_ids`) moves only those.
   */
  async orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    if (!(['OUT_FOR_DELIVERY', 'DELIVERED', 'RETURNED'] as OrderStatus[]).includes(change.to)) return;
    const only = change.details?.package_ids;
    const ids = change.packages.map((p) => p.id).filter((id) => !only || only.includes(id));
    const rows = await repo.packageRows(ctx.db, change.businessId, ids, { lock: true });
    for (const row of rows) {
      if (row.state === 'dispatched') continue;
      await this.place(ctx, change.businessId, row.warehouse_id, row, null, {
        state: 'dispatched',
        action: 'left',
      });
    }
  }

  // ----- warehouses, locations, staff -----

  async createWarehouse(ctx: OperationContext, input: WarehouseInput) {
    const businessId = businessOf(ctx);
    const id = await repo.insertWarehouse(ctx.db, {
      business_id: businessId,
      code: input.code,
      name: input.name,
      line1: input.line1,
      postal_code: input.postal_code ?? null,
      city: input.city ?? null,
      country: input.country ?? null,
      lat: input.lat ?? null,
      lng: input.lng ?? null,
      time_zone: input.time_zone,
      opening_hours: input.opening_hours ?? {},
      depot_id: input.depot_id ?? null,
      postal_prefixes: [...new Set(input.postal_prefixes ?? [])],
      created_at: this.clock.now(),
    });
    const [view] = await this.views(ctx.db, businessId, [id]);
    return { result: true as const, warehouse: view! };
  }

  /** Changes a warehouse: only the fields sent change (null clears an optional one). */
  async updateWarehouse(
    ctx: OperationContext,
    warehouseId: number,
    input: Partial<Nullable<WarehouseInput>>,
  ) {
    const businessId = businessOf(ctx);
    const { postal_prefixes, opening_hours, ...rest } = input;
    const changes = {
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
      ...(postal_prefixes !== undefined ? { postal_prefixes: [...new Set(postal_prefixes ?? [])] } : {}),
      ...(opening_hours !== undefined ? { opening_hours: opening_hours ?? {} } : {}),
    };
    const found =
      Object.keys(changes).length === 0
        ? (await repo.findWarehouse(ctx.db, businessId, warehouseId)) !== undefined
        : await repo.updateWarehouse(ctx.db, businessId, warehouseId, changes);
    if (!found) throw new AppError('WAREHOUSE_NOT_FOUND', { params: { id: warehouseId } });
    const [view] = await this.views(ctx.db, businessId, [warehouseId]);
    return { result: true as const, warehouse: view! };
  }

  async createLocation(
    ctx: OperationContext,
    warehouseId: number,
    input: { code: string; kind: LocationKind; capacity: number },
  ) {
    const businessId = businessOf(ctx);
    await this.warehouse(ctx.db, businessId, warehouseId);
    const id = await repo.insertLocation(ctx.db, {
      business_id: businessId,
      warehouse_id: warehouseId,
      code: input.code,
      kind: input.kind,
      capacity: input.capacity,
    });
    return { result: true as const, location: { id, warehouse_id: warehouseId, ...input, occupied: 0 } };
  }

  /**
   * Under the location's row lock, so a putaway or sort cannot slip between the check and the
   * change: the capacity never drops below what the location holds, and a staging lane keeps its
   * kind while it serves a route of today or later.
   */
  async updateLocation(
    ctx: OperationContext,
    warehouseId: number,
    locationId: number,
    changes: { code?: string; kind?: LocationKind; capacity?: number },
  ) {
    const businessId = businessOf(ctx);
    await this.warehouse(ctx.db, businessId, warehouseId);
    const location = await this.location(ctx.db, warehouseId, locationId);
    if (changes.capacity !== undefined && changes.capacity < location.occupied) {
      throw new AppError('CAPACITY_BELOW_OCCUPIED', {
        params: { code: location.code, occupied: location.occupied },
        details: { location_id: location.id, capacity: changes.capacity, occupied: location.occupied },
      });
    }
    if (location.kind === 'staging_lane' && changes.kind !== undefined && changes.kind !== location.kind) {
      const today = await this.dispatch.today(ctx.db, businessId);
      const routeIds = await repo.routesOfLane(ctx.db, location.id, today);
      if (routeIds.length > 0) {
        throw new AppError('LOCATION_IN_USE', {
          params: { code: location.code },
          details: { location_id: location.id, route_ids: routeIds },
        });
      }
    }
    const changed =
      Object.keys(changes).length === 0 ? location : await repo.updateLocation(ctx.db, location.id, changes);
    return { result: true as const, location: locationView(changed) };
  }

  /** Grants the warehouse role: these employees and drivers (and only they) may scan here. */
  async setStaff(ctx: OperationContext, warehouseId: number, userIds: number[]) {
    const businessId = businessOf(ctx);
    await this.warehouse(ctx.db, businessId, warehouseId, { lock: true });
    const wanted = [...new Set(userIds)];
    const [employees, drivers] = await Promise.all([
      this.accounts.usersOfKind(ctx.db, businessId, 'employee', wanted),
      this.accounts.usersOfKind(ctx.db, businessId, 'driver', wanted),
    ]);
    const known = new Set([...employees, ...drivers].map((user) => user.id));
    const unknown = wanted.find((id) => !known.has(id));
    if (unknown !== undefined) throw new AppError('USER_NOT_FOUND', { details: { user_id: unknown } });
    await repo.replaceStaff(ctx.db, businessId, warehouseId, wanted, callerOf(ctx).userId, this.clock.now());
    const [view] = await this.views(ctx.db, businessId, [warehouseId]);
    return { result: true as const, warehouse: view! };
  }

  async list(ctx: OperationContext, query: PageQuery & { code?: string }) {
    const businessId = businessOf(ctx);
    const all = (await repo.warehousesOf(ctx.db, businessId)).filter(
      (row) => query.code === undefined || row.code === query.code,
    );
    const { limit, offset } = pageWindow(query);
    const views = await this.views(
      ctx.db,
      businessId,
      all.slice(offset, offset + limit).map((row) => row.id),
    );
    return { result: true as const, ...envelopeOf(query, all.length), warehouses: views };
  }

  private async views(db: Queryable, businessId: number, ids: number[]) {
    const [rows, locations, staff] = await Promise.all([
      repo.warehousesOf(db, businessId, ids),
      repo.locationsOf(db, businessId, ids),
      repo.staffOf(db, ids),
    ]);
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      name: row.name,
      address: {
        line1: row.line1,
        postal_code: row.postal_code,
        city: row.city,
        country: row.country,
        lat: row.lat,
        lng: row.lng,
      },
      time_zone: row.time_zone,
      opening_hours: row.opening_hours,
      depot_id: row.depot_id,
      postal_prefixes: row.postal_prefixes,
      staff_user_ids: staff.filter((s) => s.warehouse_id === row.id).map((s) => s.user_id),
      locations: locations.filter((l) => l.warehouse_id === row.id).map(locationView),
      created_at: row.created_at.toISOString(),
    }));
  }

  // ----- inventory -----

  async inventory(
    ctx: OperationContext,
    query: PageQuery & {
      warehouse_id?: number;
      location_id?: number;
      what: 'packages' | 'stock';
      state?: PackageState[];
      tracking_number?: string;
      route_id?: number;
      mis_received?: boolean;
      sku?: string;
      customer_id?: number;
    },
  ) {
    const businessId = businessOf(ctx);
    if (query.warehouse_id !== undefined) await this.warehouse(ctx.db, businessId, query.warehouse_id);
    const window = pageWindow(query);
    if (query.what === 'stock') {
      const filter: repo.StockFilter = {
        warehouseId: query.warehouse_id,
        locationId: query.location_id,
        sku: query.sku,
        customerUserId: query.customer_id,
      };
      const [total, rows] = await Promise.all([
        repo.countStock(ctx.db, businessId, filter),
        repo.listStock(ctx.db, businessId, filter, window),
      ]);
      const codes = await this.locationCodes(ctx.db, businessId, rows);
      return {
        result: true as const,
        ...envelopeOf(query, total),
        summary: [],
        packages: [],
        stock: rows.map((row) => ({
          warehouse_id: row.warehouse_id,
          location:
            row.location_id === null ? null : { id: row.location_id, code: codes.get(row.location_id) ?? '' },
          customer_id: row.customer_user_id,
          sku: row.sku,
          quantity: row.quantity,
          updated_at: row.updated_at.toISOString(),
        })),
      };
    }
    const filter: repo.InventoryFilter = {
      warehouseId: query.warehouse_id,
      locationId: query.location_id,
      // What a warehouse holds now: dispatched packages have left it, unless asked for.
      states: query.state ?? ['received', 'stored', 'sorted', 'loaded'],
      trackingNumber: query.tracking_number,
      routeId: query.route_id,
      misReceived: query.mis_received,
    };
    const [rows, summary] = await Promise.all([
      repo.listPackages(ctx.db, businessId, filter, window),
      repo.packageSummary(ctx.db, businessId, filter),
    ]);
    // The count by location and state covers every package the filter picks: their sum is the total.
    const total = summary.reduce((sum, row) => sum + Number(row.n), 0);
    const codes = await this.locationCodes(ctx.db, businessId, [...rows, ...summary]);
    const orders = await this.orders.queries.summaries(
      ctx.db,
      businessId,
      rows.map((row) => row.order_id),
    );
    return {
      result: true as const,
      ...envelopeOf(query, total),
      summary: summary.map((row) => ({
        warehouse_id: row.warehouse_id,
        location:
          row.location_id === null ? null : { id: row.location_id, code: codes.get(row.location_id) ?? '' },
        state: row.state,
        packages: Number(row.n),
      })),
      packages: rows.map((row) => ({
        tracking_number: row.tracking_number,
        order_id: row.order_id,
        order_status: orders.get(row.order_id)?.status ?? null,
        warehouse_id: row.warehouse_id,
        state: row.state,
        location:
          row.location_id === null ? null : { id: row.location_id, code: codes.get(row.location_id) ?? '' },
        route_id: row.route_id,
        mis_received: row.home_warehouse_id !== null,
        home_warehouse_id: row.home_warehouse_id,
        received_at: row.received_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      })),
      stock: [],
    };
  }

  private async locationCodes(db: Queryable, businessId: number, rows: Array<{ warehouse_id: number }>) {
    const warehouseIds = [...new Set(rows.map((row) => row.warehouse_id))];
    const locations = await repo.locationsOf(db, businessId, warehouseIds);
    return new Map(locations.map((l) => [l.id, l.code]));
  }

  // ----- receiving -----

  /**
   * Receives scanned packages: each number on its own (a refused one does not stop the others).
   * The orders of the batch are locked first, in id order, so two scans of the same package wait
   * for each other and the second finds it received: one receipt, two clear answers.
   */
  async receive(ctx: OperationContext, warehouseId: number, numbers: string[]) {
    const businessId = businessOf(ctx);
    // The business's few warehouses: the one scanned at, and where each package belongs.
    const warehouses = await repo.warehousesOf(ctx.db, businessId);
    const here = await this.scanner(ctx, warehouseId, warehouses);
    const unique = [...new Set(numbers)];
    // The orders locked first: two scans of one package wait for each other here, before either
    // reads the package's row.
    const scanned = await this.orders.queries.lockForScan(ctx.db, businessId, unique);
    const packages = new Map(
      scanned.map((p) => [p.tracking_number, { id: p.package_id, order_id: p.order.id }]),
    );
    const locked = new Map(scanned.map((p) => [p.order.id, p.order]));
    const current = new Map(
      (
        await repo.packageRows(
          ctx.db,
          businessId,
          scanned.map((p) => p.package_id),
          { lock: true },
        )
      ).map((row) => [row.package_id, row]),
    );
    const results = [];
    for (const number of unique) {
      const pkg = packages.get(number);
      if (!pkg) {
        results.push(refusedScan(ctx, number, 'TRACKING_NOT_FOUND', { number }));
        continue;
      }
      const order = locked.get(pkg.order_id)!;
      const existing = current.get(pkg.id);
      const home = homeWarehouse(warehouses, order.dropoff ?? order.pickup);
      const misReceived = home !== null && home.id !== warehouseId;
      const answer = {
        tracking_number: number,
        order_id: pkg.order_id,
        mis_received: misReceived,
        home_warehouse: home ? { id: home.id, code: home.code } : null,
      };
      if (existing && existing.state !== 'dispatched') {
        if (existing.warehouse_id !== warehouseId) {
          results.push(
            refusedScan(
              ctx,
              number,
              'PACKAGE_IN_OTHER_WAREHOUSE',
              { number },
              { warehouse_id: existing.warehouse_id },
            ),
          );
          continue;
        }
        results.push({
          ...answer,
          outcome: 'already_received' as const,
          order_status: order.status,
        });
        continue;
      }
      const steps = RECEIVING_STEPS[order.status];
      if (!steps) {
        const params = { from: order.status, to: 'AT_WAREHOUSE' };
        results.push(refusedScan(ctx, number, 'ILLEGAL_STATUS_TRANSITION', params, params));
        continue;
      }
      const at = this.clock.now();
      const after = { warehouse_id: warehouseId, state: 'received', location_id: null };
      const movement = this.movement(ctx, businessId, warehouseId, 'received', {
        package_id: pkg.id,
        before: existing ? { warehouse_id: existing.warehouse_id, state: existing.state } : null,
        after,
      });
      await repo.savePackage(ctx.db, movement, {
        package_id: pkg.id,
        business_id: businessId,
        warehouse_id: warehouseId,
        order_id: pkg.order_id,
        tracking_number: number,
        state: 'received',
        location_id: null,
        route_id: null,
        home_warehouse_id: misReceived ? home!.id : null,
        received_at: at,
        updated_at: at,
      });
      const details = { location: locationOfWarehouse(here), package_ids: [pkg.id] };
      if (steps.length > 0) await this.orders.changes.advance(ctx, pkg.order_id, steps, details);
      else {
        // The order is at a warehouse already (another of its packages came first): this package's own event.
        await this.tracking.appendEvent(
          ctx,
          businessId,
          { id: pkg.id, trackingNumber: number },
          { status_code: 'received', source: { type: 'self_delivery' }, location: locationOfWarehouse(here) },
        );
      }
      locked.set(pkg.order_id, { ...order, status: 'AT_WAREHOUSE' });
      results.push({ ...answer, outcome: 'received' as const, order_status: 'AT_WAREHOUSE' as const });
    }
    return {
      result: true as const,
      received: results.filter((r) => r.outcome === 'received').length,
      results,
    };
  }

  async receiveStock(
    ctx: OperationContext,
    warehouseId: number,
    input: { customer_id: number; sku: string; quantity: number; scan_id: string },
  ) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    const place = {
      businessId,
      warehouseId,
      customerUserId: input.customer_id,
      sku: input.sku,
      locationId: null,
    };
    const movement = this.movement(ctx, businessId, warehouseId, 'stock_received', {
      sku: input.sku,
      quantity: input.quantity,
      before: null,
      after: { location_id: null, customer_id: input.customer_id },
      scan_id: input.scan_id,
    });
    const answer = { result: true as const, sku: input.sku, customer_id: input.customer_id };
    if (!(await this.claimScan(ctx, movement))) {
      const unplaced = await repo.lockStock(ctx.db, place);
      return { ...answer, outcome: 'already_received' as const, unplaced_quantity: unplaced?.quantity ?? 0 };
    }
    const quantity = await repo.addStock(ctx.db, place, input.quantity, this.clock.now());
    return { ...answer, outcome: 'received' as const, unplaced_quantity: quantity };
  }

  /**
   * Records a stock scan's movement, once per scan id: false when the scan was recorded before
   * (sent again), and so moves nothing now. The same id for another move is refused.
   */
  private async claimScan(ctx: OperationContext, movement: repo.MovementRow) {
    if (await repo.claimScan(ctx.db, movement)) return true;
    const first = await repo.movementOfScan(ctx.db, movement.warehouse_id, movement.scan_id!);
    const same =
      first.action === movement.action &&
      first.sku === movement.sku &&
      first.quantity === movement.quantity &&
      isDeepStrictEqual(first.before, movement.before) &&
      isDeepStrictEqual(first.after, movement.after);
    if (!same) throw new AppError('SCAN_ID_REUSED', { params: { scan: movement.scan_id! } });
    return false;
  }

  // ----- putaway -----

  async putaway(
    ctx: OperationContext,
    warehouseId: number,
    input: {
      location_id: number;
      tracking_number?: string;
      sku?: string;
      customer_id?: number;
      quantity?: number;
      from_location_id?: number;
      scan_id?: string;
    },
  ) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    if (input.tracking_number !== undefined) {
      const row = await this.inHouse(ctx, businessId, warehouseId, input.tracking_number);
      const location = await this.location(ctx.db, warehouseId, input.location_id);
      if (row.location_id === location.id) {
        return { result: true as const, outcome: 'unchanged' as const, location: locationView(location) };
      }
      const moved = await this.place(ctx, businessId, warehouseId, row, location.id, {
        state: location.kind === 'staging_lane' ? row.state : 'stored',
        action: 'putaway',
      });
      return { result: true as const, outcome: 'moved' as const, location: locationView(moved) };
    }
    const from = input.from_location_id ?? null;
    const sku = input.sku!;
    const customer = input.customer_id!;
    const quantity = input.quantity!;
    if (from === input.location_id) {
      const location = await this.location(ctx.db, warehouseId, from);
      return { result: true as const, outcome: 'unchanged' as const, location: locationView(location) };
    }
    const claimed = await this.claimScan(
      ctx,
      this.movement(ctx, businessId, warehouseId, 'stock_putaway', {
        sku,
        quantity,
        before: { location_id: from, customer_id: customer },
        after: { location_id: input.location_id, customer_id: customer },
        scan_id: input.scan_id!,
      }),
    );
    const locations = await repo.lockLocations(ctx.db, warehouseId, [
      input.location_id,
      ...(from === null ? [] : [from]),
    ]);
    const target = locations.find((l) => l.id === input.location_id);
    if (!target || (from !== null && !locations.some((l) => l.id === from))) {
      throw new AppError('WAREHOUSE_LOCATION_NOT_FOUND', {
        params: { id: target ? (from ?? '') : input.location_id },
      });
    }
    if (!claimed)
      return { result: true as const, outcome: 'unchanged' as const, location: locationView(target) };
    const source = await repo.lockStock(ctx.db, {
      warehouseId,
      customerUserId: customer,
      sku,
      locationId: from,
    });
    if (!source || source.quantity < quantity) {
      throw new AppError('STOCK_NOT_ENOUGH', {
        params: { sku },
        details: { sku, available: source?.quantity ?? 0, requested: quantity },
      });
    }
    checkRoom(target, quantity);
    const at = this.clock.now();
    await repo.addStock(
      ctx.db,
      { businessId, warehouseId, customerUserId: customer, sku, locationId: from },
      -quantity,
      at,
    );
    await repo.addStock(
      ctx.db,
      { businessId, warehouseId, customerUserId: customer, sku, locationId: target.id },
      quantity,
      at,
    );
    await repo.addOccupancy(ctx.db, target.id, quantity);
    if (from !== null) await repo.addOccupancy(ctx.db, from, -quantity);
    return {
      result: true as const,
      outcome: 'moved' as const,
      location: locationView({ ...target, occupied: target.occupied + quantity }),
    };
  }

  // ----- route sorting -----

  /** Directs a received package to its route's staging lane for the date; packages on no route are told so. */
  async sort(ctx: OperationContext, warehouseId: number, input: { tracking_number: string; date?: string }) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    const date = input.date ?? (await this.dispatch.today(ctx.db, businessId));
    const row = await this.inHouse(ctx, businessId, warehouseId, input.tracking_number);
    const stop = await this.dispatch.stopOf(ctx.db, businessId, row.order_id, date);
    if (!stop) {
      return {
        result: true as const,
        outcome: 'no_route' as const,
        tracking_number: input.tracking_number,
        date,
        route: null,
        lane: null,
        stop_sequence: null,
      };
    }
    const { route } = stop;
    const lane = await this.laneFor(ctx, businessId, warehouseId, route.id, date);
    const answer = {
      result: true as const,
      tracking_number: input.tracking_number,
      date,
      route,
      lane: { id: lane.id, code: lane.code },
      stop_sequence: stop.sequence,
    };
    if (row.state === 'sorted' && row.location_id === lane.id)
      return { ...answer, outcome: 'already_sorted' as const };
    await this.place(ctx, businessId, warehouseId, row, lane.id, {
      state: 'sorted',
      action: 'sorted',
      routeId: route.id,
    });
    return { ...answer, outcome: 'sorted' as const };
  }

  /** The route's staging lane at this warehouse: the one it was given, else the first free lane of the day. */
  private async laneFor(
    ctx: OperationContext,
    businessId: number,
    warehouseId: number,
    routeId: number,
    date: string,
  ) {
    const given = await repo.laneLocationOf(ctx.db, warehouseId, routeId);
    if (given) return given;
    // One lane choice at a time per warehouse: two routes never get the same free lane.
    await this.warehouse(ctx.db, businessId, warehouseId, { lock: true });
    const again = await repo.laneLocationOf(ctx.db, warehouseId, routeId);
    if (again) return again;
    const locations = await repo.locationsOf(ctx.db, businessId, [warehouseId]);
    const taken = new Set((await repo.lanesOfDate(ctx.db, warehouseId, date)).map((l) => l.location_id));
    // A lane closed by capacity 0 is given to no new route.
    const free = locations.find((l) => l.kind === 'staging_lane' && l.capacity > 0 && !taken.has(l.id));
    if (!free)
      throw new AppError('NO_STAGING_LANE', { params: { date }, details: { route_id: routeId, date } });
    await repo.insertLane(ctx.db, {
      business_id: businessId,
      warehouse_id: warehouseId,
      route_id: routeId,
      route_date: date,
      location_id: free.id,
    });
    return free;
  }

  /** A day's sorting at a warehouse: each route with its lane and packages sorted or waiting, and packages on no route. */
  async sortPlan(ctx: OperationContext, warehouseId: number, input: { date?: string }) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    const date = input.date ?? (await this.dispatch.today(ctx.db, businessId));
    const routes = await this.dispatch.routes(ctx, { date });
    const lanes = new Map((await repo.lanesOfDate(ctx.db, warehouseId, date)).map((l) => [l.route_id, l]));
    const codes = new Map(
      (await repo.locationsOf(ctx.db, businessId, [warehouseId])).map((l) => [l.id, l.code]),
    );
    const held = await repo.listPackages(
      ctx.db,
      businessId,
      { warehouseId, states: ['received', 'stored', 'sorted'] },
      { limit: SORT_PLAN_LIMIT, offset: 0 },
    );
    const orders = await this.orders.queries.summaries(
      ctx.db,
      businessId,
      held.map((row) => row.order_id),
    );
    const routeIds = new Set(routes.map((route) => route.id));
    const onRoute = (row: repo.PackageRow) => {
      const routeId = orders.get(row.order_id)?.route_id ?? null;
      return routeId !== null && routeIds.has(routeId) ? routeId : null;
    };
    return {
      result: true as const,
      date,
      routes: routes.map((route) => {
        const lane = lanes.get(route.id);
        const mine = held.filter((row) => onRoute(row) === route.id);
        return {
          route_id: route.id,
          driver: route.driver,
          lane: lane ? { id: lane.location_id, code: codes.get(lane.location_id) ?? '' } : null,
          sorted: mine.filter((row) => row.state === 'sorted').map((row) => row.tracking_number),
          to_sort: mine.filter((row) => row.state !== 'sorted').map((row) => row.tracking_number),
        };
      }),
      unrouted: held.filter((row) => onRoute(row) === null).map((row) => row.tracking_number),
    };
  }

  // ----- route outbound -----

  /** Loads a scanned package onto its route's van; a package of no route or another is recorded as extra. */
  async load(ctx: OperationContext, warehouseId: number, routeId: number, trackingNumber: string) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    await this.route(ctx, routeId);
    const outbound = await repo.lockOutbound(ctx.db, businessId, routeId, warehouseId);
    if (outbound.dispatched_at !== null) {
      throw new AppError('ROUTE_ALREADY_DISPATCHED', {
        params: { route: routeId },
        details: { route_id: routeId },
      });
    }
    const pkg = (await this.packagesOf(ctx.db, businessId, [trackingNumber])).get(trackingNumber);
    if (!pkg) throw new AppError('TRACKING_NOT_FOUND', { params: { number: trackingNumber } });
    const order = (await this.orders.queries.summaries(ctx.db, businessId, [pkg.order_id])).get(
      pkg.order_id,
    )!;
    if (order.route_id !== routeId) {
      if (!outbound.extra.includes(trackingNumber)) {
        await repo.updateOutbound(ctx.db, businessId, routeId, {
          extra: [...outbound.extra, trackingNumber],
        });
      }
      return {
        result: true as const,
        outcome: 'extra' as const,
        tracking_number: trackingNumber,
        route_id: routeId,
      };
    }
    const [row] = await repo.packageRows(ctx.db, businessId, [pkg.id], { lock: true });
    if (row?.state === 'loaded' && row.route_id === routeId) {
      return {
        result: true as const,
        outcome: 'already_loaded' as const,
        tracking_number: trackingNumber,
        route_id: routeId,
      };
    }
    if (!row || row.warehouse_id !== warehouseId || !repo.IN_HOUSE.includes(row.state)) {
      throw new AppError('PACKAGE_NOT_IN_WAREHOUSE', { params: { number: trackingNumber } });
    }
    await this.place(ctx, businessId, warehouseId, row, null, { state: 'loaded', action: 'loaded', routeId });
    return {
      result: true as const,
      outcome: 'loaded' as const,
      tracking_number: trackingNumber,
      route_id: routeId,
    };
  }

  /** A route's outbound: its packages loaded, missing (not loaded yet) and the extra ones scanned. */
  async outbound(ctx: OperationContext, warehouseId: number, routeId: number) {
    const businessId = businessOf(ctx);
    await this.scanner(ctx, warehouseId);
    // The packages expected are the report's own working: the answer lists them as loaded or missing.
    const { expected: _expected, ...report } = await this.outboundOf(ctx, businessId, routeId);
    return { result: true as const, ...report };
  }

  private async outboundOf(ctx: OperationContext, businessId: number, routeId: number) {
    await this.route(ctx, routeId);
    const { orders } = await this.orders.queries.list(ctx, { route_id: routeId, page: 1, per_page: 200 });
    const expected = orders.flatMap((order) =>
      order.packages.map((p) => ({ id: p.id, tracking_number: p.tracking_number, order_id: order.id })),
    );
    const rows = new Map(
      (
        await repo.packageRows(
          ctx.db,
          businessId,
          expected.map((p) => p.id),
        )
      ).map((row) => [row.package_id, row]),
    );
    const [outbound] = await repo.outboundsOf(ctx.db, businessId, [routeId]);
    // Loaded for this route, but their order has left it since (held, cancelled): to take off the van.
    const stranded = (
      await repo.listPackages(ctx.db, businessId, { routeId, states: ['loaded'] }, { limit: 1000, offset: 0 })
    ).filter((row) => !expected.some((p) => p.id === row.package_id));
    const isLoaded = (id: number) => {
      const row = rows.get(id);
      return (
        row !== undefined &&
        row.route_id === routeId &&
        (row.state === 'loaded' || row.state === 'dispatched')
      );
    };
    return {
      route_id: routeId,
      dispatched_at: outbound?.dispatched_at?.toISOString() ?? null,
      loaded: expected.filter((p) => isLoaded(p.id)).map((p) => p.tracking_number),
      missing: expected.filter((p) => !isLoaded(p.id)).map((p) => p.tracking_number),
      extra: outbound?.extra ?? [],
      unload: stranded.map((row) => row.tracking_number),
      expected,
    };
  }

  /**
   * Dispatches a route: its loaded packages leave the warehouse and their orders go out for
   * delivery (through the orders module, whose journal appends the tracking event). Missing and
   * extra packages are reported; a second dispatch changes nothing and says so.
   */
  async dispatchRoute(ctx: OperationContext, warehouseId: number, routeId: number) {
    const businessId = businessOf(ctx);
    const here = await this.scanner(ctx, warehouseId);
    await this.route(ctx, routeId);
    const outbound = await repo.lockOutbound(ctx.db, businessId, routeId, warehouseId);
    const report = await this.outboundOf(ctx, businessId, routeId);
    const { expected, ...rest } = report;
    if (outbound.dispatched_at !== null)
      return { result: true as const, outcome: 'already_dispatched' as const, ...rest };
    const at = this.clock.now();
    const loaded = expected.filter((p) => report.loaded.includes(p.tracking_number));
    const byOrder = new Map<number, number[]>();
    for (const p of loaded) byOrder.set(p.order_id, [...(byOrder.get(p.order_id) ?? []), p.id]);
    // Orders before their packages, as receiving and transfers lock them: two scans never deadlock.
    const locked = await this.orders.queries.lockForAssignment(ctx.db, businessId, [...byOrder.keys()]);
    // An order held or cancelled since its parcel was loaded cannot go out: its parcels stay loaded, reported.
    const heldBack = locked.filter((o) => !CAN_GO_OUT.includes(o.status)).map((o) => o.id);
    const going = loaded.filter((p) => !heldBack.includes(p.order_id));
    const rows = await repo.packageRows(
      ctx.db,
      businessId,
      going.map((p) => p.id),
      { lock: true },
    );
    for (const row of rows) {
      await this.place(ctx, businessId, row.warehouse_id, row, null, {
        state: 'dispatched',
        action: 'dispatched',
        routeId,
      });
    }
    for (const order of locked) {
      if (order.status === 'OUT_FOR_DELIVERY' || heldBack.includes(order.id)) continue;
      await this.orders.changes.advance(ctx, order.id, 'OUT_FOR_DELIVERY', {
        location: locationOfWarehouse(here),
        package_ids: byOrder.get(order.id)!,
      });
    }
    await repo.updateOutbound(ctx.db, businessId, routeId, {
      dispatched_at: at,
      dispatched_by: callerOf(ctx).userId,
    });
    return {
      result: true as const,
      outcome: 'dispatched' as const,
      ...rest,
      unload: [
        ...rest.unload,
        ...loaded.filter((p) => heldBack.includes(p.order_id)).map((p) => p.tracking_number),
      ],
      dispatched_at: at.toISOString(),
    };
  }

  // ----- transfers -----

  /**
   * Moves local-delivery packages from one warehouse to another, all or none: when any cannot
   * move, nothing moves and each failing package is named with its reason.
   */
  async transfer(
    ctx: OperationContext,
    input: { from_warehouse_id: number; to_warehouse_id: number; tracking_numbers: string[]; note?: string },
  ) {
    const businessId = businessOf(ctx);
    const from = await this.scanner(ctx, input.from_warehouse_id);
    const to = await this.warehouse(ctx.db, businessId, input.to_warehouse_id);
    if (from.id === to.id) {
      const fields = [{ field: 'to_warehouse_id', code: 'same_warehouse', message: 'to_warehouse_id' }];
      throw new AppError('VALIDATION_FAILED', { params: { fields: 'to_warehouse_id' }, details: { fields } });
    }
    const numbers = [...new Set(input.tracking_numbers)];
    const packages = await this.packagesOf(ctx.db, businessId, numbers);
    const ids = [...packages.values()].map((p) => p.id);
    const orderIds = [...new Set([...packages.values()].map((p) => p.order_id))];
    const locked = new Map(
      (await this.orders.queries.lockForAssignment(ctx.db, businessId, orderIds)).map((o) => [o.id, o]),
    );
    const rows = new Map(
      (await repo.packageRows(ctx.db, businessId, ids, { lock: true })).map((r) => [r.package_id, r]),
    );
    const dispatched = new Set(
      (
        await repo.outboundsOf(
          ctx.db,
          businessId,
          [...locked.values()].flatMap((o) => (o.route_id === null ? [] : [o.route_id])),
        )
      )
        .filter((o) => o.dispatched_at !== null)
        .map((o) => o.route_id),
    );
    const failures: Array<{ tracking_number: string; reason: TransferFailure }> = [];
    for (const number of numbers) {
      const pkg = packages.get(number);
      const order = pkg && locked.get(pkg.order_id);
      const row = pkg && rows.get(pkg.id);
      const reason: TransferFailure | null =
        !pkg || !order
          ? 'unknown_tracking_number'
          : order.family !== 'local_delivery'
            ? 'not_local_delivery'
            : order.status === 'DELIVERED'
              ? 'delivered'
              : (order.route_id !== null && dispatched.has(order.route_id)) ||
                  row?.state === 'loaded' ||
                  row?.state === 'dispatched'
                ? 'on_dispatched_route'
                : !row || row.warehouse_id !== from.id || !repo.IN_HOUSE.includes(row.state)
                  ? 'not_in_source_warehouse'
                  : null;
      if (reason) failures.push({ tracking_number: number, reason });
    }
    if (failures.length > 0) {
      throw new AppError('TRANSFER_REFUSED', { params: { count: failures.length }, details: { failures } });
    }
    const at = this.clock.now();
    const transferId = await repo.insertTransfer(ctx.db, {
      business_id: businessId,
      from_warehouse_id: from.id,
      to_warehouse_id: to.id,
      package_ids: ids,
      note: input.note ?? null,
      created_by: callerOf(ctx).userId,
      created_at: at,
      door: ctx.door,
    });
    const warehouses = await repo.warehousesOf(ctx.db, businessId);
    for (const number of numbers) {
      const pkg = packages.get(number)!;
      await this.move(ctx, businessId, rows.get(pkg.id)!, from, to, {
        transferId,
        action: 'transfer',
        home: homeOfRow(warehouses, rows.get(pkg.id)!, to.id),
      });
    }
    return { result: true as const, transfer: await this.transferView(ctx.db, businessId, transferId) };
  }

  /** Rolls a committed transfer back, whole, while none of its packages has moved since. */
  async rollbackTransfer(ctx: OperationContext, transferId: number) {
    const businessId = businessOf(ctx);
    const transfer = await repo.findTransfer(ctx.db, businessId, transferId, { lock: true });
    if (!transfer) throw new AppError('TRANSFER_NOT_FOUND', { params: { id: transferId } });
    const to = await this.scanner(ctx, transfer.to_warehouse_id);
    const from = await this.warehouse(ctx.db, businessId, transfer.from_warehouse_id);
    if (transfer.rolled_back_at !== null) {
      throw new AppError('TRANSFER_NOT_REVERSIBLE', {
        params: { id: transferId },
        details: { rolled_back_at: transfer.rolled_back_at.toISOString(), packages: [] },
      });
    }
    const orderIds = (await repo.packageRows(ctx.db, businessId, transfer.package_ids)).map(
      (r) => r.order_id,
    );
    await this.orders.queries.lockForAssignment(ctx.db, businessId, [...new Set(orderIds)]);
    const rows = await repo.packageRows(ctx.db, businessId, transfer.package_ids, { lock: true });
    const movedIn = new Map(
      (await repo.transferMovements(ctx.db, transferId)).map((m) => [m.package_id, m.id]),
    );
    const moved = rows.filter((row) => row.last_movement_id !== movedIn.get(row.package_id));
    if (moved.length > 0 || rows.length !== transfer.package_ids.length) {
      throw new AppError('TRANSFER_NOT_REVERSIBLE', {
        params: { id: transferId },
        details: { packages: moved.map((row) => row.tracking_number) },
      });
    }
    const warehouses = await repo.warehousesOf(ctx.db, businessId);
    for (const row of rows) {
      await this.move(ctx, businessId, row, to, from, {
        transferId,
        action: 'transfer_rollback',
        home: homeOfRow(warehouses, row, from.id),
      });
    }
    await repo.markRolledBack(ctx.db, transferId, callerOf(ctx).userId, this.clock.now());
    return { result: true as const, transfer: await this.transferView(ctx.db, businessId, transferId) };
  }

  /** One package from one warehouse to another: inventory, movement, order journal, tracking out and in. */
  private async move(
    ctx: OperationContext,
    businessId: number,
    row: repo.PackageRow,
    from: Here,
    to: Here,
    how: { transferId: number; action: 'transfer' | 'transfer_rollback'; home: number | null },
  ) {
    if (row.location_id !== null) await repo.addOccupancy(ctx.db, row.location_id, -1);
    const at = this.clock.now();
    const before = { warehouse_id: from.id, location_id: row.location_id, state: row.state };
    const after = { warehouse_id: to.id, location_id: null, state: 'received' };
    const movement = this.movement(ctx, businessId, to.id, how.action, {
      package_id: row.package_id,
      before,
      after,
      transfer_id: how.transferId,
    });
    await repo.savePackage(ctx.db, movement, {
      ...row,
      warehouse_id: to.id,
      location_id: null,
      state: 'received',
      route_id: null,
      home_warehouse_id: how.home,
      updated_at: at,
    });
    await this.orders.journal.recordEvent(
      ctx,
      businessId,
      row.order_id,
      how.action === 'transfer' ? 'warehouse_transferred' : 'warehouse_transfer_rolled_back',
      {
        warehouse_id: { from: from.id, to: to.id },
        tracking_number: { from: row.tracking_number, to: row.tracking_number },
        transfer_id: { from: null, to: how.transferId },
      },
      at,
    );
    const pkg = { id: row.package_id, trackingNumber: row.tracking_number };
    const why = how.action === 'transfer' ? 'Transfer' : 'Transfer rolled back';
    await this.tracking.appendEvent(ctx, businessId, pkg, {
      status_code: 'package_outbound',
      source: { type: 'self_delivery', reference: `transfer-${how.transferId}` },
      location: locationOfWarehouse(from),
      description: `${why}: out of ${from.code} to ${to.code}`,
    });
    await this.tracking.appendEvent(ctx, businessId, pkg, {
      status_code: 'arrival_scan',
      source: { type: 'self_delivery', reference: `transfer-${how.transferId}` },
      location: locationOfWarehouse(to),
      description: `${why}: into ${to.code} from ${from.code}`,
    });
  }

  private async transferView(db: Queryable, businessId: number, id: number) {
    const transfer = (await repo.findTransfer(db, businessId, id))!;
    const rows = await repo.packageRows(db, businessId, transfer.package_ids);
    return {
      id: transfer.id,
      from_warehouse_id: transfer.from_warehouse_id,
      to_warehouse_id: transfer.to_warehouse_id,
      tracking_numbers: rows.map((row) => row.tracking_number),
      note: transfer.note,
      created_by: transfer.created_by,
      created_at: transfer.created_at.toISOString(),
      door: transfer.door,
      rolled_back_at: transfer.rolled_back_at?.toISOString() ?? null,
      rolled_back_by: transfer.rolled_back_by,
    };
  }

  // ----- helpers -----

  /** The warehouse a scan happens at; employees and drivers need its warehouse role, admins do not. */
  private async scanner(ctx: OperationContext, warehouseId: number, known?: Warehouse[]): Promise<Warehouse> {
    const caller = callerOf(ctx);
    const warehouse = known
      ? known.find((w) => w.id === warehouseId)
      : await repo.findWarehouse(ctx.db, businessOf(ctx), warehouseId);
    if (!warehouse) throw new AppError('WAREHOUSE_NOT_FOUND', { params: { id: warehouseId } });
    if (caller.kind !== 'client_admin' && !(await repo.isStaff(ctx.db, warehouseId, caller.userId))) {
      throw new AppError('WAREHOUSE_ROLE_REQUIRED', { params: { code: warehouse.code } });
    }
    return warehouse;
  }

  private async warehouse(db: Queryable, businessId: number, id: number, options: { lock?: boolean } = {}) {
    const row = await repo.findWarehouse(db, businessId, id, options);
    if (!row) throw new AppError('WAREHOUSE_NOT_FOUND', { params: { id } });
    return row;
  }

  private async location(db: Queryable, warehouseId: number, id: number) {
    const [row] = await repo.lockLocations(db, warehouseId, [id]);
    if (!row) throw new AppError('WAREHOUSE_LOCATION_NOT_FOUND', { params: { id } });
    return row;
  }

  private async route(ctx: OperationContext, routeId: number) {
    const [route] = await this.dispatch.routes(ctx, { ids: [routeId] });
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    return route;
  }

  /** The business's packages behind these numbers; another business's number is as unknown as a made-up one. */
  private async packagesOf(db: Queryable, businessId: number, numbers: string[]) {
    const found = await this.orders.queries.packagesByTrackingNumber(db, numbers);
    return new Map(found.filter((p) => p.business_id === businessId).map((p) => [p.tracking_number, p]));
  }

  /** The package's row in this warehouse, locked, while it is inside (received, stored or sorted). */
  private async inHouse(ctx: OperationContext, businessId: number, warehouseId: number, number: string) {
    const row = await repo.lockPackageRowByNumber(ctx.db, businessId, number);
    if (!row && !(await this.packagesOf(ctx.db, businessId, [number])).has(number)) {
      throw new AppError('TRACKING_NOT_FOUND', { params: { number } });
    }
    if (!row || row.warehouse_id !== warehouseId || !repo.IN_HOUSE.includes(row.state)) {
      throw new AppError('PACKAGE_NOT_IN_WAREHOUSE', { params: { number } });
    }
    return row;
  }

  /** Moves a package to a location (or off every location), keeping each location's count and capacity. */
  private async place(
    ctx: OperationContext,
    businessId: number,
    warehouseId: number,
    row: repo.PackageRow,
    locationId: number | null,
    how: { state: PackageState; action: string; routeId?: number },
  ) {
    // Onto a location from none (a sort, a first putaway): the room is taken in one statement.
    // When it is not (unknown, full, or room freed since), the general way below tells which.
    let target =
      row.location_id === null && locationId !== null
        ? await repo.takeRoom(ctx.db, warehouseId, locationId, 1)
        : undefined;
    if (!target) {
      const ids = [...new Set([row.location_id, locationId].filter((id): id is number => id !== null))];
      const locations = await repo.lockLocations(ctx.db, warehouseId, ids);
      target = locations.find((l) => l.id === locationId);
      if (locationId !== null && !target)
        throw new AppError('WAREHOUSE_LOCATION_NOT_FOUND', { params: { id: locationId } });
      if (target && target.id !== row.location_id) {
        checkRoom(target, 1);
        await repo.addOccupancy(ctx.db, target.id, 1);
        target = { ...target, occupied: target.occupied + 1 };
      }
      if (row.location_id !== null && row.location_id !== locationId)
        await repo.addOccupancy(ctx.db, row.location_id, -1);
    }
    const at = this.clock.now();
    const movement = this.movement(ctx, businessId, warehouseId, how.action, {
      package_id: row.package_id,
      before: { location_id: row.location_id, state: row.state },
      after: { location_id: locationId, state: how.state },
    });
    await repo.savePackage(ctx.db, movement, {
      ...row,
      state: how.state,
      location_id: locationId,
      route_id: how.routeId ?? row.route_id,
      updated_at: at,
    });
    return target ?? null!;
  }

  /** The row of a movement (what moved, from where to where, who moved it, through which door). */
  private movement(
    ctx: OperationContext,
    businessId: number,
    warehouseId: number,
    action: string,
    what: {
      package_id?: number;
      sku?: string;
      quantity?: number;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
      transfer_id?: number;
      scan_id?: string;
    },
  ): repo.MovementRow {
    return {
      business_id: businessId,
      warehouse_id: warehouseId,
      package_id: what.package_id ?? null,
      sku: what.sku ?? null,
      quantity: what.quantity ?? null,
      action,
      before: what.before,
      after: what.after,
      transfer_id: what.transfer_id ?? null,
      scan_id: what.scan_id ?? null,
      actor_user_id: ctx.caller?.userId ?? null,
      door: ctx.door,
      at: this.clock.now(),
    };
  }
}

/** Order statuses from which a loaded parcel's order may go out for delivery (or is out already). */
const CAN_GO_OUT: readonly OrderStatus[] = [
  'PLANNED',
  'PICKED_UP',
  'AT_WAREHOUSE',
  'FAILED_ATTEMPT',
  'OUT_FOR_DELIVERY',
];

/** Packages a day's sorting overview reads at most. */
const SORT_PLAN_LIMIT = 5000;

function checkRoom(location: repo.LocationRow, parcels: number) {
  if (location.occupied + parcels > location.capacity) {
    throw new AppError('LOCATION_FULL', {
      params: { code: location.code },
      details: { location_id: location.id, capacity: location.capacity, occupied: location.occupied },
    });
  }
}

function locationView(row: repo.LocationRow) {
  return {
    id: row.id,
    warehouse_id: row.warehouse_id,
    code: row.code,
    kind: row.kind,
    capacity: row.capacity,
    occupied: row.occupied,
  };
}

function refusedScan(
  ctx: OperationContext,
  number: string,
  code: ErrorCode,
  params: Record<string, string | number>,
  details?: Record<string, unknown>,
) {
  return {
    tracking_number: number,
    outcome: 'refused' as const,
    error_code: code,
    message: errorMessage(code, ctx.lang, params),
    ...(details ? { details } : {}),
  };
}

/** The warehouse as an OTEP location: where the tracking event happened. */
function locationOfWarehouse(w: Here) {
  return {
    name: w.name,
    address: w.line1,
    ...(w.city ? { city: w.city } : {}),
    ...(w.postal_code ? { postal_code: w.postal_code } : {}),
    ...(w.country ? { country: w.country } : {}),
    ...(w.lat !== null ? { lat: w.lat } : {}),
    ...(w.lng !== null ? { lng: w.lng } : {}),
  };
}

/**
 * The warehouse a package belongs to: the one whose postal prefixes match its address's postal
 * code best (longest prefix), else the nearest one with coordinates; null when nothing tells.
 */
export function homeWarehouse(
  warehouses: readonly Warehouse[],
  address: { postal_code?: string; lat?: number; lng?: number } | null,
): Warehouse | null {
  if (!address) return null;
  const postal = (address.postal_code ?? '').replace(/\s+/g, '').toUpperCase();
  let best: { warehouse: Warehouse; length: number } | null = null;
  for (const warehouse of warehouses) {
    for (const prefix of warehouse.postal_prefixes) {
      const p = prefix.replace(/\s+/g, '').toUpperCase();
      if (postal && p && postal.startsWith(p) && (!best || p.length > best.length))
        best = { warehouse, length: p.length };
    }
  }
  if (best) return best.warehouse;
  if (address.lat === undefined || address.lng === undefined) return null;
  let nearest: { warehouse: Warehouse; km: number } | null = null;
  for (const warehouse of warehouses) {
    if (warehouse.lat === null || warehouse.lng === null) continue;
    const km = haversineKm(address.lat, address.lng, warehouse.lat, warehouse.lng);
    if (!nearest || km < nearest.km) nearest = { warehouse, km };
  }
  return nearest?.warehouse ?? null;
}

/** After a move, the package is mis-received only if its home is still elsewhere. */
function homeOfRow(warehouses: readonly Warehouse[], row: repo.PackageRow, now: number): number | null {
  const home = row.home_warehouse_id ?? null;
  if (home !== null) return home === now ? null : home;
  // It was at home where it was: wherever it goes now is not its home.
  return warehouses.some((w) => w.id === row.warehouse_id) && row.warehouse_id !== now
    ? row.warehouse_id
    : null;
}

function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(a));
}
