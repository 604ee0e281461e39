import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { OpeningHours } from '../../platform/schemas.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import { locationView, type WarehouseFloor } from './shared.ts';
import type { LocationKind, PackageState } from './tables.ts';

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

type Nullable<T> = { [K in keyof T]: T[K] | null };

/** Warehouse sites: the warehouses, their locations and staff, and what they hold now. */
export class WarehouseSites {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
    private readonly floor: WarehouseFloor,
  ) {}

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
    await this.floor.warehouse(ctx.db, businessId, warehouseId);
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
    await this.floor.warehouse(ctx.db, businessId, warehouseId);
    const location = await this.floor.location(ctx.db, warehouseId, locationId);
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
    await this.floor.warehouse(ctx.db, businessId, warehouseId, { lock: true });
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
    if (query.warehouse_id !== undefined) await this.floor.warehouse(ctx.db, businessId, query.warehouse_id);
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
}
