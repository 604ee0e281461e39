import type { Selectable } from 'kysely';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { TimeSlices } from '../../platform/slices.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService, OrderView } from '../orders/index.ts';
import { legsOf, seconds } from './order-legs.ts';
import { type PlanStop, stopsOfOrder, storedPlanStop, toTime } from './plan-stops.ts';
import * as repo from './repository.ts';
import type { RoadNetwork, StraightLineSettings } from './roads.ts';
import type { DispatchService } from './service.ts';
import type { ShiftCalendar } from './shift-calendar.ts';
import { pointKey } from './solver/distance.ts';
import type { StopToTime } from './solver/evaluate.ts';
import type { Point } from './solver/types.ts';
import { reasonText } from './suggestion-words.ts';
import {
  byBenefit,
  fitOf,
  type JudgedRoute,
  judge,
  lateSeconds,
  lateSecondsWithout,
  MAX_SUGGESTIONS,
  NEAREST_ROUTES,
  nearestRoutes,
  type ObservedRoute,
  relievingOrders,
  resequenceClearsLateness,
  SERVICE_MINUTES,
  type Suggestion,
  suggestionId,
} from './suggestions.ts';
import * as suggestionsRepo from './suggestions-repository.ts';
import type { DispatchTables } from './tables.ts';

/** A day in seconds: a route's planned times are clock times of its day. */
const DAY_SECONDS = 24 * 3600;
/** Most held orders looked at for one day. */
const MAX_HELD = 2000;

/** Where a suggestion's write is queued for a person to approve (the approvals module, wired by the composition root). */
export interface SuggestionProposals {
  propose(
    ctx: OperationContext,
    input: { tool: string; arguments: Record<string, unknown>; reason: string },
  ): Promise<{ result: true; proposal: unknown }>;
}

type RouteRow = Awaited<ReturnType<typeof suggestionsRepo.dayRoutes>>[number];

/** A route of the day with what its timing needs, before its travel matrix is asked for. */
interface RouteBasis {
  row: RouteRow;
  id: number;
  depot: Point;
  places: Point[];
  stops: PlanStop[];
  firstFree: number;
  shift: { start: number; end: number };
  started?: { departure: number; resumeNotBefore: number };
}

/** What one read of a day found, with when it was read in the business's time. */
interface Day {
  businessId: number;
  date: string;
  /** Seconds since the day's midnight that have passed (0 before the day, a whole day after it). */
  elapsed: number;
  today: string;
  routes: RouteBasis[];
  pool: OrderView[];
  held: Array<{ order: OrderView; heldAt: Date | null; locatedAt: Date | null }>;
  idle: number[];
  straightLine: StraightLineSettings;
}

/**
 * Dispatcher suggestions of a business's day, from its observed state: read in a few set-based
 * statements, judged with the plan edits' evaluation on the planning travel matrix, in slices so
 * the event loop stays free. docs/dispatch-suggestions.md.
 */
export class DispatchSuggestions {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
    private readonly roads: RoadNetwork,
    private readonly proposals: SuggestionProposals,
    private readonly shifts?: ShiftCalendar,
  ) {}

  /** The day's suggestions, best first, at most MAX_SUGGESTIONS, each with its reason in the caller's language. */
  async list(ctx: OperationContext, input: { date?: string }) {
    const { date, suggestions } = await this.compute(ctx, input.date);
    const shown = suggestions.slice(0, MAX_SUGGESTIONS);
    const names = await this.accounts.namesOf(
      ctx.db,
      shown.flatMap((s) => (s.kind === 'idle_driver' && s.driver_id !== null ? [s.driver_id] : [])),
    );
    return {
      result: true as const,
      date,
      observed_at: this.clock.now().toISOString(),
      total: suggestions.length,
      suggestions: shown.map((s) => ({
        ...s,
        reason: {
          code: s.reason,
          message: reasonText(s, ctx.lang, s.driver_id === null ? undefined : names.get(s.driver_id)),
        },
      })),
    };
  }

  /**
   * Queues a suggestion's write for approval: the day is read again, and the id must still be
   * among its suggestions (404 when the observed state changed), with a write (409 without).
   */
  async propose(ctx: OperationContext, input: { suggestion_id: string; date?: string }) {
    const { date, suggestions } = await this.compute(ctx, input.date);
    const found = suggestions.find((s) => s.id === input.suggestion_id);
    if (!found) {
      throw new AppError('SUGGESTION_NOT_FOUND', { params: { suggestion: input.suggestion_id, date } });
    }
    if (!found.write) {
      throw new AppError('SUGGESTION_WITHOUT_WRITE', { params: { suggestion: found.id } });
    }
    const driverName =
      found.driver_id === null
        ? undefined
        : (await this.accounts.namesOf(ctx.db, [found.driver_id])).get(found.driver_id);
    return this.proposals.propose(ctx, {
      tool: found.write.tool,
      arguments: found.write.arguments,
      reason: `${reasonText(found, ctx.lang, driverName)} (${found.id})`,
    });
  }

  /** Every suggestion of the day, best first. */
  private async compute(ctx: OperationContext, requested?: string) {
    const day = await this.read(ctx, requested);
    const slices = new TimeSlices();
    const found: Array<Omit<Suggestion, 'id'>> = [];
    const unplanned = day.pool.filter((order) => legsOf(order) !== undefined);
    // Each unplanned order is tried on its nearest routes with room: their matrices take its legs too.
    const tried = new Map<number, OrderView[]>();
    const open = day.routes.filter((route) => route.row.status !== 'finished');
    for (const order of unplanned) {
      const legs = stopsOfOrder(order);
      const demand = legs[0]!.demand;
      const near = nearestTo(open, legs[0]!.location, (route) => hasRoom(route.row, demand));
      for (const route of near) {
        const list = tried.get(route.id);
        if (list) list.push(order);
        else tried.set(route.id, [order]);
      }
    }
    const judged = new Map<number, JudgedRoute>();
    const best = new Map<number, { route: number; addedMeters: number }>();
    for (const basis of open) {
      const candidates = tried.get(basis.id) ?? [];
      const observed = await this.observe(day, basis, candidates);
      const route = judge(observed);
      judged.set(basis.id, route);
      for (const order of candidates) {
        const fit = fitOf(route, observed.legsOf.get(order.id)!);
        const known = best.get(order.id);
        if (fit && (!known || fit.addedMeters < known.addedMeters)) {
          best.set(order.id, { route: basis.id, addedMeters: fit.addedMeters });
        }
        await slices.next();
      }
    }
    for (const order of unplanned) {
      const fit = best.get(order.id);
      if (!fit) continue;
      found.push({
        ...blank('insert_order', 'fits_slack'),
        order_id: order.id,
        route_id: fit.route,
        added_distance_m: fit.addedMeters,
        write: { tool: 'assign_order_to_route', arguments: { route_id: fit.route, order_id: order.id } },
      });
    }
    found.push(...(await this.routeProblems(day, [...judged.values()], slices)));
    for (const { order, heldAt, locatedAt } of day.held) {
      // Holds carry no reason: an address placed after the hold is the one cause the data shows gone.
      if (!heldAt || !locatedAt || locatedAt <= heldAt || !legsOf(order)) continue;
      found.push({
        ...blank('release_hold', 'address_placed_after_hold'),
        order_id: order.id,
        write: { tool: 'release_order', arguments: { order_id: order.id, confirm: true } },
      });
    }
    const buildable = unplanned.length > 0 && day.date >= day.today;
    for (const driverId of day.idle) {
      found.push({
        ...blank('idle_driver', buildable ? 'shift_without_route' : 'shift_without_route_nothing_waiting'),
        driver_id: driverId,
        write: buildable
          ? { tool: 'build_route', arguments: { date: day.date, driver_ids: [driverId], confirm: true } }
          : null,
      });
    }
    const suggestions = found
      .map((s): Suggestion => ({ id: suggestionId(day.date, s), ...s }))
      .sort(byBenefit);
    return { date: day.date, suggestions };
  }

  /**
   * Routes over capacity or reaching stops after their windows, each with the one write that fixes
   * it when there is one: a new order of its pending stops (late only), else one order moved to a
   * near route where it breaks no rule.
   */
  private async routeProblems(day: Day, judged: JudgedRoute[], slices: TimeSlices) {
    const problems: Array<{
      route: JudgedRoute;
      suggestion: Omit<Suggestion, 'id'>;
      movable: number[];
      fixesWith: (orderId: number) => boolean;
    }> = [];
    for (const route of judged) {
      if (route.overloads.length > 0) {
        const worst = route.overloads.reduce((a, b) => (b.over / b.capacity > a.over / a.capacity ? b : a));
        problems.push({
          route,
          suggestion: {
            ...blank('route_over_capacity', 'no_single_move_fixes_overload'),
            route_id: route.observed.id,
            dimension: worst.dimension,
            over: worst.over,
          },
          movable: relievingOrders(route),
          fixesWith: () => true,
        });
      }
      if (route.lateStops.length > 0) {
        const late = {
          ...blank('route_late', 'no_single_move_fixes_lateness'),
          route_id: route.observed.id,
          late_minutes: Math.ceil(lateSeconds(route.lateStops) / 60),
          late_stops: route.lateStops.length,
        };
        if (resequenceClearsLateness(route)) {
          late.reason = 'resequence_fixes_lateness';
          late.write = {
            tool: 'resequence_route',
            arguments: { route_id: route.observed.id, optimize: true },
          };
        }
        const movable = [...new Set(route.lateStops.map((stop) => stop.orderId))]
          .filter((orderId) =>
            route.observed.route.stops.every(
              (stop, index) => stop.orderId !== orderId || index >= route.observed.firstFree,
            ),
          )
          .slice(0, 3);
        problems.push({
          route,
          suggestion: late,
          movable: late.write ? [] : movable,
          fixesWith: (orderId) => lateSecondsWithout(route, orderId) === 0,
        });
      }
      await slices.next();
    }
    // The moves tried: each order to the near routes with room, one matrix per target route.
    const targets = new Map<number, OrderView[]>();
    const moves: Array<{ problem: (typeof problems)[number]; order: OrderView; to: number[] }> = [];
    const views = new Map(
      day.routes.flatMap((route) => route.stops.map((stop) => [stop.orderId, stop.order])),
    );
    const open = day.routes.filter((route) => route.row.status !== 'finished');
    for (const problem of problems) {
      for (const orderId of problem.movable) {
        if (!problem.fixesWith(orderId)) continue;
        const order = views.get(orderId)!;
        const legs = stopsOfOrder(order);
        const to = nearestTo(
          open,
          legs[0]!.location,
          (route) => route.id !== problem.route.observed.id && hasRoom(route.row, legs[0]!.demand),
        ).map((route) => route.id);
        for (const id of to) {
          const list = targets.get(id);
          if (list) list.push(order);
          else targets.set(id, [order]);
        }
        moves.push({ problem, order, to });
      }
    }
    const onTarget = new Map<number, JudgedRoute>();
    for (const [id, orders] of targets) {
      const basis = day.routes.find((route) => route.id === id)!;
      onTarget.set(id, judge(await this.observe(day, basis, orders)));
      await slices.next();
    }
    for (const { problem, order, to } of moves) {
      if (problem.suggestion.write) continue;
      let chosen: { route: number; addedMeters: number } | undefined;
      for (const id of to) {
        const target = onTarget.get(id)!;
        const fit = fitOf(target, target.observed.legsOf.get(order.id)!);
        if (fit && (!chosen || fit.addedMeters < chosen.addedMeters))
          chosen = { route: id, addedMeters: fit.addedMeters };
      }
      await slices.next();
      if (!chosen) continue;
      const fixed =
        problem.suggestion.kind === 'route_over_capacity' ? 'move_fixes_overload' : 'move_fixes_lateness';
      problem.suggestion.reason = fixed;
      problem.suggestion.order_id = order.id;
      problem.suggestion.to_route_id = chosen.route;
      problem.suggestion.added_distance_m = chosen.addedMeters;
      problem.suggestion.write = {
        tool: 'move_route_stop',
        arguments: { route_id: problem.route.observed.id, order_id: order.id, to_route_id: chosen.route },
      };
    }
    return problems.map((problem) => problem.suggestion);
  }

  /** The route as its timing reads it, on the planning travel matrix of its depot, stops and these orders' legs. */
  private async observe(day: Day, basis: RouteBasis, tried: readonly OrderView[]): Promise<ObservedRoute> {
    const points: Point[] = [basis.depot];
    const index = new Map<string, number>([[pointKey(basis.depot), 0]]);
    const pointOf = (point: Point) => {
      const key = pointKey(point);
      let at = index.get(key);
      if (at === undefined) {
        at = points.length;
        index.set(key, at);
        points.push(point);
      }
      return at;
    };
    const stops = basis.stops.map((stop) => toTime(stop, pointOf(stop.location), SERVICE_MINUTES));
    const legsOfOrder = new Map<number, StopToTime[]>();
    for (const order of tried) {
      legsOfOrder.set(
        order.id,
        stopsOfOrder(order).map((leg) => toTime(leg, pointOf(leg.location), SERVICE_MINUTES)),
      );
    }
    const travel = await this.roads.matrix({
      businessId: day.businessId,
      date: day.date,
      points,
      straightLine: day.straightLine,
    });
    return {
      id: basis.id,
      driverId: basis.row.driver_user_id,
      depot: basis.depot,
      places: basis.places,
      firstFree: basis.firstFree,
      route: {
        depot: 0,
        shift: basis.shift,
        capacity: {
          weightGrams: basis.row.capacity_weight_grams,
          volumeCm3: basis.row.capacity_volume_cm3,
          count: basis.row.capacity_count,
        },
        skills: basis.row.skills,
        stops,
        started: basis.started,
      },
      travel,
      legsOf: legsOfOrder,
    };
  }

  /** One read of the day: its routes with their stops and orders, the waiting and held orders, the drivers on shift. */
  private async read(ctx: OperationContext, requested?: string): Promise<Day> {
    const businessId = businessOf(ctx);
    const db = ctx.db;
    const now = await this.accounts.localDateTimeOf(db, businessId, this.clock.now());
    const today = now.slice(0, 10);
    const date = requested ?? today;
    const elapsed = date < today ? DAY_SECONDS : date === today ? seconds(now.slice(11)) : 0;
    const rows = await suggestionsRepo.dayRoutes(db, businessId, date);
    const stopRows = await repo.stopsOf(
      db,
      rows.map((row) => row.id),
    );
    const views = new Map(
      (
        await this.orders.queries.views(db, businessId, [...new Set(stopRows.map((stop) => stop.order_id))])
      ).map((view) => [view.id, view]),
    );
    const profiles = await suggestionsRepo.availableProfiles(db, businessId);
    const driverIds = [
      ...new Set([...rows.map((row) => row.driver_user_id), ...profiles.map((p) => p.user_id)]),
    ];
    const windows = (await this.shifts?.windowsOf(db, businessId, date, driverIds)) ?? new Map();
    const depots = new Map((await repo.depotsOf(db, businessId)).map((depot) => [depot.id, depot]));
    const stopsByRoute = new Map<number, typeof stopRows>();
    for (const stop of stopRows) {
      const list = stopsByRoute.get(stop.route_id);
      if (list) list.push(stop);
      else stopsByRoute.set(stop.route_id, [stop]);
    }
    const routes: RouteBasis[] = [];
    for (const row of rows) {
      const window = windows.get(row.driver_user_id);
      // Timed from the route's own depot, as plan edits time it; the driver's only for one without.
      const depot = depots.get(row.route_depot_id ?? window?.depotId ?? row.depot_id ?? -1);
      const own = stopsByRoute.get(row.id) ?? [];
      // A route without a depot, or with a stop whose order lost its place, cannot be timed: left out.
      const stops = depot ? planStops(own, views) : undefined;
      if (!depot || !stops) continue;
      const firstFree = stops.findLastIndex((stop) => stop.status !== 'pending') + 1;
      const departure = seconds(row.departure);
      // Observed: a route under way, or one that should have left already, goes on from now at the earliest.
      const started =
        row.status === 'started' || (row.status === 'planned' && elapsed > departure)
          ? { departure: row.status === 'started' ? departure : elapsed, resumeNotBefore: elapsed }
          : undefined;
      routes.push({
        row,
        id: row.id,
        depot: { lat: depot.lat, lng: depot.lng },
        places: stops.slice(firstFree).map((stop) => stop.location),
        stops,
        firstFree,
        shift: {
          start: seconds(window?.start ?? row.shift_start),
          end: seconds(window?.end ?? row.shift_end),
        },
        started,
      });
    }
    const onRoute = new Set(rows.map((row) => row.driver_user_id));
    const active = new Set(
      (
        await this.accounts.usersOfKind(
          db,
          businessId,
          'driver',
          profiles.map((p) => p.user_id),
        )
      ).map((user) => user.id),
    );
    const idle = profiles
      .map((profile) => profile.user_id)
      .filter((id) => active.has(id) && windows.has(id) && !onRoute.has(id));
    return {
      businessId,
      date,
      elapsed,
      today,
      routes,
      pool: await this.orders.queries.planningPool(ctx, await this.orders.queries.scopeOf(ctx), date),
      held: await this.orders.queries.held(db, businessId, date, MAX_HELD),
      idle,
      straightLine: await this.dispatch.straightLine(db, businessId),
    };
  }
}

/** The route's stops as plan edits read them; undefined when one's order cannot be placed. */
function planStops(
  rows: ReadonlyArray<Selectable<DispatchTables['route_stops']>>,
  views: Map<number, OrderView>,
): PlanStop[] | undefined {
  const stops: PlanStop[] = [];
  for (const stop of rows) {
    const order = views.get(stop.order_id);
    if (!order || !legsOf(order) || !stopsOfOrder(order).some((own) => own.leg === stop.leg))
      return undefined;
    stops.push(storedPlanStop(stop, order));
  }
  return stops;
}

/** Room for this much more at the route's peak, in every dimension: a cheap test before timing. */
function hasRoom(row: RouteRow, demand: { weightGrams: number; volumeCm3: number; count: number }): boolean {
  return (
    row.load_weight_grams + demand.weightGrams <= row.capacity_weight_grams &&
    row.load_volume_cm3 + demand.volumeCm3 <= row.capacity_volume_cm3 &&
    row.load_count + demand.count <= row.capacity_count
  );
}

/** The nearest routes with room for the order, at most NEAREST_ROUTES. */
function nearestTo(routes: readonly RouteBasis[], place: Point, admit: (route: RouteBasis) => boolean) {
  return nearestRoutes(routes, place, NEAREST_ROUTES, admit);
}

function blank(kind: Suggestion['kind'], reason: Suggestion['reason']): Omit<Suggestion, 'id'> {
  return {
    kind,
    reason,
    order_id: null,
    route_id: null,
    to_route_id: null,
    driver_id: null,
    added_distance_m: null,
    dimension: null,
    over: null,
    late_minutes: null,
    late_stops: null,
    write: null,
  };
}
