import { AppError } from '../../platform/errors.ts';
import type { OrderView } from '../orders/index.ts';
import { clockTime, demandOf, legsOf, seconds } from './order-legs.ts';
import type { Carriage, LoadDimension, StopToTime, Violation } from './solver/evaluate.ts';
import type { Load, Point, TimeWindow } from './solver/types.ts';
import type { StopStatus } from './tables.ts';

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
