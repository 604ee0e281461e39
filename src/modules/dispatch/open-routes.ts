import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { OrdersService } from '../orders/index.ts';
import { signalBoard } from './board-repository.ts';
import * as edits from './edits-repository.ts';
import type { PlanEdits } from './plan-edits.ts';
import * as repo from './repository.ts';

/** Why a route cannot go on a route board (ROUTE_NOT_PUBLISHABLE's `details.reason`). */
export type UnpublishableReason = 'already_on_board' | 'not_planned' | 'stops_under_way';

/** A route as it left its driver for a route board: what the board shows of it, and what it was. */
export interface OpenedRoute {
  routeId: number;
  date: string;
  /** The driver it was built for, and whether it was locked: where pulling it back returns it. */
  builtFor: number;
  wasLocked: boolean;
  departure: string;
  returnTime: string;
  distanceMeters: number;
  stops: number;
  /** Where its stops are (those whose orders have coordinates). */
  points: Array<{ lat: number; lng: number }>;
}

/** The window of a route (`HH:MM`, business time) and who drives it: what a route board weighs a claim by. */
export interface RouteWindow {
  id: number;
  date: string;
  driverId: number | null;
  status: string;
  departure: string;
  returnTime: string;
}

/**
 * Routes handed over through a fleet's route board: a built route leaves its driver to wait, open,
 * on the board (driverless, locked so that a rebuild leaves it and its later claimant alone), goes
 * to the driver who claims it (timed for that driver like a change of driver), or back to the board.
 */
export class OpenRoutes {
  constructor(
    private readonly orders: OrdersService,
    private readonly edits: PlanEdits,
  ) {}

  /**
   * Takes a built route off its driver: still `planned`, every stop pending. Its orders lose their
   * driver too; the route keeps its times, which the board shows.
   */
  async open(ctx: OperationContext, routeId: number): Promise<OpenedRoute> {
    const businessId = businessOf(ctx);
    const [row] = await edits.lockRoutes(ctx.db, businessId, [routeId]);
    if (!row) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    const [route] = await repo.routesOf(ctx.db, businessId, { ids: [routeId] });
    const stops = await repo.stopsOf(ctx.db, [routeId]);
    const reason: UnpublishableReason | null =
      row.driver_user_id === null
        ? 'already_on_board'
        : row.status !== 'planned'
          ? 'not_planned'
          : stops.some((stop) => stop.status !== 'pending')
            ? 'stops_under_way'
            : null;
    if (reason !== null) {
      throw new AppError('ROUTE_NOT_PUBLISHABLE', { params: { route: routeId }, details: { reason } });
    }
    await signalBoard(ctx.db, businessId, { routeIds: [routeId] });
    await edits.updateRoute(ctx.db, businessId, routeId, { driver_user_id: null, locked: true });
    await this.orders.replanning.reassignDriver(ctx, businessId, routeId, null);
    const views = new Map(
      (
        await this.orders.queries.views(ctx.db, businessId, [...new Set(stops.map((stop) => stop.order_id))])
      ).map((view) => [view.id, view]),
    );
    const points = stops.flatMap((stop) => {
      const order = views.get(stop.order_id);
      const place = stop.leg === 'pickup' ? order?.pickup : order?.dropoff;
      return typeof place?.lat === 'number' && typeof place.lng === 'number'
        ? [{ lat: place.lat, lng: place.lng }]
        : [];
    });
    return {
      routeId,
      date: row.route_date,
      builtFor: row.driver_user_id!,
      wasLocked: row.locked,
      departure: route!.departure.slice(0, 5),
      returnTime: route!.return_time.slice(0, 5),
      distanceMeters: route!.distance_meters,
      stops: stops.length,
      points,
    };
  }

  /**
   * Gives the route to a driver, timed for them from their profile (depot, shift, capacity) like a
   * change of driver; its orders follow, each with its `driver_changed` and, when its planned time
   * moved, `plan_edited` event (`operation` names the board's action). Rules the new timing breaks
   * are taken as confirmed: the board has weighed the driver by its own rules. `locked` is the lock
   * the route keeps.
   */
  async drive(
    ctx: OperationContext,
    routeId: number,
    driverId: number,
    board: { operation: string; locked: boolean },
  ) {
    const answer = await this.edits.changeDriver(
      ctx,
      { route_id: routeId, driver_id: driverId, service_minutes: 5, confirm_violations: true },
      board,
    );
    return answer.routes[0]!;
  }

  /**
   * Sends a route back to its board: it loses its driver (and its orders theirs), keeping its
   * times. A route under way cannot wait for a driver again (ROUTE_NOT_PUBLISHABLE).
   */
  async reopen(ctx: OperationContext, routeId: number): Promise<void> {
    const businessId = businessOf(ctx);
    const [row] = await edits.lockRoutes(ctx.db, businessId, [routeId]);
    if (row?.status !== 'planned') {
      throw new AppError('ROUTE_NOT_PUBLISHABLE', {
        params: { route: routeId },
        details: { reason: 'not_planned' satisfies UnpublishableReason },
      });
    }
    await signalBoard(ctx.db, businessId, { routeIds: [routeId] });
    await edits.updateRoute(ctx.db, businessId, routeId, { driver_user_id: null });
    await this.orders.replanning.reassignDriver(ctx, businessId, routeId, null);
  }

  /** Whether a route can be timed for the driver: a working profile with a depot (DRIVER_WITHOUT_DEPOT otherwise). */
  async drivable(db: Queryable, businessId: number, driverId: number): Promise<boolean> {
    const [profile] = await repo.profilesOf(db, businessId, [driverId]);
    return profile?.depot_id != null;
  }

  /** These routes of the business, or a driver's routes of a date, with their windows. */
  async windows(
    db: Queryable,
    businessId: number,
    which: { ids: number[] } | { driverId: number; date: string },
  ): Promise<RouteWindow[]> {
    const rows = await repo.routesOf(db, businessId, which);
    return rows.map((row) => ({
      id: row.id,
      date: row.route_date,
      driverId: row.driver_user_id,
      status: row.status,
      departure: row.departure.slice(0, 5),
      returnTime: row.return_time.slice(0, 5),
    }));
  }
}
