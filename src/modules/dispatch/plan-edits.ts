import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import { signalBoard } from './board-repository.ts';
import * as edits from './edits-repository.ts';
import { clockTime, seconds } from './order-legs.ts';
import {
  deliveredAt,
  hhmm,
  isCustomerLeg,
  type PlanStop,
  stopsOfOrder,
  stopToStore,
  storedPlanStop,
  type WireViolation,
  wire,
} from './plan-stops.ts';
import {
  type DrivenRoute,
  editOutcome,
  type RouteDay,
  type RoutePlan,
  secondsOnDay,
  timing,
} from './plan-timing.ts';
import { refuseStale } from './plan-versions.ts';
import * as repo from './repository.ts';
import type { RoadNetwork } from './roads.ts';
import type { DispatchService } from './service.ts';
import type { ShiftCalendar } from './shift-calendar.ts';
import { bestInsertion, bestSequence } from './solver/edit-search.ts';
import { type TimedRoute, timeRoute } from './solver/evaluate.ts';
import { DAY_SECONDS } from './solver/resume.ts';
import type { LockerPlace } from './tables.ts';

/**
 * A customer hears of an edit (delivery_rescheduled, pickup_rescheduled on its parcels' timelines)
 * when it moves the planned arrival at their door by more than this.
 */
export const RESCHEDULE_THRESHOLD_MINUTES = 30;

/** Minutes at each pending stop when a locker reservation re-times a route, as build_route's default. */
const LOCKER_SERVICE_MINUTES = 5;

/** One route's edit: as it was, and as it becomes. */
interface RouteEdit {
  before: RoutePlan;
  after: RoutePlan;
}

export interface EditOptions {
  service_minutes: number;
  confirm_violations?: boolean;
  /** The plan version of `route_id` the caller saw: refused when it moved since (plan-versions.ts). */
  expected_plan_version?: number;
}

/** The precondition of an edit of one route. */
const expecting = (input: { route_id: number; expected_plan_version?: number }) => [
  { routeId: input.route_id, version: input.expected_plan_version },
];

export interface AssignInput extends EditOptions {
  route_id: number;
  order_id: number;
  position?: number;
}

export interface MoveInput extends EditOptions {
  route_id: number;
  order_id: number;
  to_route_id?: number;
  position?: number;
  expected_to_plan_version?: number;
}

export interface ResequenceInput extends EditOptions {
  route_id: number;
  stops?: Array<{ order_id: number; leg?: 'pickup' | 'delivery' }>;
  optimize?: boolean;
}

/**
 * A dispatcher's edits of a day's plan: an order added to a route, a stop moved or taken off, a
 * route re-sequenced, given another driver or vehicle, locked. Each edit re-times the routes it
 * changes on the travel matrix planning uses, from now (plan-timing.ts), and is refused
 * (PLAN_VIOLATION) when it breaks a rule the routes kept before, unless the caller confirms it;
 * the windows the clock alone lost are answered apart (lost_windows).
 */
export class PlanEdits {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
    private readonly tracking: Pick<TrackingService, 'appendEvent'>,
    private readonly roads: RoadNetwork,
    /** The drivers' shifts of a date, when a calendar keeps them: their working windows. */
    private readonly shifts?: ShiftCalendar,
  ) {}

  // ----- vehicles -----

  async createVehicle(
    ctx: OperationContext,
    input: {
      name: string;
      vehicle_type: string;
      capacity: { weight_grams: number; volume_cm3: number; count: number };
      active: boolean;
    },
  ) {
    const businessId = businessOf(ctx);
    const id = await edits.insertVehicle(ctx.db, {
      business_id: businessId,
      name: input.name,
      vehicle_type: input.vehicle_type,
      capacity_weight_grams: input.capacity.weight_grams,
      capacity_volume_cm3: input.capacity.volume_cm3,
      capacity_count: input.capacity.count,
      active: input.active,
    });
    const [vehicle] = await this.vehicles(ctx, [id]);
    return { result: true as const, vehicle: vehicle! };
  }

  async vehicles(ctx: OperationContext, ids?: number[]) {
    return (await edits.vehiclesOf(ctx.db, businessOf(ctx), ids)).map((row) => ({
      id: row.id,
      name: row.name,
      vehicle_type: row.vehicle_type,
      capacity: {
        weight_grams: row.capacity_weight_grams,
        volume_cm3: row.capacity_volume_cm3,
        count: row.capacity_count,
      },
      active: row.active,
    }));
  }

  // ----- edits -----

  /** Adds an unplanned order of the route's date to the route, at the given or the cheapest place. */
  async assignOrder(ctx: OperationContext, input: AssignInput) {
    const businessId = businessOf(ctx);
    const [plan] = await this.load(ctx, [input.route_id], expecting(input));
    editable(plan!);
    const order = await this.orders.queries.detail(ctx, input.order_id);
    const pool = await this.orders.queries.planningPool(
      ctx,
      await this.orders.queries.scopeOf(ctx),
      plan!.row.route_date,
    );
    if (order.status !== 'NEW_ORDER' || !pool.some((waiting) => waiting.id === order.id)) {
      throw new AppError('ORDER_NOT_PLANNABLE', {
        params: { order: order.id, date: plan!.row.route_date },
        details: { status: order.status, scheduled_date: order.scheduled_date },
      });
    }
    const after = await this.placed(plan!, stopsOfOrder(order), input);
    const answer = await this.commit(ctx, 'assign_order_to_route', [{ before: plan!, after }], input);
    await this.orders.changes.planOnRoute(ctx, businessId, order.id, {
      id: plan!.row.id,
      driverId: plan!.row.driver_user_id,
    });
    return answer;
  }

  /** Moves an order's stops (both legs of a P2P order) within their route or to another. */
  async moveStop(ctx: OperationContext, input: MoveInput) {
    const targetId = input.to_route_id ?? input.route_id;
    const plans = await this.load(
      ctx,
      [input.route_id, targetId],
      [...expecting(input), { routeId: targetId, version: input.expected_to_plan_version }],
    );
    const source = plans.find((plan) => plan.row.id === input.route_id)!;
    const target = plans.find((plan) => plan.row.id === targetId)!;
    editable(source);
    editable(target);
    const { moved, remaining } = takeOff(source, input.order_id);
    const left = { ...source, stops: remaining };
    if (source === target) {
      const after = await this.placed(left, moved, input);
      return this.commit(ctx, 'move_route_stop', [{ before: source, after }], input);
    }
    const after = await this.placed(target, moved, input);
    const answer = await this.commit(
      ctx,
      'move_route_stop',
      [
        { before: source, after: left },
        { before: target, after },
      ],
      input,
    );
    await this.orders.replanning.moveToRoute(ctx, businessOf(ctx), input.order_id, {
      id: target.row.id,
      driverId: target.row.driver_user_id,
    });
    return answer;
  }

  /** Takes an order off its route: it goes back to the planning pool (NEW_ORDER). */
  async removeStop(
    ctx: OperationContext,
    input: { route_id: number; order_id: number; service_minutes: number; expected_plan_version?: number },
  ) {
    const [plan] = await this.load(ctx, [input.route_id], expecting(input));
    editable(plan!);
    const { remaining } = takeOff(plan!, input.order_id);
    // Back in the pool: the orders module takes its stops off every route (stopsFollowOrders).
    await this.orders.changes.advance(ctx, input.order_id, 'NEW_ORDER');
    // Fewer stops break no rule the route kept: nothing to confirm.
    return this.commit(ctx, 'remove_route_stop', [{ before: plan!, after: { ...plan!, stops: remaining } }], {
      ...input,
      confirm_violations: true,
    });
  }

  /** Puts the route's free stops in the given order, or in the best order for its vehicle alone. */
  async resequence(ctx: OperationContext, input: ResequenceInput) {
    const [plan] = await this.load(ctx, [input.route_id], expecting(input));
    editable(plan!);
    const free = plan!.stops.slice(plan!.firstFree);
    if ((input.stops === undefined) === (input.optimize !== true))
      throw sequenceInvalid(plan!, plan!.stops.length);
    let stops: PlanStop[];
    if (input.stops) {
      stops = input.stops.map(({ order_id, leg }) => {
        const matches = free.filter(
          (stop) => stop.orderId === order_id && (leg === undefined || stop.leg === leg),
        );
        if (matches.length !== 1) throw sequenceInvalid(plan!, free.length);
        return matches[0]!;
      });
      if (new Set(stops).size !== free.length || stops.length !== free.length)
        throw sequenceInvalid(plan!, free.length);
    } else {
      const { travel, route, planStopOf } = await this.timing(plan!, plan!.stops, input.service_minutes);
      const best = bestSequence(route, travel, plan!.firstFree);
      stops = best.stops.slice(plan!.firstFree).map((stop) => planStopOf.get(stop)!);
    }
    const after = { ...plan!, stops: [...plan!.stops.slice(0, plan!.firstFree), ...stops] };
    return this.commit(ctx, 'resequence_route', [{ before: plan!, after }], input);
  }

  /**
   * Gives the route another driver (their depot, shift and, without a vehicle, capacity); its
   * orders follow. A route board hands its routes over this way too (`board`: the edit it names,
   * and the lock the route keeps), the only way a route open on a board gets a driver: it is then
   * timed for the new driver from the start (the board names drivers of the business only).
   */
  async changeDriver(
    ctx: OperationContext,
    input: EditOptions & { route_id: number; driver_id: number },
    board?: { operation: string; locked: boolean },
  ) {
    const businessId = businessOf(ctx);
    const [plan] = await this.load(
      ctx,
      [input.route_id],
      expecting(input),
      board ? input.driver_id : undefined,
    );
    editable(plan!);
    const [driver] = await this.accounts.usersOfKind(ctx.db, businessId, 'driver', [input.driver_id]);
    if (!driver) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    // The route moves to the new driver's depot of the day (their shift's, else their profile's).
    const row = { ...plan!.row, driver_user_id: input.driver_id, depot_id: null };
    const after = { ...(await this.routePlan(ctx, row)), stops: plan!.stops, firstFree: plan!.firstFree };
    const operation = board?.operation ?? 'change_route_driver';
    const answer = await this.commit(ctx, operation, [{ before: plan!, after }], input, {
      driver_user_id: input.driver_id,
      ...(board ? { locked: board.locked } : {}),
    });
    await this.orders.replanning.reassignDriver(ctx, businessId, input.route_id, input.driver_id);
    return answer;
  }

  /** Gives the route a vehicle of the business (its capacity), or none (null: the driver's own). */
  async changeVehicle(
    ctx: OperationContext,
    input: EditOptions & { route_id: number; vehicle_id: number | null },
  ) {
    const [plan] = await this.load(ctx, [input.route_id], expecting(input));
    editable(plan!);
    if (input.vehicle_id !== null) {
      const [vehicle] = await edits.vehiclesOf(ctx.db, businessOf(ctx), [input.vehicle_id]);
      if (!vehicle?.active)
        throw new AppError('VEHICLE_NOT_FOUND', { params: { vehicle: input.vehicle_id } });
    }
    const row = { ...plan!.row, vehicle_id: input.vehicle_id };
    const after = { ...(await this.routePlan(ctx, row)), stops: plan!.stops, firstFree: plan!.firstFree };
    return this.commit(ctx, 'change_route_vehicle', [{ before: plan!, after }], input, {
      vehicle_id: input.vehicle_id,
    });
  }

  /**
   * Sends the order's pending delivery stop on the route to a locker site, or back to its door
   * (`locker` null), and re-times the route: what a locker reservation (or its cancellation) does.
   * The booking is made already, so rules the new place breaks are taken and answered, not refused.
   */
  async relocateDelivery(
    ctx: OperationContext,
    routeId: number,
    orderId: number,
    locker: LockerPlace | null,
  ) {
    const [plan] = await this.load(ctx, [routeId], []);
    const edit = { before: plan!, after: { ...plan!, stops: deliveredAt(plan!.stops, orderId, locker) } };
    return this.commit(ctx, locker ? 'locker_drop' : 'locker_drop_cancelled', [edit], {
      service_minutes: LOCKER_SERVICE_MINUTES,
      confirm_violations: true,
    });
  }

  /** Locks or unlocks a route: a rebuild leaves a locked route as it is. */
  async setLocked(ctx: OperationContext, routeId: number, locked: boolean, expectedPlanVersion?: number) {
    const businessId = businessOf(ctx);
    await this.load(ctx, [routeId], [{ routeId, version: expectedPlanVersion }]);
    await edits.updateRoute(ctx.db, businessId, routeId, { locked });
    return {
      result: true as const,
      routes: await this.answerRoutes(ctx, [routeId]),
      violations: [],
      violations_confirmed: [],
      lost_windows: [],
    };
  }

  // ----- reading and timing routes -----

  /**
   * Locks the routes (404 for any the business lacks) and reads what their timing needs; refused
   * when one's plan moved on from the version its caller `expected`. A route open on a route board
   * has no driver to time it for: refused, unless `boardDriver` is the driver the board hands it to.
   */
  private async load(
    ctx: OperationContext,
    routeIds: number[],
    expected: ReadonlyArray<{ routeId: number; version: number | undefined }>,
    boardDriver?: number,
  ): Promise<RoutePlan[]> {
    const ids = [...new Set(routeIds)];
    const rows = await edits.lockRoutes(ctx.db, businessOf(ctx), ids);
    const missing = ids.find((id) => !rows.some((row) => row.id === id));
    if (missing !== undefined) throw new AppError('ROUTE_NOT_FOUND', { params: { route: missing } });
    refuseStale(rows, expected);
    // Every edit loads the routes it changes: their live boards read them again once it commits.
    await signalBoard(ctx.db, businessOf(ctx), { routeIds: ids });
    const stopRows = await repo.stopsOf(ctx.db, ids);
    const views = new Map(
      (
        await this.orders.queries.views(ctx.db, businessOf(ctx), [
          ...new Set(stopRows.map((stop) => stop.order_id)),
        ])
      ).map((view) => [view.id, view]),
    );
    const plans: RoutePlan[] = [];
    for (const row of rows) {
      const stops = stopRows
        .filter((stop) => stop.route_id === row.id)
        .map((stop) => storedPlanStop(stop, views.get(stop.order_id)!));
      const lastDone = stops.findLastIndex((stop) => stop.status !== 'pending');
      const driverId = row.driver_user_id ?? boardDriver;
      if (driverId === undefined) throw new AppError('ROUTE_ON_BOARD', { params: { route: row.id } });
      const driven = { ...row, driver_user_id: driverId };
      plans.push({ ...(await this.routePlan(ctx, driven)), stops, firstFree: lastDone + 1 });
    }
    return plans.sort((a, b) => ids.indexOf(a.row.id) - ids.indexOf(b.row.id));
  }

  /**
   * Depot, shift, capacity and skills of a route with this driver and vehicle: the route's own
   * depot, and the driver's calendar shift of the route's date, when it has one, as its working
   * window (and depot, for a route without one).
   */
  private async routePlan(
    ctx: OperationContext,
    row: DrivenRoute,
  ): Promise<Omit<RoutePlan, 'stops' | 'firstFree'>> {
    const businessId = businessOf(ctx);
    const [profile] = await repo.profilesOf(ctx.db, businessId, [row.driver_user_id]);
    const window = (
      await this.shifts?.windowsOf(ctx.db, businessId, row.route_date, [row.driver_user_id])
    )?.get(row.driver_user_id);
    const depotId = row.depot_id ?? window?.depotId ?? profile?.depot_id;
    const depot = depotId
      ? (await repo.depotsOf(ctx.db, businessId)).find((candidate) => candidate.id === depotId)
      : undefined;
    if (!profile || !depot)
      throw new AppError('DRIVER_WITHOUT_DEPOT', { params: { driver: row.driver_user_id } });
    const [vehicle] =
      row.vehicle_id === null ? [] : await edits.vehiclesOf(ctx.db, businessId, [row.vehicle_id]);
    const capacity = vehicle ?? profile;
    return {
      row,
      straightLine: await this.dispatch.straightLine(ctx.db, businessId),
      depotId: depot.id,
      depot: { lat: depot.lat, lng: depot.lng },
      shift: {
        start: seconds(window?.start ?? profile.shift_start),
        end: seconds(window?.end ?? profile.shift_end),
      },
      capacity: {
        weightGrams: capacity.capacity_weight_grams,
        volumeCm3: capacity.capacity_volume_cm3,
        count: capacity.capacity_count,
      },
      skills: profile.skills,
      day: await this.dayOf(ctx, row),
    };
  }

  /** Now on the route's day and, on a route under way, where its driver last reported being on it. */
  private async dayOf(ctx: OperationContext, row: DrivenRoute): Promise<RouteDay> {
    const businessId = businessOf(ctx);
    const timeZone = await this.accounts.timeZoneOf(ctx.db, businessId);
    const position =
      row.status === 'started'
        ? await edits.lastPositionOnRoute(ctx.db, businessId, row.id, row.driver_user_id)
        : undefined;
    return {
      now: secondsOnDay(this.clock.now(), row.route_date, timeZone),
      timeZone,
      position: position && {
        location: { lat: position.lat, lng: position.lng },
        at: secondsOnDay(position.device_time, row.route_date, timeZone),
      },
    };
  }

  /** The route's timing (plan-timing.ts) on the roads planning uses. */
  private timing(plan: RoutePlan, stops: readonly PlanStop[], serviceMinutes: number) {
    return timing(this.roads, plan, stops, serviceMinutes);
  }

  /** The route with these stops added at the given position (1-based), or where they cost least. */
  private async placed(
    base: RoutePlan,
    legs: PlanStop[],
    input: { position?: number; service_minutes: number },
  ) {
    if (
      input.position !== undefined &&
      (input.position - 1 < base.firstFree || input.position - 1 > base.stops.length)
    ) {
      throw sequenceInvalid(base, base.stops.length + 1);
    }
    const { travel, route, planStopOf } = await this.timing(
      base,
      [...base.stops, ...legs],
      input.service_minutes,
    );
    const existing = { ...route, stops: route.stops.slice(0, base.stops.length) };
    const best = bestInsertion(
      existing,
      travel,
      route.stops.slice(base.stops.length),
      base.firstFree,
      input.position === undefined ? undefined : input.position - 1,
    );
    return { ...base, stops: best.stops.map((stop) => planStopOf.get(stop)!) };
  }

  /**
   * Re-times the edited routes, refuses the edit when it breaks a rule the routes kept before
   * (unless confirmed), then saves them, records the edit in each affected order's audit trail
   * and tells the customers whose planned arrival moved.
   */
  private async commit(
    ctx: OperationContext,
    operation: string,
    changes: RouteEdit[],
    options: EditOptions,
    routeChanges: { driver_user_id?: number; vehicle_id?: number | null; locked?: boolean } = {},
  ) {
    const businessId = businessOf(ctx);
    const timings: Array<{
      edit: RouteEdit;
      timed: TimedRoute;
      source: string;
      fresh: WireViolation[];
      lostWindows: WireViolation[];
    }> = [];
    for (const edit of changes) {
      // Both timed from now: what the clock alone broke is not the edit's doing (plan-timing.ts).
      const before = await this.timing(edit.before, edit.before.stops, options.service_minutes);
      const after = await this.timing(edit.after, edit.after.stops, options.service_minutes);
      const timed = timeRoute(after.route, after.travel);
      const outcome = editOutcome(edit.after.row.id, timeRoute(before.route, before.travel), {
        route: after.route,
        timed,
      });
      timings.push({
        edit,
        timed,
        source: after.travel.source,
        fresh: outcome.brought,
        lostWindows: outcome.lostWindows,
      });
    }
    const fresh = timings.flatMap((timing) => timing.fresh);
    const lostWindows = timings.flatMap((timing) => timing.lostWindows);
    if (fresh.length > 0 && !options.confirm_violations) {
      throw new AppError('PLAN_VIOLATION', {
        params: { count: fresh.length },
        details: { violations: fresh, lost_windows: lostWindows },
      });
    }
    for (const { edit, timed } of timings) {
      // Times are of the route's day: a confirmed violation may run late, never into the next day.
      if (timed.returnTime >= DAY_SECONDS) {
        const returnTime = `+${clockTime(timed.returnTime - DAY_SECONDS).slice(0, 5)}`;
        throw new AppError('ROUTE_PAST_MIDNIGHT', {
          params: { route: edit.after.row.id, return_time: returnTime },
          details: { return_time: returnTime },
        });
      }
    }
    for (const { edit, timed, source } of timings) {
      await edits.replaceStops(
        ctx.db,
        businessId,
        edit.after.row.id,
        edit.after.stops.map((stop, at) => stopToStore(stop, timed.stops[at]!)),
      );
      await edits.updateRoute(ctx.db, businessId, edit.after.row.id, {
        ...routeChanges,
        depot_id: edit.after.depotId,
        departure: clockTime(timed.departure),
        return_time: clockTime(timed.returnTime),
        distance_meters: Math.round(timed.distanceMeters),
        distance_source: source,
        load_weight_grams: timed.load.weightGrams,
        load_volume_cm3: timed.load.volumeCm3,
        load_count: timed.load.count,
      });
    }
    await this.record(ctx, operation, timings);
    const routeIds = timings.map((timing) => timing.edit.after.row.id);
    await this.dispatch.tellStopsChanged(ctx, { businessId, routeIds });
    return {
      result: true as const,
      routes: await this.answerRoutes(ctx, routeIds),
      violations: timings.flatMap(({ edit, timed }) =>
        timed.violations.map((v) => wire(edit.after.row.id, v)),
      ),
      violations_confirmed: fresh,
      lost_windows: lostWindows,
    };
  }

  /**
   * One `plan_edited` event in the audit trail of each order whose place, time or route changed
   * (or whose route now breaks a rule by the caller's confirmation); a `delivery_rescheduled` (or
   * `pickup_rescheduled`) tracking event on its parcels when its customer's planned arrival moved
   * by more than RESCHEDULE_THRESHOLD_MINUTES.
   */
  private async record(
    ctx: OperationContext,
    operation: string,
    timings: ReadonlyArray<{ edit: RouteEdit; timed: TimedRoute; fresh: WireViolation[] }>,
  ) {
    const businessId = businessOf(ctx);
    const before = new Map<number, { routeId: number; sequence: number; arrival?: number }>();
    for (const { edit } of timings) {
      edit.before.stops.forEach((stop, at) => {
        if (isCustomerLeg(stop)) {
          before.set(stop.orderId, {
            routeId: edit.before.row.id,
            sequence: at + 1,
            arrival: stop.planned?.arrival,
          });
        }
      });
    }
    const events: Array<{
      orderId: number;
      action: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    }> = [];
    for (const { edit, timed, fresh } of timings) {
      const routeId = edit.after.row.id;
      for (const [at, stop] of edit.after.stops.entries()) {
        if (!isCustomerLeg(stop)) continue;
        const was = before.get(stop.orderId);
        const arrival = timed.stops[at]!.arrival;
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        if (was?.routeId !== routeId) changes.route_id = { from: was?.routeId ?? null, to: routeId };
        if (was?.sequence !== at + 1) changes.sequence = { from: was?.sequence ?? null, to: at + 1 };
        const fromTime = was?.arrival === undefined ? null : hhmm(was.arrival);
        if (fromTime !== hhmm(arrival)) changes.planned_arrival = { from: fromTime, to: hhmm(arrival) };
        if (fresh.length > 0) changes.violations_confirmed = { from: null, to: fresh };
        if (Object.keys(changes).length === 0) continue;
        events.push({
          orderId: stop.orderId,
          action: 'plan_edited',
          changes: { edit: { from: null, to: operation }, ...changes },
        });
        if (
          was?.arrival !== undefined &&
          Math.abs(arrival - was.arrival) > RESCHEDULE_THRESHOLD_MINUTES * 60
        ) {
          await this.reschedule(ctx, stop, was.arrival, arrival);
        }
      }
    }
    await this.orders.journal.recordEvents(ctx, businessId, this.clock.now(), events);
  }

  /** Tells the customer their parcels' planned arrival moved: an event on each parcel's timeline. */
  private async reschedule(ctx: OperationContext, stop: PlanStop, from: number, to: number) {
    if (stop.order.carrier !== null) return;
    for (const pkg of stop.order.packages) {
      await this.tracking.appendEvent(
        ctx,
        businessOf(ctx),
        { id: pkg.id, trackingNumber: pkg.tracking_number },
        {
          status_code: stop.leg === 'pickup' ? 'pickup_rescheduled' : 'delivery_rescheduled',
          source: { type: 'self_delivery', reference: `route-${stop.orderId}` },
          description: `Planned ${stop.leg} time moved from ${hhmm(from)} to ${hhmm(to)}`,
        },
      );
    }
  }

  /** The routes as get_routes answers them, each with the vehicle it drives (null: its driver's own). */
  private async answerRoutes(ctx: OperationContext, routeIds: number[]) {
    const routes = await this.dispatch.routes(ctx, { ids: routeIds });
    const vehicles = await edits.vehiclesOfRoutes(ctx.db, routeIds);
    return routeIds.map((id) => {
      const route = routes.find((candidate) => candidate.id === id)!;
      return { ...route, vehicle: vehicles.get(id) ?? null };
    });
  }
}

/** A finished route takes no more edits. */
function editable(plan: RoutePlan): void {
  if (plan.row.status === 'finished')
    throw new AppError('ROUTE_FINISHED', { params: { route: plan.row.id } });
}

/** The order's stops on the route, and the route's others; refused when it has none there or one is done. */
function takeOff(plan: RoutePlan, orderId: number) {
  const at = plan.stops.flatMap((stop, index) => (stop.orderId === orderId ? [index] : []));
  if (at.length === 0) {
    throw new AppError('STOP_NOT_ON_ROUTE', { params: { order: orderId, route: plan.row.id } });
  }
  const fixed = at.find((index) => index < plan.firstFree);
  if (fixed !== undefined) {
    const status = plan.stops[fixed]!.status;
    throw new AppError('STOP_NOT_MOVABLE', { params: { order: orderId, status }, details: { status } });
  }
  return {
    moved: at.map((index) => plan.stops[index]!),
    remaining: plan.stops.filter((stop) => stop.orderId !== orderId),
  };
}

function sequenceInvalid(plan: RoutePlan, last: number): AppError {
  const first = plan.firstFree + 1;
  return new AppError('SEQUENCE_INVALID', {
    params: { route: plan.row.id, first, last },
    details: { first, last },
  });
}
