import type { z } from 'zod';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrderScope, OrdersService } from '../orders/index.ts';
import { signalBoard } from './board-repository.ts';
import { clockTime, demandOf, legsOf, seconds } from './order-legs.ts';
import * as repo from './repository.ts';
import {
  type RoadNetwork,
  type StraightLineSettings,
  straightLineMatrix,
  type TravelMatrix,
} from './roads.ts';
import type { RouteSearch } from './route-search.ts';
import type { RouteStopsChange } from './route-stops.ts';
import type { driverSchema, routeSchema } from './schemas.ts';
import { onTheirShifts, type ShiftCalendar } from './shift-calendar.ts';
import { pointKey } from './solver/distance.ts';
import type { Objective, SolverStop, SolverVehicle, UnassignedReason } from './solver/types.ts';
import type { LockerReservationRule } from './tables.ts';

/** The most a caller may let route building search, and what it gets by default. */
export const MAX_TIME_LIMIT_MS = 10_000;
export const DEFAULT_TIME_LIMIT_MS = 2000;
/** A search this long or longer runs as a job when the door can answer with one (docs/jobs.md). */
export const JOB_TIME_LIMIT_MS = 5000;
export const OBJECTIVES = ['least_distance', 'fewest_vehicles', 'balanced'] as const satisfies Objective[];

/** How a business plans until it saves its own settings. */
export const DEFAULT_DISPATCH_SETTINGS: DispatchSettings = {
  preparation_minutes: 30,
  circuity_factor: 1.3,
  average_speed_kmh: 30,
  locker_reservation: 'drop_at_locker',
};
export interface DispatchSettings {
  preparation_minutes: number;
  circuity_factor: number;
  average_speed_kmh: number;
  /** What a locker reservation does to the order's open delivery stop (locker-stops.ts). */
  locker_reservation: LockerReservationRule;
}

export interface BuildRouteInput {
  date: string;
  business_id?: number;
  driver_ids?: number[];
  service_minutes: number;
  time_limit_ms?: number;
  objective?: Objective;
}

type BuildUnassignedReason = UnassignedReason | 'no_location';

/** What route planning asks of the rest of the module (the DispatchService). */
export interface PlanningFleet {
  /** Who plans, from which pool, with which fleet. */
  planner(
    ctx: OperationContext,
  ): Promise<{ scope: OrderScope; fleet: { contractorCompanyId: number | null } }>;
  drivers(
    db: Queryable,
    businessId: number,
    options: { ids?: number[]; fleet?: repo.Fleet },
  ): Promise<Array<z.infer<typeof driverSchema>>>;
  routes(ctx: OperationContext, filter: { ids: number[] }): Promise<Array<z.infer<typeof routeSchema>>>;
  /** Tells who follows routes' stops (route-stops.ts). */
  tellStopsChanged(ctx: OperationContext, change: RouteStopsChange): Promise<void>;
}

/**
 * Route building: the business's planning settings, what a build would work with, and the build
 * itself (the clock, the roads, the objective, and a rebuild that keeps what has begun).
 */
export class RoutePlanning {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly roads: RoadNetwork,
    private readonly dispatch: PlanningFleet,
    /** How the solver runs: on the event loop in slices, or on the solver threads. */
    private readonly search: RouteSearch,
    /** The drivers' shifts of a date, when a calendar keeps them: their working windows. */
    private readonly shifts?: ShiftCalendar,
  ) {}

  async settings(db: Queryable, businessId: number): Promise<DispatchSettings> {
    return (await repo.settingsOf(db, businessId)) ?? { ...DEFAULT_DISPATCH_SETTINGS };
  }

  async updateSettings(ctx: OperationContext, changes: Partial<DispatchSettings>) {
    const businessId = businessOf(ctx);
    const settings = { ...(await this.settings(ctx.db, businessId)), ...changes };
    await repo.saveSettings(ctx.db, { business_id: businessId, ...settings, updated_at: this.clock.now() });
    return { result: true as const, settings };
  }

  async buildRouteOptions(ctx: OperationContext, date: string) {
    const { scope, fleet } = await this.dispatch.planner(ctx);
    const pool = await this.orders.queries.planningPool(ctx, scope, date);
    const settings = await this.settings(ctx.db, scope.businessId);
    const now = await this.localNow(ctx.db, scope.businessId);
    return {
      result: true as const,
      date,
      drivers: await onTheirShifts(
        this.shifts,
        ctx.db,
        scope.businessId,
        date,
        (await this.dispatch.drivers(ctx.db, scope.businessId, { fleet })).filter(
          (driver) => driver.active && driver.profile?.available,
        ),
      ),
      depots: (await repo.depotsOf(ctx.db, scope.businessId)).map(({ business_id: _b, ...depot }) => depot),
      pool: { orders: pool.length, without_location: pool.filter((order) => !legsOf(order)).length },
      constraints: {
        distance: (this.roads.source ?? 'straight_line') as 'osrm' | 'straight_line',
        speed_kmh: settings.average_speed_kmh,
        circuity_factor: settings.circuity_factor,
        preparation_minutes: settings.preparation_minutes,
        earliest_departure:
          date === now.date ? clockTime(earliestStart(now.seconds, settings)).slice(0, 5) : null,
        objectives: [...OBJECTIVES],
        default_objective: 'least_distance' as const,
        default_service_minutes: 5,
        default_time_limit_ms: DEFAULT_TIME_LIMIT_MS,
        max_time_limit_ms: MAX_TIME_LIMIT_MS,
        respects: ['vehicle_capacity', 'time_windows', 'driver_shifts', 'skills', 'pickup_before_delivery'],
      },
    };
  }

  /**
   * Builds routes for a date from the caller's planning pool with the available drivers, saves
   * them, and plans each assigned order onto its route. A rebuild first dissolves the date's
   * routes that nothing has happened on yet (see `dissolveUntouched`). Returns the routes, every
   * order left out with the reason, and totals.
   */
  async buildRoutes(ctx: OperationContext, input: BuildRouteInput) {
    const { scope, fleet } = await this.dispatch.planner(ctx);
    const businessId = scope.businessId;
    const now = await this.localNow(ctx.db, businessId);
    if (input.date < now.date) {
      throw new AppError('DATE_IN_PAST', { params: { date: input.date, today: now.date } });
    }
    const settings = await this.settings(ctx.db, businessId);
    const objective = input.objective ?? 'least_distance';
    const timeLimitMs = input.time_limit_ms ?? DEFAULT_TIME_LIMIT_MS;
    // The drivers this build is about: those asked for, else the caller's whole fleet.
    const fleetDrivers = await this.dispatch.drivers(ctx.db, businessId, { ids: input.driver_ids, fleet });
    const rebuild = await this.dissolveUntouched(
      ctx,
      businessId,
      input.date,
      fleetDrivers.map((driver) => driver.id),
    );
    const busy = new Set(rebuild.kept.map((route) => route.driver_user_id));
    const drivers = await onTheirShifts(
      this.shifts,
      ctx.db,
      businessId,
      input.date,
      fleetDrivers.filter((d) => d.active && d.profile?.available && !busy.has(d.id)),
    );
    const depots = new Map((await repo.depotsOf(ctx.db, businessId)).map((depot) => [depot.id, depot]));
    // Each route keeps the depot its driver leaves from that day (the shift's, else the profile's).
    const depotOf = new Map(drivers.map((driver) => [driver.id, driver.profile?.depot_id ?? null]));
    // The pool, and the orders of the routes dissolved: still PLANNED, they are planned again.
    const pool = [
      ...(await this.orders.queries.planningPool(ctx, scope, input.date)),
      ...(await this.orders.queries.views(ctx.db, businessId, rebuild.orderIds)),
    ];
    // Today, no van leaves before it can be ready; a shift already over serves nothing.
    const earliest = input.date === now.date ? earliestStart(now.seconds, settings) : 0;

    const vehicles: SolverVehicle[] = drivers.flatMap((driver) => {
      const profile = driver.profile!;
      const depot = profile.depot_id ? depots.get(profile.depot_id) : undefined;
      if (!depot) return [];
      const shiftEnd = seconds(profile.shift.end);
      return [
        {
          id: driver.id,
          start: { lat: depot.lat, lng: depot.lng },
          capacity: {
            weightGrams: profile.capacity.weight_grams,
            volumeCm3: profile.capacity.volume_cm3,
            count: profile.capacity.count,
          },
          shift: {
            start: Math.min(Math.max(seconds(profile.shift.start), earliest), shiftEnd),
            end: shiftEnd,
          },
          skills: profile.skills,
        },
      ];
    });
    const stops: SolverStop[] = pool.flatMap((order): SolverStop[] => {
      const legs = legsOf(order);
      if (!legs) return [];
      const serviceSeconds = input.service_minutes * 60;
      // The order's window is its customer's: the delivery's, or the pickup's for a pickup order.
      const window = order.time_window
        ? { start: seconds(order.time_window.start), end: seconds(order.time_window.end) }
        : undefined;
      const stop: SolverStop = {
        id: order.id,
        location: legs.delivery ?? legs.pickup!,
        demand: demandOf(order),
        serviceSeconds,
        requiredSkills: order.required_skills,
        window,
      };
      if (legs.delivery && legs.pickup) stop.pickup = { location: legs.pickup, serviceSeconds };
      else if (legs.pickup) stop.kind = 'pickup';
      return [stop];
    });

    const matrix = await this.travel(businessId, input.date, vehicles, stops, settings);
    ctx.progress?.(10);
    // The search improves for its time limit unless it settles first: its share of the progress
    // (10 to 90) follows the time it has had.
    const searchStarted = performance.now();
    const searching = ctx.progress
      ? setInterval(() => {
          const share = (performance.now() - searchStarted) / Math.max(timeLimitMs, 1);
          ctx.progress?.(10 + 80 * Math.min(share, 1));
        }, 250)
      : undefined;
    const plan = await this.search({
      stops,
      vehicles,
      objective,
      travel: matrix,
      timeLimitMs,
      seed: 1,
    }).finally(() => clearInterval(searching));
    ctx.progress?.(90);

    // Set-based: every route and stop in two statements, every order planned in a handful.
    const createdAt = this.clock.now();
    const routeIds = await repo.insertRoutes(
      ctx.db,
      plan.routes.map((planned) => ({
        route: {
          business_id: businessId,
          driver_user_id: planned.vehicleId,
          depot_id: depotOf.get(planned.vehicleId) ?? null,
          route_date: input.date,
          distance_meters: Math.round(planned.distanceMeters),
          distance_source: matrix.source,
          departure: clockTime(planned.departure),
          return_time: clockTime(planned.returnTime),
          created_at: createdAt,
          load_weight_grams: planned.load.weightGrams,
          load_volume_cm3: planned.load.volumeCm3,
          load_count: planned.load.count,
        },
        stops: planned.stops.map((stop, index) => ({
          sequence: index + 1,
          order_id: stop.stopId,
          leg: stop.leg,
          planned_arrival: clockTime(stop.arrival),
          planned_departure: clockTime(stop.departure),
        })),
      })),
    );
    const placed = plan.routes.flatMap((planned, index) =>
      planned.stops
        .filter((stop, at, all) => all.findIndex((other) => other.stopId === stop.stopId) === at)
        .map((stop) => ({ orderId: stop.stopId, routeId: routeIds[index]!, driverId: planned.vehicleId })),
    );
    // An order of a dissolved route planned again only changes route: nothing to tell its
    // customer. One left out goes back to the pool, taken off its route as the customer sees it.
    const wasPlanned = new Set(rebuild.orderIds);
    await this.orders.changes.planOnRoutes(
      ctx,
      businessId,
      placed.filter((plan) => !wasPlanned.has(plan.orderId)),
    );
    await this.orders.replanning.moveToRoutes(
      ctx,
      businessId,
      placed.filter((plan) => wasPlanned.has(plan.orderId)),
    );
    const placedIds = new Set(placed.map((plan) => plan.orderId));
    await this.orders.changes.returnToPool(
      ctx,
      businessId,
      rebuild.orderIds.filter((id) => !placedIds.has(id)),
    );
    const dissolved = rebuild.dissolved.map((route) => route.id);
    // Held first, as every change of stops holds its routes before telling (route-stops.ts), and
    // told before they go: what follows them (a load plan) still finds them by id.
    await repo.routeIdsOf(ctx.db, businessId, dissolved, 'update');
    await this.dispatch.tellStopsChanged(ctx, { businessId, routeIds: dissolved, dissolved: true });
    await repo.deleteRoutes(ctx.db, businessId, dissolved);
    // Routes made and dissolved: the business's live boards read the day again once this commits.
    await signalBoard(ctx.db, businessId, { all: true });

    const refs = new Map(pool.map((order) => [order.id, order.order_ref]));
    const unassigned = [
      ...pool
        .filter((order) => !legsOf(order))
        .map((order) => ({
          order_id: order.id,
          order_ref: order.order_ref,
          reason: 'no_location' as BuildUnassignedReason,
          // Placed where it stands, the order is planned by the next build or a plan edit.
          fix: {
            operation: 'set_order_location',
            method: 'PUT' as const,
            path: `/api/v1/client/orders/${order.id}/location`,
          },
        })),
      ...plan.unassigned.map((u) => ({
        order_id: u.stopId,
        order_ref: refs.get(u.stopId)!,
        reason: u.reason as BuildUnassignedReason,
        fix: null,
      })),
    ];
    const routes = await this.dispatch.routes(ctx, { ids: routeIds });
    const sum = (figure: (route: (typeof routes)[number]) => number) =>
      routes.reduce((total, route) => total + figure(route), 0);
    const durations = routes.map((route) => route.duration_minutes);
    return {
      result: true as const,
      date: input.date,
      objective,
      distance_source: matrix.source,
      earliest_departure: input.date === now.date ? clockTime(earliest).slice(0, 5) : null,
      routes,
      unassigned,
      totals: {
        orders: pool.length,
        assigned: plan.totals.assigned,
        unassigned: unassigned.length,
        routes: plan.routes.length,
        distance_meters: Math.round(plan.totals.distanceMeters),
        duration_minutes: sum((route) => route.duration_minutes),
        longest_route_minutes: durations.length ? Math.max(...durations) : 0,
        shortest_route_minutes: durations.length ? Math.min(...durations) : 0,
        load: {
          weight_grams: sum((route) => route.load.weight_grams),
          volume_cm3: sum((route) => route.load.volume_cm3),
          count: sum((route) => route.load.count),
        },
      },
      rebuild: {
        replanned_routes: rebuild.dissolved.length,
        kept_route_ids: rebuild.kept.map((route) => route.id),
      },
      search: {
        time_limit_ms: timeLimitMs,
        elapsed_ms: plan.search.elapsedMs,
        iterations: plan.search.iterations,
      },
    };
  }

  /**
   * A rebuild replans only what nothing has happened on: the date's routes of these drivers that
   * are unlocked, still `planned`, with every stop pending and every order still PLANNED. Those
   * are dissolved, their orders sent back to the pool (set-based, through the orders service)
   * to be planned again with it. Locked, started or finished routes, and routes with a stop done
   * or under way, are kept as they are, and their drivers get no second route.
   */
  private async dissolveUntouched(
    ctx: OperationContext,
    businessId: number,
    date: string,
    driverIds: number[],
  ) {
    const routes = await repo.routesOfDrivers(ctx.db, businessId, date, driverIds);
    const orderIds = routes.flatMap((route) => route.order_ids);
    const orders = orderIds.length
      ? await this.orders.queries.summaries(ctx.db, businessId, orderIds)
      : new Map();
    const untouched = (route: (typeof routes)[number]) =>
      !route.locked &&
      route.status === 'planned' &&
      route.all_pending &&
      route.order_ids.every((id) => orders.get(id)?.status === 'PLANNED');
    const dissolved = routes.filter(untouched);
    const kept = routes.filter((route) => !untouched(route));
    // Deleted once their orders are on the new routes or back in the pool (buildRoutes).
    return { dissolved, kept, orderIds: [...new Set(dissolved.flatMap((route) => route.order_ids))] };
  }

  /** The travel matrix over every place of the plan: the road network's, or straight lines when there is nothing to plan. */
  private async travel(
    businessId: number,
    date: string,
    vehicles: SolverVehicle[],
    stops: SolverStop[],
    settings: DispatchSettings,
  ): Promise<TravelMatrix> {
    const places = [
      ...vehicles.map((vehicle) => vehicle.start),
      ...stops.flatMap((stop) => (stop.pickup ? [stop.pickup.location, stop.location] : [stop.location])),
    ];
    const points = [...new Map(places.map((point) => [pointKey(point), point])).values()];
    const straightLine = straightLineOf(settings);
    if (vehicles.length === 0 || stops.length === 0) return straightLineMatrix(points, straightLine);
    return this.roads.matrix({ businessId, date, points, straightLine });
  }

  /** The business's date and time of day (seconds from midnight) now. */
  private async localNow(db: Queryable, businessId: number) {
    const local = await this.accounts.localDateTimeOf(db, businessId, this.clock.now());
    const [hours = 0, minutes = 0, secs = 0] = local.slice(11).split(':').map(Number);
    return { date: local.slice(0, 10), seconds: hours * 3600 + minutes * 60 + secs };
  }
}

/** How straight lines stand in for the business's roads: its circuity, at its average speed. */
export function straightLineOf(settings: DispatchSettings): StraightLineSettings {
  return { circuity: settings.circuity_factor, speedMetersPerSecond: settings.average_speed_kmh / 3.6 };
}

/** The earliest a van leaves today: now plus the preparation time, within the day. */
function earliestStart(nowSeconds: number, settings: DispatchSettings): number {
  return Math.min(nowSeconds + settings.preparation_minutes * 60, 24 * 3600 - 60);
}
