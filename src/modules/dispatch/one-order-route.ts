import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService } from '../orders/index.ts';
import { signalBoard } from './board-repository.ts';
import { clockTime, demandOf } from './order-legs.ts';
import { stopsOfOrder } from './plan-stops.ts';
import * as repo from './repository.ts';
import type { RoadNetwork, StraightLineSettings } from './roads.ts';
import type { Point } from './solver/types.ts';

/** Minutes a one-order route plans at each of its stops (route building's default service time). */
export const ONE_ORDER_SERVICE_MINUTES = 5;
/** The last second of a day: a route's planned times are clock times of its day. */
const LAST_SECOND = 24 * 3600 - 1;

/**
 * A route of one order for one driver, leaving now from where the driver is (an instant rider:
 * no depot, no shift): its stops are the order's legs (pickup first for P2P), each reached over
 * the business's road network and left after the service time. The route ends at its last stop:
 * there is no return leg, so its distance is from the driver's position through the stops, and
 * its return time the departure from the last stop (both capped at the day's last second). It is
 * locked, so a rebuild of the day leaves it alone. The order becomes PLANNED on it, and the live
 * dispatch boards hear of the new route.
 */
export async function createOneOrderRoute(
  ctx: OperationContext,
  deps: {
    clock: Clock;
    accounts: AccountsService;
    orders: OrdersService;
    roads: RoadNetwork;
    straightLine: StraightLineSettings;
  },
  input: { driverId: number; orderId: number; from: Point },
): Promise<number> {
  const businessId = businessOf(ctx);
  const [order] = await deps.orders.queries.views(ctx.db, businessId, [input.orderId]);
  const stops = stopsOfOrder(order!);
  const local = await deps.accounts.localDateTimeOf(ctx.db, businessId, deps.clock.now());
  const date = local.slice(0, 10);
  const [hours = 0, minutes = 0, secs = 0] = local.slice(11).split(':').map(Number);
  const departure = hours * 3600 + minutes * 60 + secs;
  const travel = await deps.roads.matrix({
    businessId,
    date,
    points: [input.from, ...stops.map((stop) => stop.location)],
    straightLine: deps.straightLine,
  });
  let at = departure;
  let meters = 0;
  const timed = stops.map((stop, index) => {
    meters += travel.meters[index]![index + 1]!;
    const arrival = Math.min(at + travel.seconds[index]![index + 1]!, LAST_SECOND);
    at = Math.min(arrival + ONE_ORDER_SERVICE_MINUTES * 60, LAST_SECOND);
    return {
      order_id: stop.orderId,
      leg: stop.leg,
      sequence: index + 1,
      planned_arrival: clockTime(arrival),
      planned_departure: clockTime(at),
    };
  });
  const load = demandOf(order!);
  const [routeId] = await repo.insertRoutes(ctx.db, [
    {
      route: {
        business_id: businessId,
        driver_user_id: input.driverId,
        // No depot: it leaves from where the rider is and ends at its last stop.
        depot_id: null,
        route_date: date,
        distance_meters: Math.round(meters),
        departure: clockTime(departure),
        return_time: clockTime(at),
        created_at: deps.clock.now(),
        distance_source: travel.source,
        load_weight_grams: load.weightGrams,
        load_volume_cm3: load.volumeCm3,
        load_count: load.count,
        // Promised to its driver: a rebuild of the day leaves it as it is.
        locked: true,
      },
      stops: timed,
    },
  ]);
  await deps.orders.changes.planOnRoute(ctx, businessId, input.orderId, {
    id: routeId!,
    driverId: input.driverId,
  });
  await signalBoard(ctx.db, businessId, { routeIds: [routeId!], orderIds: [input.orderId] });
  return routeId!;
}
