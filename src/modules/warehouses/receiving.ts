import { isDeepStrictEqual } from 'node:util';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, type ErrorCode } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import type { OrderStatus, OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import * as repo from './repository.ts';
import {
  checkRoom,
  locationOfWarehouse,
  locationView,
  type Warehouse,
  type WarehouseFloor,
} from './shared.ts';

/** Order statuses a received package's order goes through to reach AT_WAREHOUSE (docs/warehouses.md). */
const RECEIVING_STEPS: Partial<Record<OrderStatus, OrderStatus[]>> = {
  NEW_ORDER: ['PICKED_UP', 'AT_WAREHOUSE'],
  PLANNED: ['PICKED_UP', 'AT_WAREHOUSE'],
  PICKED_UP: ['AT_WAREHOUSE'],
  FAILED_ATTEMPT: ['AT_WAREHOUSE'],
  AT_WAREHOUSE: [],
};

/**
 * Goods in: receiving scanned packages and storage customers' stock, and putting them away onto
 * locations. Order statuses change through the orders module, whose journal tells tracking.
 */
export class WarehouseReceiving {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly tracking: TrackingService,
    private readonly floor: WarehouseFloor,
  ) {}

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
    const here = await this.floor.scanner(ctx, warehouseId, warehouses);
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
    // What the received packages change, gathered first and then written set-based: a batch of
    // parcels costs about the statements of one.
    const at = this.clock.now();
    const location = locationOfWarehouse(here);
    const saved: Parameters<typeof repo.savePackages>[1][number][] = [];
    const advances: Parameters<OrdersService['changes']['advanceMany']>[1][number][] = [];
    const ownEvents: Parameters<TrackingService['appendEvents']>[2][number][] = [];
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
      const after = { warehouse_id: warehouseId, state: 'received', location_id: null };
      saved.push({
        movement: this.floor.movement(ctx, businessId, warehouseId, 'received', {
          package_id: pkg.id,
          before: existing ? { warehouse_id: existing.warehouse_id, state: existing.state } : null,
          after,
        }),
        row: {
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
        },
      });
      if (steps.length > 0) {
        // Picked up and at the warehouse (a parcel straight from its sender): one change of the order.
        advances.push({ orderId: pkg.order_id, to: steps, details: { location, package_ids: [pkg.id] } });
      } else {
        // The order is at a warehouse already (another of its packages came first): this package's own event.
        ownEvents.push({
          pkg: { id: pkg.id, trackingNumber: number },
          event: { status_code: 'received', source: { type: 'self_delivery' }, location },
        });
      }
      locked.set(pkg.order_id, { ...order, status: 'AT_WAREHOUSE' });
      results.push({ ...answer, outcome: 'received' as const, order_status: 'AT_WAREHOUSE' as const });
    }
    await repo.savePackages(ctx.db, saved);
    await this.orders.changes.advanceMany(ctx, advances);
    await this.tracking.appendEvents(ctx, businessId, ownEvents);
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
    await this.floor.scanner(ctx, warehouseId);
    const place = {
      businessId,
      warehouseId,
      customerUserId: input.customer_id,
      sku: input.sku,
      locationId: null,
    };
    const movement = this.floor.movement(ctx, businessId, warehouseId, 'stock_received', {
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
    await this.floor.scanner(ctx, warehouseId);
    if (input.tracking_number !== undefined) {
      const row = await this.floor.inHouse(ctx, businessId, warehouseId, input.tracking_number);
      const location = await this.floor.location(ctx.db, warehouseId, input.location_id);
      if (row.location_id === location.id) {
        return { result: true as const, outcome: 'unchanged' as const, location: locationView(location) };
      }
      const moved = await this.floor.place(ctx, businessId, warehouseId, row, location.id, {
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
      const location = await this.floor.location(ctx.db, warehouseId, from);
      return { result: true as const, outcome: 'unchanged' as const, location: locationView(location) };
    }
    const claimed = await this.claimScan(
      ctx,
      this.floor.movement(ctx, businessId, warehouseId, 'stock_putaway', {
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

function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(a));
}
