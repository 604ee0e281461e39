import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import * as repo from './repository.ts';
import { type Here, locationOfWarehouse, type Warehouse, type WarehouseFloor } from './shared.ts';

/** Why a package of a transfer batch cannot move. */
export type TransferFailure =
  | 'unknown_tracking_number'
  | 'not_in_source_warehouse'
  | 'not_local_delivery'
  | 'delivered'
  | 'on_dispatched_route';

/**
 * Transfers of packages between a business's warehouses, all or none, and their rollback. Each
 * move is recorded in the order's journal and appended to tracking through the tracking module.
 */
export class WarehouseTransfers {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly tracking: TrackingService,
    private readonly floor: WarehouseFloor,
  ) {}

  /**
   * Moves local-delivery packages from one warehouse to another, all or none: when any cannot
   * move, nothing moves and each failing package is named with its reason.
   */
  async transfer(
    ctx: OperationContext,
    input: { from_warehouse_id: number; to_warehouse_id: number; tracking_numbers: string[]; note?: string },
  ) {
    const businessId = businessOf(ctx);
    const from = await this.floor.scanner(ctx, input.from_warehouse_id);
    const to = await this.floor.warehouse(ctx.db, businessId, input.to_warehouse_id);
    if (from.id === to.id) {
      const fields = [{ field: 'to_warehouse_id', code: 'same_warehouse', message: 'to_warehouse_id' }];
      throw new AppError('VALIDATION_FAILED', { params: { fields: 'to_warehouse_id' }, details: { fields } });
    }
    const numbers = [...new Set(input.tracking_numbers)];
    const packages = await this.floor.packagesOf(ctx.db, businessId, numbers);
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
    const to = await this.floor.scanner(ctx, transfer.to_warehouse_id);
    const from = await this.floor.warehouse(ctx.db, businessId, transfer.from_warehouse_id);
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
    const movement = this.floor.movement(ctx, businessId, to.id, how.action, {
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
