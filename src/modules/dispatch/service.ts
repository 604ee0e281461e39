import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrderScope, OrderStatusListener, OrdersService } from '../orders/index.ts';
import { OFF_ROUTE } from '../orders/index.ts';
import { DispatchMapReads } from './map-reads.ts';
import { createOneOrderRoute } from './one-order-route.ts';
import { seconds } from './order-legs.ts';
import {
  type BuildRouteInput,
  type DispatchSettings,
  type PlanningFleet,
  RoutePlanning,
  straightLineOf,
} from './planning.ts';
import * as repo from './repository.ts';
import type { RoadNetwork } from './roads.ts';
import type { RouteSearch } from './route-search.ts';
import { type RouteStopsChange, type RouteStopsListener, RouteStopsListeners } from './route-stops.ts';
import { type RouteUnderWay, routesUnderWay } from './routes-under-way.ts';
import { driverIdsOf, routeDriver } from './schemas.ts';
import type { ShiftCalendar } from './shift-calendar.ts';
import type { Point } from './solver/types.ts';
import type { DispatchTables } from './tables.ts';

export interface DriverProfileInput {
  driver_id: number;
  contractor_company_id?: number | null;
  depot_id?: number | null;
  vehicle_type?: string;
  capacity: { weight_grams: number; volume_cm3: number; count: number };
  shift: { start: string; end: string };
  skills?: string[];
  available?: boolean;
}

/**
 * Who plans, from which pool, with which drivers: the business's staff plan its whole pool with
 * its own fleet; a contractor plans the pool its rules give it with its company's drivers.
 */
interface Planner {
  scope: OrderScope;
  fleet: NonNullable<repo.Fleet>;
}

/** Drivers and their working profiles, routes, and route building from the planning pool. */
export class DispatchService implements PlanningFleet {
  private readonly planning: RoutePlanning;
  /** Depots, a day's routes and the drivers' last positions as maps draw them. */
  readonly maps: DispatchMapReads;
  /** Who follows the routes' stops (route-stops.ts). */
  private readonly stopListeners = new RouteStopsListeners();

  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly roads: RoadNetwork,
    search: RouteSearch,
    shifts?: ShiftCalendar,
  ) {
    this.planning = new RoutePlanning(clock, accounts, orders, roads, this, search, shifts);
    this.maps = new DispatchMapReads(accounts, orders);
  }

  /**
   * Keeps the stops of routes in step with the orders (registered with `orders.onStatusChange`):
   * an order taken off its route (held, cancelled, sent back to the pool, rerouted) stops being
   * one of its stops, in the same transaction, so a later plan puts it on one route only; the
   * routes' stop listeners hear of it.
   */
  readonly stopsFollowOrders: OrderStatusListener = {
    orderStatusChanged: async (ctx, change) => {
      await this.stopsFollowOrders.ordersStatusChanged!(ctx, [change]);
    },
    /** Many at once (a rebuild sending its routes' orders back to the pool): one statement per business. */
    ordersStatusChanged: async (ctx, changes) => {
      const byBusiness = new Map<number, number[]>();
      for (const { businessId, order, from, to, rerouted } of changes) {
        // A reroute cancelled the original in the same step; the replacement is on no route yet.
        const leaving = rerouted
          ? order.rerouted_from
          : from !== null && OFF_ROUTE.includes(to)
            ? order.id
            : null;
        if (leaving !== null) byBusiness.set(businessId, [...(byBusiness.get(businessId) ?? []), leaving]);
      }
      for (const [businessId, orderIds] of byBusiness) {
        const routeIds = await repo.deleteStopsOfOrders(ctx.db, businessId, orderIds);
        await this.tellStopsChanged(ctx, { businessId, routeIds });
      }
    },
  };

  /** Lets a module above hear, in each change's transaction, which routes' stops changed. */
  onRouteStopsChange(listener: RouteStopsListener): void {
    this.stopListeners.add(listener);
  }

  /** Tells the stop listeners, once the change's stops are written (route-stops.ts). */
  tellStopsChanged(ctx: OperationContext, change: RouteStopsChange): Promise<void> {
    return this.stopListeners.tell(ctx, change);
  }

  /**
   * The stops of these routes of the business, in sequence, whoever asks (a listener reads what
   * changed, whatever the caller of the change may see); a route the business lacks is absent.
   * With `hold`, no change of their stops commits before the caller's transaction ends: every
   * change of stops writes its route's row first (route-stops.ts).
   */
  async stopsOfRoutes(db: Queryable, businessId: number, routeIds: readonly number[], hold = false) {
    const byRoute = new Map<number, Array<ReturnType<typeof stopAnswer>>>(
      (await repo.routeIdsOf(db, businessId, routeIds, hold ? 'share' : undefined)).map((id) => [id, []]),
    );
    for (const stop of await repo.stopsOf(db, [...byRoute.keys()], businessId)) {
      byRoute.get(stop.route_id)?.push(stopAnswer(stop));
    }
    return byRoute;
  }

  // ----- depots and drivers -----

  async createDepot(ctx: OperationContext, depot: { name: string; lat: number; lng: number }) {
    const id = await repo.insertDepot(ctx.db, { business_id: businessOf(ctx), ...depot });
    return { result: true as const, depot: { id, ...depot } };
  }

  async setDriverProfile(ctx: OperationContext, input: DriverProfileInput) {
    const businessId = businessOf(ctx);
    const [driver] = await this.accounts.usersOfKind(ctx.db, businessId, 'driver', [input.driver_id]);
    if (!driver) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    if (input.depot_id && !(await repo.depotsOf(ctx.db, businessId)).some((d) => d.id === input.depot_id)) {
      throw new AppError('DEPOT_NOT_FOUND', { params: { depot: input.depot_id } });
    }
    const companyId = input.contractor_company_id ?? null;
    if (companyId !== null && !(await this.accounts.isEngaged(ctx.db, companyId, businessId))) {
      throw new AppError('CONTRACTOR_NOT_ENGAGED', { params: { company: companyId } });
    }
    await repo.upsertProfile(
      ctx.db,
      {
        user_id: input.driver_id,
        business_id: businessId,
        depot_id: input.depot_id ?? null,
        vehicle_type: input.vehicle_type ?? 'van',
        capacity_weight_grams: input.capacity.weight_grams,
        capacity_volume_cm3: input.capacity.volume_cm3,
        capacity_count: input.capacity.count,
        shift_start: input.shift.start,
        shift_end: input.shift.end,
        skills: [...new Set(input.skills ?? [])].sort(),
        available: input.available ?? true,
        contractor_company_id: companyId,
      },
      // Skills left out keep those set before (set_driver_skills keeps them apart from the rest).
      { keepSkills: input.skills === undefined },
    );
    const [view] = await this.drivers(ctx.db, businessId, { ids: [input.driver_id] });
    return { result: true as const, driver: view! };
  }

  /**
   * Replaces the skills of a driver's working profile (the skills module checks them against the
   * catalogue first); false when the driver has no profile yet to hold them.
   */
  setDriverSkills(db: Queryable, businessId: number, driverId: number, skills: readonly string[]) {
    return repo.setProfileSkills(db, businessId, driverId, [...new Set(skills)].sort());
  }

  /** The drivers of the business holding a skill: how many, and the first `limit` ids. */
  driversWithSkill(db: Queryable, businessId: number, code: string, limit: number) {
    return repo.driversWithSkill(db, businessId, code, limit);
  }

  /** The drivers the caller may see: all of the business's for its staff, a contractor's own fleet. */
  async visibleDrivers(ctx: OperationContext) {
    const { scope, fleet } = await this.planner(ctx);
    return this.drivers(ctx.db, scope.businessId, { fleet: this.visibleFleet(ctx, fleet) });
  }

  /**
   * The business's driver accounts (the accounts module's) with their working profiles (this
   * module's), optionally only these ids or one fleet (drivers without a profile are in no
   * contractor's fleet).
   */
  async drivers(db: Queryable, businessId: number, options: { ids?: number[]; fleet?: repo.Fleet }) {
    const accounts = await this.accounts.usersOfKind(db, businessId, 'driver', options.ids);
    const profiles = new Map(
      (
        await repo.profilesOf(
          db,
          businessId,
          accounts.map((account) => account.id),
        )
      ).map((profile) => [profile.user_id, profile]),
    );
    const fleet = options.fleet;
    return accounts
      .filter(
        (account) =>
          fleet === undefined ||
          (profiles.get(account.id)?.contractor_company_id ?? null) === fleet.contractorCompanyId,
      )
      .map((account) => {
        const profile = profiles.get(account.id);
        return {
          id: account.id,
          name: account.name,
          email: account.email,
          active: !account.disabled,
          profile: profile
            ? {
                depot_id: profile.depot_id,
                vehicle_type: profile.vehicle_type,
                capacity: {
                  weight_grams: profile.capacity_weight_grams,
                  volume_cm3: profile.capacity_volume_cm3,
                  count: profile.capacity_count,
                },
                shift: { start: profile.shift_start.slice(0, 5), end: profile.shift_end.slice(0, 5) },
                skills: profile.skills,
                available: profile.available,
                contractor_company_id: profile.contractor_company_id,
              }
            : null,
        };
      });
  }

  // ----- routes -----

  /** Routes the caller may see: all of the business's for its staff, a contractor's fleet's. */
  async routes(ctx: OperationContext, filter: { date?: string; driver_id?: number; ids?: number[] }) {
    const { scope, fleet } = await this.planner(ctx);
    const rows = await repo.routesOf(ctx.db, scope.businessId, {
      date: filter.date,
      driverId: filter.driver_id,
      ids: filter.ids,
      fleet: this.visibleFleet(ctx, fleet),
    });
    const stops = await repo.stopsOf(
      ctx.db,
      rows.map((row) => row.id),
    );
    const driverNames = await this.accounts.namesOf(ctx.db, driverIdsOf(rows));
    return rows.map((row) => ({
      id: row.id,
      date: row.route_date,
      driver: routeDriver(row.driver_user_id, driverNames),
      status: row.status,
      locked: row.locked,
      started_at: row.started_at?.toISOString() ?? null,
      finished_at: row.finished_at?.toISOString() ?? null,
      distance_meters: row.distance_meters,
      distance_source: row.distance_source,
      departure: row.departure.slice(0, 5),
      return_time: row.return_time.slice(0, 5),
      duration_minutes: Math.round((seconds(row.return_time) - seconds(row.departure)) / 60),
      load: { weight_grams: row.load_weight_grams, volume_cm3: row.load_volume_cm3, count: row.load_count },
      stops: stops.filter((stop) => stop.route_id === row.id).map(stopAnswer),
      plan_version: row.plan_version,
      depot_id: row.depot_id,
    }));
  }

  /**
   * Gives one order to one driver as a route of its own, leaving now from where the driver is (an
   * instant rider's accepted offer): the order becomes PLANNED on it; answers the route's id.
   * one-order-route.ts says how it is timed.
   */
  async createOneOrderRoute(
    ctx: OperationContext,
    input: { driverId: number; orderId: number; from: Point },
  ): Promise<number> {
    const straightLine = await this.straightLine(ctx.db, businessOf(ctx));
    const deps = { clock: this.clock, accounts: this.accounts, orders: this.orders, roads: this.roads };
    return createOneOrderRoute(ctx, { ...deps, straightLine }, input);
  }

  /** The routes these drivers are working now (started, stops left), by driver: who is busy driving. */
  routesUnderWay(
    db: Queryable,
    businessId: number,
    driverIds: readonly number[],
  ): Promise<Map<number, RouteUnderWay>> {
    return routesUnderWay(db, businessId, driverIds);
  }

  async route(ctx: OperationContext, routeId: number) {
    const [route] = await this.routes(ctx, { ids: [routeId] });
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    return route;
  }

  /** A driver's routes today; a driver account may ask for its own only. */
  async driverRoutesToday(ctx: OperationContext, driverId: number) {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    if (caller.kind === 'driver' && caller.userId !== driverId) throw new AppError('FORBIDDEN');
    if ((await this.accounts.usersOfKind(ctx.db, businessId, 'driver', [driverId])).length === 0) {
      throw new AppError('DRIVER_NOT_FOUND', { params: { driver: driverId } });
    }
    const today = await this.today(ctx.db, businessId);
    return { date: today, routes: await this.routes(ctx, { date: today, driver_id: driverId }) };
  }

  /**
   * Each date's routes, drivers, stops and distance, with each driver's share: what a day's
   * digest (analytics) says of the fleet. Staff figures of the whole business.
   */
  async dayFigures(db: Queryable, businessId: number, dates: string[]) {
    const rows = await repo.routeDays(db, businessId, dates);
    const names = await this.accounts.namesOf(db, driverIdsOf(rows));
    return dates.map((date) => {
      // Routes open on a route board have no driver to figure under yet.
      const drivers = rows
        .filter((row) => row.route_date === date)
        .flatMap((row) =>
          row.driver_user_id === null ? [] : [{ ...row, driver_user_id: row.driver_user_id }],
        )
        .map((row) => ({
          id: row.driver_user_id,
          name: names.get(row.driver_user_id) ?? '',
          routes: Number(row.routes),
          stops: Number(row.stops ?? 0),
          distance_meters: Number(row.distance_meters ?? 0),
        }))
        .sort((a, b) => b.stops - a.stops || a.id - b.id);
      const sum = (field: 'routes' | 'stops' | 'distance_meters') =>
        drivers.reduce((total, driver) => total + driver[field], 0);
      return {
        date,
        routes: sum('routes'),
        drivers: drivers.length,
        stops: sum('stops'),
        distance_meters: sum('distance_meters'),
        by_driver: drivers,
      };
    });
  }

  /**
   * Where an order stands on the business's routes of a date: its route, the route's driver and
   * its stop's place in the sequence (the delivery, for a pickup-and-delivery order); null when
   * it is on no route that day. What a warehouse's sorting scan tells.
   */
  async stopOf(db: Queryable, businessId: number, orderId: number, date: string) {
    const stop = await repo.stopOfOrder(db, businessId, orderId, date);
    if (!stop) return null;
    const names = await this.accounts.namesOf(db, driverIdsOf([stop]));
    return {
      route: { id: stop.route_id, driver: routeDriver(stop.driver_user_id, names) },
      sequence: stop.sequence,
    };
  }

  /** Today's date (YYYY-MM-DD) in the business's time zone. */
  async today(db: Queryable, businessId: number): Promise<string> {
    return (await this.accounts.localDateTimeOf(db, businessId, this.clock.now())).slice(0, 10);
  }

  // ----- route building (planning.ts) -----

  buildRouteOptions(ctx: OperationContext, date: string) {
    return this.planning.buildRouteOptions(ctx, date);
  }

  buildRoutes(ctx: OperationContext, input: BuildRouteInput) {
    return this.planning.buildRoutes(ctx, input);
  }

  async dispatchSettings(ctx: OperationContext) {
    return { result: true as const, settings: await this.planning.settings(ctx.db, businessOf(ctx)) };
  }

  /** How straight lines stand in for the business's roads, where no routing engine answers. */
  async straightLine(db: Queryable, businessId: number) {
    return straightLineOf(await this.planning.settings(db, businessId));
  }

  updateDispatchSettings(ctx: OperationContext, changes: Partial<DispatchSettings>) {
    return this.planning.updateSettings(ctx, changes);
  }

  /** Who plans, from which pool, with which drivers (for route planning too). */
  async planner(ctx: OperationContext): Promise<Planner> {
    const scope = await this.orders.queries.scopeOf(ctx);
    return { scope, fleet: { contractorCompanyId: callerOf(ctx).contractorCompanyId } };
  }

  /** Staff see every driver and route of the business; a contractor only its own fleet's. */
  private visibleFleet(ctx: OperationContext, fleet: Planner['fleet']): repo.Fleet {
    return callerOf(ctx).kind === 'contractor' ? fleet : undefined;
  }
}

/** A route stop as routes answer it: planned times HH:MM, what happened there as ISO instants. */
export function stopAnswer(stop: Selectable<DispatchTables['route_stops']>) {
  return {
    sequence: stop.sequence,
    order_id: stop.order_id,
    leg: stop.leg,
    planned_arrival: stop.planned_arrival.slice(0, 5),
    planned_departure: stop.planned_departure.slice(0, 5),
    status: stop.status,
    arrived_at: stop.arrived_at?.toISOString() ?? null,
    completed_at: stop.completed_at?.toISOString() ?? null,
    kind: stop.kind,
    locker: stop.locker,
  };
}
