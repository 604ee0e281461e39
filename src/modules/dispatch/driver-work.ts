import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { OrderStatus, OrdersService, OrderView, StatusDetails } from '../orders/index.ts';
import { signalBoard } from './board-repository.ts';
import * as repo from './driver-repository.ts';
import { type DispatchService, stopAnswer } from './service.ts';
import type { LockerPlace } from './tables.ts';

/** How far ahead of the server a phone's clock may be, and how late a write may arrive. */
export const DEVICE_TIME_AHEAD_MS = 5 * 60_000;
export const DEVICE_TIME_LATE_MS = 7 * 24 * 3_600_000;
/**
 * How far before its route started a stop's write may be stamped: the phone's clock and the one
 * that stamped the start may disagree by this much; more is a write from before the work began.
 */
export const DEVICE_TIME_BEFORE_START_MS = 5 * 60_000;
const DAY_MS = 24 * 3_600_000;
/** Most positions one call reports. */
export const MAX_POSITIONS = 100;

/** Statuses in which a delivery order waits at the depot: starting the route sets it out for delivery. */
const LOADED: readonly OrderStatus[] = ['PLANNED', 'PICKED_UP', 'AT_WAREHOUSE'];

/** What every driver write carries: the phone's id for it, and when it happened on the phone. */
export interface DriverWrite {
  route_id: number;
  client_id: string;
  device_time: string;
}

export interface StopTarget {
  order_id: number;
  leg?: repo.Leg;
}

export interface CompleteStopInput extends DriverWrite, StopTarget {
  outcome: 'delivered' | 'failed' | 'picked_up';
  recipient?: string;
  note?: string;
  signature_proof_id?: number;
  photo_proof_ids?: number[];
  reason?: { code: string; message?: string };
  position?: { lat: number; lng: number; accuracy_meters?: number };
}

export interface PositionsInput {
  route_id: number;
  client_id: string;
  positions: Array<{ lat: number; lng: number; accuracy_meters?: number; device_time: string }>;
}

type SharedRoute = Awaited<ReturnType<DispatchService['routes']>>[number];
type Stop = Awaited<ReturnType<typeof repo.stopsOfRoute>>[number];

/**
 * A driver's working day on their own routes: reading them with what each stop needs, starting,
 * arriving, completing, reporting positions, finishing. Only routes the caller drives now are
 * theirs; each write is applied once per client id, with the time the phone gave it.
 */
export class DriverWork {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly dispatch: DispatchService,
  ) {}

  // ----- reading -----

  /** The caller's routes of a date (default: today in the business's time zone), stops with their orders. */
  async myRoutes(ctx: OperationContext, date: string | undefined) {
    const businessId = businessOf(ctx);
    const day = date ?? (await this.dispatch.today(ctx.db, businessId));
    const routes = await this.dispatch.routes(ctx, { date: day, driver_id: callerOf(ctx).userId });
    return { result: true as const, date: day, routes: await this.withOrders(ctx.db, businessId, routes) };
  }

  /** Which pickup stop of the caller's started route a scanned package belongs to. */
  async scanAtPickup(ctx: OperationContext, routeId: number, trackingNumber: string) {
    const businessId = businessOf(ctx);
    const route = await this.ownRoute(ctx, routeId);
    requireStarted(route);
    const [pkg] = await this.orders.queries.packagesByTrackingNumber(ctx.db, [trackingNumber]);
    const stops = await repo.stopsOfRoute(ctx.db, routeId);
    const stop =
      pkg?.business_id === businessId
        ? stops.find((s) => s.order_id === pkg.order_id && s.leg === 'pickup')
        : undefined;
    // Another business's number is as unknown as a made-up one.
    if (!pkg || !stop) {
      throw new AppError('PACKAGE_NOT_ON_ROUTE', {
        params: { number: trackingNumber, route: routeId },
      });
    }
    return {
      result: true as const,
      route_id: routeId,
      package: { id: pkg.id, tracking_number: pkg.tracking_number },
      stop: await this.stopView(ctx, routeId, stop),
    };
  }

  // ----- writes -----

  /**
   * Starts the route; its delivery orders loaded at the depot (no pickup leg on this route) go out
   * for delivery. Starting a started route changes nothing.
   */
  async start(ctx: OperationContext, input: DriverWrite) {
    const route = await this.ownRoute(ctx, input.route_id, { lock: true });
    return this.once(ctx, input, { operation: 'start_route' }, async (at) => {
      if (route.status === 'finished') throw finished(route.id);
      const outForDelivery: number[] = [];
      if (route.status === 'planned') {
        await repo.startRoute(ctx.db, route.id, at);
        const stops = await repo.stopsOfRoute(ctx.db, route.id);
        const pickedHere = new Set(stops.filter((s) => s.leg === 'pickup').map((s) => s.order_id));
        const loaded = stops.filter(
          (s) => s.leg === 'delivery' && s.status === 'pending' && !pickedHere.has(s.order_id),
        );
        const views = await this.orders.queries.views(
          ctx.db,
          businessOf(ctx),
          loaded.map((s) => s.order_id),
        );
        for (const order of views.filter((view) => LOADED.includes(view.status))) {
          await this.orders.changes.advance(ctx, order.id, 'OUT_FOR_DELIVERY', { occurred_at: at });
          outForDelivery.push(order.id);
        }
      }
      return {
        result: true as const,
        route: await this.routeView(ctx, route.id),
        out_for_delivery: outForDelivery,
      };
    });
  }

  /** The driver is at the stop. Arriving again changes nothing; a completed stop cannot be arrived at. */
  async arrive(ctx: OperationContext, input: DriverWrite & StopTarget) {
    const route = await this.ownRoute(ctx, input.route_id, { lock: true });
    const target = { operation: 'arrive_at_stop', order_id: input.order_id, leg: input.leg };
    return this.once(ctx, input, target, async (at) => {
      requireStarted(route, at);
      const stop = stopOf(await repo.stopsOfRoute(ctx.db, route.id), route.id, input);
      if (stop.status === 'done' || stop.status === 'failed') throw alreadyCompleted(route.id, stop);
      if (stop.status === 'pending') {
        await repo.updateStop(ctx.db, route.id, stop, { status: 'arrived', at });
      }
      return { result: true as const, route_id: route.id, stop: await this.stopView(ctx, route.id, stop) };
    });
  }

  /**
   * Completes a stop: delivered (delivery legs), picked up (pickup legs) or failed (either, with
   * an incident reason). The order's status follows through the orders module, so its tracking
   * event (at the phone's time), webhooks and audit trail follow as for any status change.
   */
  async complete(ctx: OperationContext, input: CompleteStopInput) {
    const route = await this.ownRoute(ctx, input.route_id, { lock: true });
    const leg = input.leg ?? legOfOutcome(input.outcome);
    const target = { operation: 'complete_stop', order_id: input.order_id, leg: input.leg };
    return this.once(ctx, input, target, async (at) => {
      requireStarted(route, at);
      const stops = await repo.stopsOfRoute(ctx.db, route.id);
      const stop = stopOf(stops, route.id, { order_id: input.order_id, leg });
      if (stop.status === 'done' || stop.status === 'failed') throw alreadyCompleted(route.id, stop);
      // A parcel left in a locker is delivered when its recipient collects it (docs/lockers.md).
      if (stop.locker && input.outcome !== 'failed') {
        throw new AppError('STOP_IS_LOCKER_DROP', {
          params: { order: stop.order_id, site: stop.locker.name },
          details: { site_id: stop.locker.site_id, booking_id: stop.locker.booking_id },
        });
      }
      if (legOfOutcome(input.outcome) && legOfOutcome(input.outcome) !== stop.leg) {
        throw new AppError('OUTCOME_NOT_FOR_LEG', {
          params: { outcome: input.outcome, leg: stop.leg },
          details: { outcome: input.outcome, leg: stop.leg },
        });
      }
      const businessId = businessOf(ctx);
      const [order] = await this.orders.queries.views(ctx.db, businessId, [stop.order_id]);
      const pickupHere = stops.some((s) => s.order_id === stop.order_id && s.leg === 'pickup');
      const proofs = {
        ...(input.signature_proof_id !== undefined ? { signature_proof_id: input.signature_proof_id } : {}),
        ...(input.photo_proof_ids?.length ? { photo_proof_ids: input.photo_proof_ids } : {}),
      };
      const details: StatusDetails = { occurred_at: at };
      let to: OrderStatus;
      if (input.outcome === 'failed') {
        to = 'FAILED_ATTEMPT';
        details.incident_reason = input.reason;
        if (Object.keys(proofs).length || input.note) details.pod = { ...proofs, note: input.note };
      } else {
        to = input.outcome === 'picked_up' ? 'PICKED_UP' : 'DELIVERED';
        details.pod = { recipient: input.recipient, note: input.note, ...proofs };
      }
      // A delivery order still waiting at the depot goes out for delivery on the way.
      const steps: OrderStatus[] =
        stop.leg === 'delivery' && !pickupHere && LOADED.includes(order!.status)
          ? ['OUT_FOR_DELIVERY', to]
          : [to];
      await this.orders.changes.advance(ctx, stop.order_id, steps, details);
      const status = input.outcome === 'failed' ? 'failed' : 'done';
      await repo.updateStop(ctx.db, route.id, stop, { status, at });
      // Nothing collected, nothing to deliver: the order's delivery leg on this route fails with it.
      const delivery = stops.find((s) => s.order_id === stop.order_id && s.leg === 'delivery');
      if (status === 'failed' && stop.leg === 'pickup' && delivery?.status === 'pending') {
        await repo.updateStop(ctx.db, route.id, delivery, { status: 'failed', at });
      }
      await this.dispatch.tellStopsChanged(ctx, { businessId, routeIds: [route.id] });
      if (input.position) {
        await repo.insertPositions(ctx.db, [
          this.position(ctx, route.id, { ...input.position, device_time: at }, stop.order_id),
        ]);
      }
      return {
        result: true as const,
        route_id: route.id,
        stop: await this.stopView(ctx, route.id, stop),
        order: { id: stop.order_id, status: steps.at(-1)! },
      };
    });
  }

  /** Stores a batch of the phone's positions along one of the caller's routes, whatever its state. */
  async reportPositions(ctx: OperationContext, input: PositionsInput) {
    const route = await this.ownRoute(ctx, input.route_id);
    return this.once(ctx, input, { operation: 'report_positions' }, async () => {
      const rows = input.positions.map((p) =>
        this.position(ctx, route.id, { ...p, device_time: this.deviceTime(p.device_time) }, null),
      );
      await repo.insertPositions(ctx.db, rows);
      return { result: true as const, route_id: route.id, stored: rows.length };
    });
  }

  /**
   * Finishes a started route. Stops still open (pending or arrived) are left as they are and
   * reported, for a dispatcher to decide; their orders keep their statuses.
   */
  async finish(ctx: OperationContext, input: DriverWrite) {
    const route = await this.ownRoute(ctx, input.route_id, { lock: true });
    return this.once(ctx, input, { operation: 'finish_route' }, async (at) => {
      requireStarted(route, at);
      await repo.finishRoute(ctx.db, route.id, at);
      const view = await this.routeView(ctx, route.id);
      return {
        result: true as const,
        route: view,
        open_stops: view.stops
          .filter((stop) => stop.status === 'pending' || stop.status === 'arrived')
          .map((stop) => ({
            sequence: stop.sequence,
            order_id: stop.order_id,
            leg: stop.leg,
            status: stop.status,
          })),
      };
    });
  }

  /**
   * Forgets the writes kept for replays once no replay can be taken any more: a write is sent
   * with its device time, refused when more than 7 days old, so after 8 days a replay would be
   * refused as a new write would. Run hourly by the service.
   */
  async pruneWrites(db: Queryable): Promise<number> {
    return repo.pruneWrites(db, new Date(this.clock.now().getTime() - DEVICE_TIME_LATE_MS - DAY_MS));
  }

  // ----- helpers -----

  /** A route of the caller's business that the caller drives now; anything else is not found. */
  private async ownRoute(ctx: OperationContext, routeId: number, options: { lock?: boolean } = {}) {
    const route = await repo.driverRoute(ctx.db, businessOf(ctx), callerOf(ctx).userId, routeId, options);
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    return route;
  }

  /**
   * Applies a write once per client id of the caller: the first call claims the id (in the
   * write's own transaction) and keeps its answer; a replay answers that answer and changes
   * nothing; the id given to another write (operation, route or stop) is refused. A refused
   * first call keeps nothing, so sending it again is judged afresh.
   */
  private async once<T>(
    ctx: OperationContext,
    write: { route_id: number; client_id: string; device_time?: string },
    target: { operation: string; order_id?: number; leg?: repo.Leg },
    apply: (at: Date) => Promise<T>,
  ): Promise<T> {
    const driverId = callerOf(ctx).userId;
    const claimed = {
      driver_user_id: driverId,
      client_id: write.client_id,
      business_id: businessOf(ctx),
      operation: target.operation,
      route_id: write.route_id,
      order_id: target.order_id ?? null,
      leg: target.leg ?? null,
      created_at: this.clock.now(),
    };
    if (!(await repo.claimWrite(ctx.db, claimed))) {
      const first = (await repo.writeOf(ctx.db, driverId, write.client_id))!;
      const same =
        first.operation === claimed.operation &&
        first.route_id === claimed.route_id &&
        first.order_id === claimed.order_id &&
        first.leg === claimed.leg;
      if (!same) {
        throw new AppError('CLIENT_ID_REUSED', {
          params: { client_id: write.client_id },
          details: { operation: first.operation, route_id: first.route_id, order_id: first.order_id },
        });
      }
      return first.answer as T;
    }
    const answer = await apply(
      write.device_time === undefined ? this.clock.now() : this.deviceTime(write.device_time),
    );
    // The route's live boards read it again (its stops, its driver's position) once this commits.
    await signalBoard(ctx.db, claimed.business_id, { routeIds: [write.route_id] });
    await repo.saveAnswer(ctx.db, driverId, write.client_id, answer);
    return answer;
  }

  /** The phone's time of a write, refused when ahead of the server's or too old to be believed. */
  private deviceTime(value: string): Date {
    const at = new Date(value);
    const now = this.clock.now().getTime();
    if (at.getTime() > now + DEVICE_TIME_AHEAD_MS || at.getTime() < now - DEVICE_TIME_LATE_MS) {
      throw new AppError('DEVICE_TIME_OUT_OF_RANGE', {
        params: { device_time: value },
        details: { device_time: value, server_time: new Date(now).toISOString() },
      });
    }
    return at;
  }

  private position(
    ctx: OperationContext,
    routeId: number,
    p: { lat: number; lng: number; accuracy_meters?: number; device_time: Date },
    orderId: number | null,
  ) {
    return {
      business_id: businessOf(ctx),
      driver_user_id: callerOf(ctx).userId,
      route_id: routeId,
      order_id: orderId,
      lat: p.lat,
      lng: p.lng,
      accuracy_meters: p.accuracy_meters ?? null,
      device_time: p.device_time,
      received_at: this.clock.now(),
    };
  }

  private async routeView(ctx: OperationContext, routeId: number) {
    const businessId = businessOf(ctx);
    const routes = await this.dispatch.routes(ctx, { ids: [routeId] });
    return (await this.withOrders(ctx.db, businessId, routes))[0]!;
  }

  /** One stop as the route view shows it, read again after a write: its row and its order only. */
  private async stopView(ctx: OperationContext, routeId: number, stop: Pick<Stop, 'order_id' | 'leg'>) {
    const row = (await repo.stopsOfRoute(ctx.db, routeId)).find(
      (s) => s.order_id === stop.order_id && s.leg === stop.leg,
    )!;
    const [order] = await this.orders.queries.views(ctx.db, businessOf(ctx), [stop.order_id]);
    return { ...stopAnswer(row), ...stopDetails(order!, row) };
  }

  /** The shared route view, each stop with what the driver needs there, read for all stops at once. */
  private async withOrders(db: Queryable, businessId: number, routes: SharedRoute[]) {
    const ids = [...new Set(routes.flatMap((route) => route.stops.map((stop) => stop.order_id)))];
    const orders = new Map((await this.orders.queries.views(db, businessId, ids)).map((o) => [o.id, o]));
    return routes.map((route) => ({
      ...route,
      stops: route.stops.map((stop) => ({ ...stop, ...stopDetails(orders.get(stop.order_id)!, stop) })),
    }));
  }
}

/**
 * What the driver needs at one leg of an order: where, whom to meet, when, what to carry. A locker
 * drop is made at the locker site, with nobody to meet there.
 */
function stopDetails(order: OrderView, stop: { leg: repo.Leg; locker: LockerPlace | null }) {
  const { name, phone, ...address } = stop.locker
    ? { ...stop.locker.address, name: stop.locker.name, phone: null }
    : ((stop.leg === 'pickup' ? order.pickup : order.dropoff) ?? { line1: '' });
  return {
    order_ref: order.order_ref,
    order_type: order.type,
    order_status: order.status,
    address,
    contact: { name: name ?? null, phone: phone ?? null },
    time_window: order.time_window,
    delivery_instruction: order.delivery_instruction,
    note: order.note,
    packages: order.packages,
  };
}

/** The leg an outcome is for; a failure may be of either. */
function legOfOutcome(outcome: CompleteStopInput['outcome']): repo.Leg | undefined {
  if (outcome === 'picked_up') return 'pickup';
  return outcome === 'delivered' ? 'delivery' : undefined;
}

/**
 * The order's stop on the route: of the leg named, else its first stop not completed yet (a
 * P2P's pickup, then its delivery), else its last.
 */
function stopOf(stops: Stop[], routeId: number, target: StopTarget): Stop {
  const candidates = stops.filter(
    (s) => s.order_id === target.order_id && (target.leg === undefined || s.leg === target.leg),
  );
  const stop = candidates.find((s) => s.status === 'pending' || s.status === 'arrived') ?? candidates.at(-1);
  if (!stop) {
    throw new AppError('STOP_NOT_FOUND', { params: { order: target.order_id, route: routeId } });
  }
  return stop;
}

/**
 * The route is under way; a write stamped `at` (the phone's time) must not come from before it
 * started, beyond the clocks' tolerance: an arrival two hours before the start is not believed.
 */
function requireStarted(route: { id: number; status: string; started_at?: Date | null }, at?: Date): void {
  if (route.status === 'planned') throw new AppError('ROUTE_NOT_STARTED', { params: { route: route.id } });
  if (route.status === 'finished') throw finished(route.id);
  const started = route.started_at;
  if (at && started && at.getTime() < started.getTime() - DEVICE_TIME_BEFORE_START_MS) {
    throw new AppError('DEVICE_TIME_BEFORE_ROUTE_START', {
      params: { device_time: at.toISOString(), started_at: started.toISOString() },
      details: { device_time: at.toISOString(), route_started_at: started.toISOString() },
    });
  }
}

function finished(routeId: number): AppError {
  return new AppError('ROUTE_FINISHED', { params: { route: routeId } });
}

function alreadyCompleted(routeId: number, stop: Stop): AppError {
  return new AppError('STOP_ALREADY_COMPLETED', {
    params: { order: stop.order_id, route: routeId },
    details: { status: stop.status, completed_at: stop.completed_at?.toISOString() ?? null },
  });
}
