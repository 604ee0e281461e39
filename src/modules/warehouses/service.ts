import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrderStatus, OrderStatusChange, OrderStatusListener, OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import { WarehouseReceiving } from './receiving.ts';
import * as repo from './repository.ts';
import { RouteScans } from './route-scans.ts';
import { WarehouseFloor } from './shared.ts';
import { WarehouseSites } from './sites.ts';
import { WarehouseTransfers } from './transfers.ts';

/** Most tracking numbers one receiving scan or one transfer batch may carry. */
export const MAX_BATCH = 100;

/**
 * Warehouses: sites and their locations, what they hold now, and the scan flow (receiving,
 * putaway, route sorting, route outbound) and transfers between them, one part per flow. The
 * parts share one floor, so every package move keeps the same counts and movement log.
 */
export class WarehousesService implements OrderStatusListener {
  readonly sites: WarehouseSites;
  readonly receiving: WarehouseReceiving;
  readonly routes: RouteScans;
  readonly transfers: WarehouseTransfers;
  private readonly floor: WarehouseFloor;

  constructor(
    clock: Clock,
    accounts: AccountsService,
    orders: OrdersService,
    tracking: TrackingService,
    dispatch: DispatchService,
  ) {
    this.floor = new WarehouseFloor(clock, orders);
    this.sites = new WarehouseSites(clock, accounts, orders, dispatch, this.floor);
    this.receiving = new WarehouseReceiving(clock, orders, tracking, this.floor);
    this.routes = new RouteScans(clock, orders, dispatch, this.floor);
    this.transfers = new WarehouseTransfers(clock, orders, tracking, this.floor);
  }

  /** The business's parcels received in its warehouses with one of these tracking numbers (label reading's matches). */
  parcelsByTrackingNumbers(db: Queryable, businessId: number, trackingNumbers: string[]) {
    return repo.packagesByTrackingNumbers(db, businessId, trackingNumbers);
  }

  /** The business's warehouses that have a point, at most `limit`, by code: what a map draws. */
  async mapSites(db: Queryable, businessId: number, limit: number) {
    const rows = await repo.warehousesOf(db, businessId);
    return rows
      .filter((row) => row.lat !== null && row.lng !== null)
      .slice(0, limit)
      .map((row) => ({
        id: row.id,
        code: row.code,
        name: row.name,
        line1: row.line1,
        postal_code: row.postal_code,
        city: row.city,
        country: row.country,
        lat: row.lat!,
        lng: row.lng!,
        depot_id: row.depot_id,
      }));
  }

  /**
   * Keeps the inventory true to the orders (registered with `orders.journal.onStatusChange`): an
   * order that goes out for delivery, is delivered or returned by any door has left the warehouse,
   * so its packages still held there leave it too, in the same transaction. A scan that names its
   * packages (`package_ids`) moves only those.
   */
  async orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    await this.ordersStatusChanged(ctx, [change]);
  }

  /** The same for many changes at once: the packages still held are read in one statement. */
  async ordersStatusChanged(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void> {
    const leaving = changes.filter((change) =>
      (['OUT_FOR_DELIVERY', 'DELIVERED', 'RETURNED'] as OrderStatus[]).includes(change.to),
    );
    const businessId = leaving[0]?.businessId;
    if (businessId === undefined) return;
    const ids = leaving.flatMap((change) => {
      const only = change.details?.package_ids;
      return change.packages.map((p) => p.id).filter((id) => !only || only.includes(id));
    });
    const rows = await repo.packageRows(ctx.db, businessId, [...new Set(ids)], { lock: true });
    for (const row of rows) {
      if (row.state === 'dispatched') continue;
      await this.floor.place(ctx, businessId, row.warehouse_id, row, null, {
        state: 'dispatched',
        action: 'left',
      });
    }
  }
}
