import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrderStatus, OrdersService } from '../orders/index.ts';
import * as boardRepo from './board-repository.ts';
import * as repo from './repository.ts';
import type { RouteStatus, StopKind, StopStatus } from './tables.ts';

// The dispatch board: one consistent read of a business's day (routes, stops, drivers' last
// positions, waiting orders) and the exceptions observed in it. Observed state only: nothing here
// forecasts an arrival.

/** Drivers silent longer than this many minutes are an exception, unless the caller says otherwise. */
export const DEFAULT_SILENT_MINUTES = 15;
export const MAX_SILENT_MINUTES = 720;
/** Most unplanned and held orders one board lists (the totals count them all). */
export const MAX_WAITING_ORDERS = 2000;

export const EXCEPTION_KINDS = [
  'stop_late',
  'failed_attempt',
  'route_not_started',
  'driver_silent',
  'order_unplanned',
  'order_held',
] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

/** Which board: a business's day, optionally one depot's routes, with its silence threshold. */
export interface BoardQuery {
  businessId: number;
  date: string;
  depotId: number | null;
  silentMinutes: number;
}

export interface BoardStop {
  order_id: number;
  order_ref: string;
  sequence: number;
  leg: 'pickup' | 'delivery';
  state: StopStatus;
  order_status: OrderStatus;
  window: { start: string; end: string } | null;
  /** A door delivery, or a drop at a locker site (drawn there). */
  kind: StopKind;
  lat: number | null;
  lng: number | null;
  arrived_at: string | null;
  completed_at: string | null;
}

export interface BoardPosition {
  route_id: number;
  lat: number;
  lng: number;
  accuracy_meters: number | null;
  at: string;
  age_seconds: number;
}

export interface BoardRoute {
  id: number;
  driver: { id: number; name: string };
  vehicle_type: string | null;
  /** The vehicle of the business it drives; null: its driver's own. */
  vehicle_id: number | null;
  depot_id: number | null;
  status: RouteStatus;
  locked: boolean;
  /** The route's plan version (plan-versions.ts): what a plan edit made from this board expects. */
  plan_version: number;
  departure: string;
  started_at: string | null;
  finished_at: string | null;
  stops_done: number;
  stops_failed: number;
  stops_remaining: number;
  position: BoardPosition | null;
  stops: BoardStop[];
}

export interface WaitingOrder {
  order_id: number;
  order_ref: string;
  status: OrderStatus;
  window: { start: string; end: string } | null;
  lat: number | null;
  lng: number | null;
}

export interface BoardException {
  /** Stable while the exception holds: `stop_late:12:delivery`, `driver_silent:7`, ... */
  key: string;
  kind: ExceptionKind;
  route_id: number | null;
  order_id: number | null;
  driver_id: number | null;
  leg: 'pickup' | 'delivery' | null;
  since: string | null;
  order: WaitingOrder | null;
}

/** What a read found: the state the exceptions are judged on. */
export interface BoardState {
  version: number;
  routes: Map<number, Omit<BoardRoute, 'position'> & { position: Omit<BoardPosition, 'age_seconds'> | null }>;
  waiting: WaitingOrder[];
  counts: { unplanned: number; held: number };
}

/** The board as it is answered: the state at its version, judged at `observed_at`. */
export interface BoardAnswer {
  date: string;
  depot_id: number | null;
  version: number;
  observed_at: string;
  silent_after_minutes: number;
  totals: {
    routes: number;
    stops_done: number;
    stops_failed: number;
    stops_remaining: number;
    unplanned: number;
    held: number;
    exceptions: number;
  };
  routes: BoardRoute[];
  exceptions: BoardException[];
}

/** The dispatch board's reads. */
export class DispatchBoard {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
  ) {}

  /** The board the caller asked for (default: today in the business's time zone). */
  async query(
    ctx: OperationContext,
    input: { date?: string; depot_id?: number; silent_minutes?: number },
  ): Promise<BoardQuery> {
    const businessId = businessOf(ctx);
    if (
      input.depot_id !== undefined &&
      !(await repo.depotsOf(ctx.db, businessId)).some((d) => d.id === input.depot_id)
    ) {
      throw new AppError('DEPOT_NOT_FOUND', { params: { depot: input.depot_id } });
    }
    const date =
      input.date ?? (await this.accounts.localDateTimeOf(ctx.db, businessId, this.clock.now())).slice(0, 10);
    return {
      businessId,
      date,
      depotId: input.depot_id ?? null,
      silentMinutes: input.silent_minutes ?? DEFAULT_SILENT_MINUTES,
    };
  }

  async answer(db: Queryable, query: BoardQuery): Promise<BoardAnswer> {
    const state = await this.read(db, query);
    return this.assemble(state, query, await this.timeZone(db, query.businessId));
  }

  timeZone(db: Queryable, businessId: number): Promise<string> {
    return this.accounts.timeZoneOf(db, businessId);
  }

  /**
   * One consistent read (a repeatable-read snapshot, whose version it reports) of the whole day,
   * or, with `part`, of some routes and, when asked, the waiting orders: a handful of statements
   * whatever the size of the day.
   */
  async read(
    db: Queryable,
    query: BoardQuery,
    part?: { routeIds: readonly number[]; waiting: boolean },
  ): Promise<BoardState> {
    const run = async (trx: Queryable): Promise<BoardState> => {
      const version = await boardRepo.readVersion(trx, query.businessId);
      const rows = await boardRepo.boardRoutes(trx, query.businessId, {
        date: query.date,
        depotId: query.depotId,
        ids: part?.routeIds,
      });
      const stops = await boardRepo.boardStops(
        trx,
        rows.map((row) => row.id),
      );
      const waiting = part === undefined || part.waiting;
      const orderRows = await this.orders.queries.boardOrders(
        trx,
        query.businessId,
        [...new Set(stops.map((stop) => stop.order_id))],
        waiting ? { date: query.date, limit: MAX_WAITING_ORDERS } : undefined,
      );
      const counts = waiting
        ? await this.orders.queries.waitingCounts(trx, query.businessId, query.date)
        : { unplanned: 0, held: 0 };
      const driverIds = rows.map((row) => row.driver_user_id);
      const positions = new Map(
        (await boardRepo.lastPositions(trx, query.businessId, driverIds)).map((p) => [p.driver_user_id, p]),
      );
      const names = await this.accounts.namesOf(trx, driverIds);
      const orders = new Map(orderRows.filter((o) => !o.waiting).map((o) => [o.id, o]));
      const stopsByRoute = new Map<number, typeof stops>();
      for (const stop of stops) {
        const list = stopsByRoute.get(stop.route_id);
        if (list) list.push(stop);
        else stopsByRoute.set(stop.route_id, [stop]);
      }
      const routes = new Map<number, BoardState['routes'] extends Map<number, infer R> ? R : never>();
      for (const row of rows) {
        const own = (stopsByRoute.get(row.id) ?? []).map((stop): BoardStop => {
          const order = orders.get(stop.order_id);
          const pickup = stop.leg === 'pickup';
          // The order's window is its customer's: the delivery's, or the pickup's of a pickup order.
          const windowed = !pickup || order?.type === 'P';
          return {
            order_id: stop.order_id,
            order_ref: order?.order_ref ?? '',
            sequence: stop.sequence,
            leg: stop.leg,
            state: stop.status,
            order_status: order?.status ?? 'PLANNED',
            window: windowed ? windowOf(order?.window_start ?? null, order?.window_end ?? null) : null,
            kind: stop.kind,
            lat: stop.locker?.lat ?? (pickup ? order?.pickup_lat : order?.dropoff_lat) ?? null,
            lng: stop.locker?.lng ?? (pickup ? order?.pickup_lng : order?.dropoff_lng) ?? null,
            arrived_at: stop.arrived_at,
            completed_at: stop.completed_at,
          };
        });
        const position = positions.get(row.driver_user_id);
        routes.set(row.id, {
          id: row.id,
          driver: { id: row.driver_user_id, name: names.get(row.driver_user_id) ?? '' },
          vehicle_type: row.vehicle_type,
          vehicle_id: row.vehicle_id,
          depot_id: row.depot_id ?? null,
          status: row.status,
          locked: row.locked,
          plan_version: row.plan_version,
          departure: row.departure.slice(0, 5),
          started_at: row.started_at?.toISOString() ?? null,
          finished_at: row.finished_at?.toISOString() ?? null,
          stops_done: own.filter((stop) => stop.state === 'done').length,
          stops_failed: own.filter((stop) => stop.state === 'failed').length,
          stops_remaining: own.filter((stop) => stop.state === 'pending' || stop.state === 'arrived').length,
          position: position
            ? {
                route_id: position.route_id,
                lat: position.lat,
                lng: position.lng,
                accuracy_meters: position.accuracy_meters,
                at: position.device_time.toISOString(),
              }
            : null,
          stops: own,
        });
      }
      const waitingOrders = orderRows
        .filter((o) => o.waiting)
        .map((o) => {
          const pickup = o.type === 'P';
          return {
            order_id: o.id,
            order_ref: o.order_ref,
            status: o.status,
            window: windowOf(o.window_start, o.window_end),
            lat: (pickup ? o.pickup_lat : o.dropoff_lat) ?? null,
            lng: (pickup ? o.pickup_lng : o.dropoff_lng) ?? null,
          };
        });
      return { version, routes, waiting: waitingOrders, counts };
    };
    if (db.isTransaction) return run(db);
    return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(run);
  }

  /** The answer of a state: its routes with their positions' ages, its exceptions and totals, judged now. */
  assemble(state: BoardState, query: BoardQuery, timeZone: string): BoardAnswer {
    const now = this.clock.now();
    const routes = [...state.routes.values()]
      .sort((a, b) => a.id - b.id)
      .map((route) => ({
        ...route,
        position: route.position && {
          ...route.position,
          age_seconds: Math.max(0, Math.round((now.getTime() - Date.parse(route.position.at)) / 1000)),
        },
      }));
    const exceptions = exceptionsOf(routes, state.waiting, { query, now, timeZone });
    const sum = (field: 'stops_done' | 'stops_failed' | 'stops_remaining') =>
      routes.reduce((total, route) => total + route[field], 0);
    return {
      date: query.date,
      depot_id: query.depotId,
      version: state.version,
      observed_at: now.toISOString(),
      silent_after_minutes: query.silentMinutes,
      totals: {
        routes: routes.length,
        stops_done: sum('stops_done'),
        stops_failed: sum('stops_failed'),
        stops_remaining: sum('stops_remaining'),
        unplanned: state.counts.unplanned,
        held: state.counts.held,
        exceptions: exceptions.length,
      },
      routes,
      exceptions,
    };
  }
}

/**
 * The exceptions observed in a board, judged at `now` in the business's time zone:
 * - stop_late: a stop not completed (pending or arrived) whose window ended;
 * - failed_attempt: a stop that failed, or whose order failed an attempt by another door;
 * - route_not_started: a planned route whose departure time passed;
 * - driver_silent: the driver of a started route reported no position for more than the
 *   threshold (since the later of their last position and the route's start);
 * - order_unplanned / order_held: orders of the day on no route, or held.
 */
export function exceptionsOf(
  routes: readonly BoardRoute[],
  waiting: readonly WaitingOrder[],
  { query, now, timeZone }: { query: BoardQuery; now: Date; timeZone: string },
): BoardException[] {
  const local = formatLocalDateTime(now, timeZone);
  const judged = new Map<string, boolean>();
  const passed = (time: string) => {
    let answer = judged.get(time);
    if (answer === undefined) {
      answer = `${query.date} ${clockTime(time)}` < local;
      judged.set(time, answer);
    }
    return answer;
  };
  // A day's windows end at a few distinct times: each placed once.
  const instants = new Map<string, string>();
  const at = (time: string) => {
    let instant = instants.get(time);
    if (instant === undefined) {
      instant = localInstant(query.date, time, timeZone).toISOString();
      instants.set(time, instant);
    }
    return instant;
  };
  const found: BoardException[] = [];
  // Built whole, field by field: a day has thousands, and a live board compares them as JSON.
  const add = (
    kind: ExceptionKind,
    key: string,
    about: { route: number | null; driver: number | null; order: number | null; leg?: BoardStop['leg'] },
    since: string | null,
    order: WaitingOrder | null = null,
  ) =>
    found.push({
      key,
      kind,
      route_id: about.route,
      order_id: about.order,
      driver_id: about.driver,
      leg: about.leg ?? null,
      since,
      order,
    });
  const silent = new Set<number>();
  for (const route of routes) {
    const driver = route.driver.id;
    for (const stop of route.stops) {
      const open = stop.state === 'pending' || stop.state === 'arrived';
      const late = open && stop.window !== null && passed(stop.window.end);
      const failed = stop.state === 'failed' || (open && stop.order_status === 'FAILED_ATTEMPT');
      if (!late && !failed) continue;
      const about = { route: route.id, driver, order: stop.order_id, leg: stop.leg };
      if (late) add('stop_late', `stop_late:${stop.order_id}:${stop.leg}`, about, at(stop.window!.end));
      if (failed)
        add('failed_attempt', `failed_attempt:${stop.order_id}:${stop.leg}`, about, stop.completed_at);
    }
    const about = { route: route.id, driver, order: null };
    if (route.status === 'planned' && passed(route.departure)) {
      add('route_not_started', `route_not_started:${route.id}`, about, at(route.departure));
    }
    if (route.status === 'started' && !silent.has(driver)) {
      const heard = Math.max(
        Date.parse(route.started_at ?? '') || 0,
        Date.parse(route.position?.at ?? '') || 0,
      );
      if (now.getTime() - heard > query.silentMinutes * 60_000) {
        silent.add(driver);
        add('driver_silent', `driver_silent:${driver}`, about, new Date(heard).toISOString());
      }
    }
  }
  for (const order of waiting) {
    const kind = order.status === 'HOLD' ? 'order_held' : 'order_unplanned';
    add(kind, `${kind}:${order.order_id}`, { route: null, driver: null, order: order.order_id }, null, order);
  }
  const rank = (kind: ExceptionKind) => EXCEPTION_KINDS.indexOf(kind);
  return found.sort((a, b) => rank(a.kind) - rank(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function windowOf(start: string | null, end: string | null) {
  return start && end ? { start: start.slice(0, 5), end: end.slice(0, 5) } : null;
}

/** HH:MM or HH:MM:SS as HH:MM:SS, to compare with a local date-time. */
function clockTime(time: string): string {
  return time.length === 5 ? `${time}:00` : time.slice(0, 8);
}

/** The instant a wall-clock time of a date shows in a time zone (the first, across a DST fold). */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const wall = wallMillis(`${date} ${clockTime(time)}`);
  let guess = wall;
  // Two corrections settle any offset, DST changes included.
  for (let step = 0; step < 2; step++) {
    guess += wall - wallMillis(formatLocalDateTime(new Date(guess), timeZone));
  }
  return new Date(guess);
}

function wallMillis(local: string): number {
  const [date = '', time = ''] = local.split(' ');
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  const [hh = 0, mm = 0, ss = 0] = time.split(':').map(Number);
  return Date.UTC(y, m - 1, d, hh, mm, ss);
}
