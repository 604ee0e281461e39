import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrderStatus, OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import { locationOfWarehouse, type WarehouseFloor } from './shared.ts';

/**
 * Goods out by route: sorting packages to their route's staging lane, loading the van, and
 * dispatching the route, whose orders go out for delivery through the orders module.
 */
export class RouteScans {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
    private readonly floor: WarehouseFloor,
  ) {}

  // ----- route sorting -----

  /** Directs a received package to its route's staging lane for the date; packages on no route are told so. */
  async sort(ctx: OperationContext, warehouseId: number, input: { tracking_number: string; date?: string }) {
    const businessId = businessOf(ctx);
    await this.floor.scanner(ctx, warehouseId);
    const date = input.date ?? (await this.dispatch.today(ctx.db, businessId));
    const row = await this.floor.inHouse(ctx, businessId, warehouseId, input.tracking_number);
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
    await this.floor.place(ctx, businessId, warehouseId, row, lane.id, {
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
    await this.floor.warehouse(ctx.db, businessId, warehouseId, { lock: true });
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
    await this.floor.scanner(ctx, warehouseId);
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
    await this.floor.scanner(ctx, warehouseId);
    await this.route(ctx, routeId);
    const outbound = await repo.lockOutbound(ctx.db, businessId, routeId, warehouseId);
    if (outbound.dispatched_at !== null) {
      throw new AppError('ROUTE_ALREADY_DISPATCHED', {
        params: { route: routeId },
        details: { route_id: routeId },
      });
    }
    const pkg = (await this.floor.packagesOf(ctx.db, businessId, [trackingNumber])).get(trackingNumber);
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
    await this.floor.place(ctx, businessId, warehouseId, row, null, {
      state: 'loaded',
      action: 'loaded',
      routeId,
    });
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
    await this.floor.scanner(ctx, warehouseId);
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
    const here = await this.floor.scanner(ctx, warehouseId);
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
      await this.floor.place(ctx, businessId, row.warehouse_id, row, null, {
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

  private async route(ctx: OperationContext, routeId: number) {
    const [route] = await this.dispatch.routes(ctx, { ids: [routeId] });
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    return route;
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
