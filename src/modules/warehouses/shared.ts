import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import type { PackageState } from './tables.ts';

export type Warehouse = repo.WarehouseRow;
/** What a tracking event needs of the warehouse it happened at. */
export type Here = Pick<
  Warehouse,
  'id' | 'code' | 'name' | 'line1' | 'city' | 'postal_code' | 'country' | 'lat' | 'lng'
>;

/**
 * The lookups and package moves every warehouse flow goes through, kept in one place so that
 * access to a warehouse, a location's count and capacity, and the movement log stay the same
 * whichever flow moves a package.
 */
export class WarehouseFloor {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
  ) {}

  /** The warehouse a scan happens at; employees and drivers need its warehouse role, admins do not. */
  async scanner(ctx: OperationContext, warehouseId: number, known?: Warehouse[]): Promise<Warehouse> {
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

  async warehouse(db: Queryable, businessId: number, id: number, options: { lock?: boolean } = {}) {
    const row = await repo.findWarehouse(db, businessId, id, options);
    if (!row) throw new AppError('WAREHOUSE_NOT_FOUND', { params: { id } });
    return row;
  }

  async location(db: Queryable, warehouseId: number, id: number) {
    const [row] = await repo.lockLocations(db, warehouseId, [id]);
    if (!row) throw new AppError('WAREHOUSE_LOCATION_NOT_FOUND', { params: { id } });
    return row;
  }

  /** The business's packages behind these numbers; another business's number is as unknown as a made-up one. */
  async packagesOf(db: Queryable, businessId: number, numbers: string[]) {
    const found = await this.orders.queries.packagesByTrackingNumber(db, numbers);
    return new Map(found.filter((p) => p.business_id === businessId).map((p) => [p.tracking_number, p]));
  }

  /** The package's row in this warehouse, locked, while it is inside (received, stored or sorted). */
  async inHouse(ctx: OperationContext, businessId: number, warehouseId: number, number: string) {
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
  async place(
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
  movement(
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

export function checkRoom(location: repo.LocationRow, parcels: number) {
  if (location.occupied + parcels > location.capacity) {
    throw new AppError('LOCATION_FULL', {
      params: { code: location.code },
      details: { location_id: location.id, capacity: location.capacity, occupied: location.occupied },
    });
  }
}

export function locationView(row: repo.LocationRow) {
  return {
    id: row.id,
    warehouse_id: row.warehouse_id,
    code: row.code,
    kind: row.kind,
    capacity: row.capacity,
    occupied: row.occupied,
  };
}

/** The warehouse as an OTEP location: where the tracking event happened. */
export function locationOfWarehouse(w: Here) {
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
