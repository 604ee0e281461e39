import type { Selectable } from 'kysely';
import { AppError } from '../../platform/errors.ts';
import type { OrderView } from '../orders/index.ts';
import { clockTime, demandOf, legsOf, seconds } from './order-legs.ts';
import type { Carriage, LoadDimension, StopToTime, Violation } from './solver/evaluate.ts';
import type { Load, Point, TimeWindow } from './solver/types.ts';
import type { DispatchTables, LockerPlace, StopStatus } from './tables.ts';

// The stops of a route under edit as the timing reads them, and the rules broken as callers read them.

/** A stop of a route being edited: where, when, what it carries, and what happened there. */
export interface PlanStop {
  order: OrderView;
  orderId: number;
  leg: 'pickup' | 'delivery';
  status: StopStatus;
  arrivedAt: Date | null;
  completedAt: Date | null;
  location: Point;
  window?: TimeWindow;
  demand: Load;
  carriage: Carriage;
  /** The planned times it has now (none for a stop being added). */
  planned?: { arrival: number; departure: number };
  /** The locker site a delivery goes to instead of the door (a locker reservation); none: the door. */
  locker?: LockerPlace | null;
}

/** A stop of a route as it is stored, with its order: timed at the locker site when it is a locker drop. */
export function storedPlanStop(stop: Selectable<DispatchTables['route_stops']>, order: OrderView): PlanStop {
  const leg = stopsOfOrder(order).find((own) => own.leg === stop.leg)!;
  return {
    ...leg,
    ...(stop.locker
      ? { locker: stop.locker, location: { lat: stop.locker.address.lat, lng: stop.locker.address.lng } }
      : {}),
    status: stop.status,
    arrivedAt: stop.arrived_at,
    completedAt: stop.completed_at,
    planned: { arrival: seconds(stop.planned_arrival), departure: seconds(stop.planned_departure) },
  };
}

/** A timed stop as a route's stops are written again: its place kept (a locker drop stays one). */
export function stopToStore(stop: PlanStop, timed: { arrival: number; departure: number }) {
  return {
    order_id: stop.orderId,
    leg: stop.leg,
    planned_arrival: clockTime(timed.arrival),
    planned_departure: clockTime(timed.departure),
    status: stop.status,
    arrived_at: stop.arrivedAt,
    completed_at: stop.completedAt,
    kind: stop.locker ? ('locker' as const) : ('door' as const),
    locker: stop.locker ?? null,
  };
}

/** The rule broken, as the answers and the PLAN_VIOLATION refusal say it. */
export interface WireViolation {
  route_id: number;
  kind: Violation['kind'];
  order_id?: number;
  leg?: 'pickup' | 'delivery';
  window?: { start: string; end: string };
  planned_arrival?: string;
  late_minutes?: number;
  dimension?: LoadDimension;
  load?: number;
  capacity?: number;
  over?: number;
  shift_end?: string;
  return_time?: string;
  over_minutes?: number;
  missing_skills?: string[];
}

/** The stops an order makes on a route: its pickup first for a P2P order, each as yet unplanned. */
export function stopsOfOrder(order: OrderView): PlanStop[] {
  const legs = legsOf(order);
  if (!legs)
    throw new AppError('ORDER_NOT_PLANNABLE', {
      params: { order: order.id, date: order.scheduled_date ?? '' },
    });
  const window = order.time_window
    ? { start: seconds(order.time_window.start), end: seconds(order.time_window.end) }
    : undefined;
  const stop = {
    order,
    orderId: order.id,
    status: 'pending' as const,
    arrivedAt: null,
    completedAt: null,
    demand: demandOf(order),
  };
  if (legs.pickup && legs.delivery) {
    return [
      { ...stop, leg: 'pickup', location: legs.pickup, carriage: 'pair_pickup' },
      { ...stop, leg: 'delivery', location: legs.delivery, window, carriage: 'pair_delivery' },
    ];
  }
  if (legs.pickup) return [{ ...stop, leg: 'pickup', location: legs.pickup, window, carriage: 'to_depot' }];
  return [{ ...stop, leg: 'delivery', location: legs.delivery!, window, carriage: 'from_depot' }];
}

/** The stops with the order's pending delivery at a locker site, or back at its door (`locker` null). */
export function deliveredAt(
  stops: readonly PlanStop[],
  orderId: number,
  locker: LockerPlace | null,
): PlanStop[] {
  return stops.map((stop) => {
    if (stop.orderId !== orderId || stop.leg !== 'delivery' || stop.status !== 'pending') return stop;
    const door = stopsOfOrder(stop.order).find((own) => own.leg === 'delivery')!.location;
    const location = locker ? { lat: locker.address.lat, lng: locker.address.lng } : door;
    return { ...stop, locker, location };
  });
}

/** The leg whose time its customer was told: the pickup of a pickup order, else the delivery. */
export function isCustomerLeg(stop: PlanStop): boolean {
  return stop.leg === 'delivery' || stop.carriage === 'to_depot';
}

export function toTime(stop: PlanStop, point: number, serviceMinutes: number): StopToTime {
  return {
    orderId: stop.orderId,
    leg: stop.leg,
    point,
    serviceSeconds: serviceMinutes * 60,
    window: stop.window,
    demand: stop.demand,
    carriage: stop.carriage,
    fixed: stop.status === 'pending' ? undefined : stop.planned,
    requiredSkills: stop.order.required_skills,
  };
}

export function wire(routeId: number, violation: Violation): WireViolation {
  switch (violation.kind) {
    case 'time_window':
      return {
        route_id: routeId,
        kind: violation.kind,
        order_id: violation.orderId,
        leg: violation.leg,
        window: { start: hhmm(violation.window.start), end: hhmm(violation.window.end) },
        planned_arrival: hhmm(violation.arrival),
        late_minutes: Math.ceil(violation.lateSeconds / 60),
      };
    case 'capacity':
      return {
        route_id: routeId,
        kind: violation.kind,
        dimension: violation.dimension,
        load: violation.load,
        capacity: violation.capacity,
        over: violation.over,
      };
    case 'shift':
      return {
        route_id: routeId,
        kind: violation.kind,
        shift_end: hhmm(violation.shiftEnd),
        return_time: hhmm(violation.returnTime),
        over_minutes: Math.ceil(violation.overSeconds / 60),
      };
    case 'pickup_after_delivery':
      return { route_id: routeId, kind: violation.kind, order_id: violation.orderId };
    case 'skills':
      return {
        route_id: routeId,
        kind: violation.kind,
        order_id: violation.orderId,
        missing_skills: violation.missing,
      };
  }
}

export const hhmm = (total: number) => clockTime(total).slice(0, 5);
