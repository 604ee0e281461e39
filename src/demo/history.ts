import type { OrderInput } from '../modules/orders/index.ts';
import type { ManualClock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Services } from '../services.ts';
import { DEMO_SEARCH_MS, demoContext, localTime, shiftDate } from './context.ts';

export interface HistoryServices {
  services: Services;
  clock: ManualClock;
}

/** The days of history before today, so yesterday's digest has the same weekday a week before to compare with. */
export const HISTORY_DAYS = 14;
const INCIDENTS = ['recipient_absent', 'address_not_found', 'refused'] as const;
/** Days back whose orders were planned on routes: yesterday and the same weekday a week before. */
const ROUTED_DAYS = [1, 8];

/** How a past order's day ended. */
type Outcome =
  | { kind: 'cancelled' }
  | { kind: 'delivered'; late: boolean; minute: number }
  | { kind: 'failed'; reason: (typeof INCIDENTS)[number]; minute: number; returned: boolean };

type Move = Parameters<Services['orders']['changes']['advanceAt']>[1][number];

/**
 * Two weeks of finished work before today, yesterday's included, stamped at the moments it
 * happened: each day's orders created at 07:00, delivered in or out of their windows, a few
 * failed attempts (some returned), one cancelled. Yesterday and the same weekday a week before
 * were planned on routes at 07:30 and driven: their routes are finished, every stop done or
 * failed (workPastRoutes). The other days' orders change in one set-based batch.
 */
export async function seedHistory(
  db: Queryable,
  services: Services,
  past: HistoryServices,
  input: { businessId: number; adminId: number },
  today: string,
  delivery: (n: number, date: string, extra?: Partial<OrderInput>) => OrderInput,
) {
  const timeZone = await services.accounts.timeZoneOf(db, input.businessId);
  const ctx = demoContext(db, past.clock, {
    userId: input.adminId,
    kind: 'client_admin',
    businessId: input.businessId,
  });
  const at = (day: string, minutes: number) => localTime(day, minutes, timeZone);
  const days = Array.from({ length: HISTORY_DAYS }, (_, n) => {
    const back = HISTORY_DAYS - n;
    const day = shiftDate(today, -back);
    // Yesterday and the same weekday a week before hold more, for a digest worth reading.
    const count = back % 7 === 1 ? 8 : 4;
    const history = Array.from({ length: count }, (_, n) => ({
      ...delivery(n, day),
      order_ref: `HIST-${day.replaceAll('-', '')}-${String(n).padStart(3, '0')}`,
    }));
    // Yesterday also holds the DEMO- orders a newcomer finds beside today's: delivered, one failed.
    const demo = back === 1 ? Array.from({ length: 6 }, (_, n) => delivery(n, day)) : [];
    return { back, day, history, demo };
  });
  const created = await services.orders.intake.createMany(
    ctx,
    days.flatMap(({ day, history, demo }) =>
      [...history, ...demo].map((order) => ({ input: order, at: at(day, 7 * 60) })),
    ),
  );

  const outcomes = new Map<number, Outcome>();
  const dayOf = new Map<number, { back: number; day: string }>();
  let next = 0;
  for (const { back, day, history, demo } of days) {
    for (const n of history.keys()) {
      const orderId = created[next++]!.id;
      dayOf.set(orderId, { back, day });
      if ((n + back) % 11 === 10) outcomes.set(orderId, { kind: 'cancelled' });
      else if ((n + back) % 5 === 3) {
        const reason = INCIDENTS[(n + back) % INCIDENTS.length]!;
        outcomes.set(orderId, { kind: 'failed', reason, minute: 11 * 60 + n, returned: n % 2 === 1 });
      } else {
        const late = (n + back) % 6 === 1;
        outcomes.set(orderId, { kind: 'delivered', late, minute: deliveryMinute(n, late) });
      }
    }
    for (const n of demo.keys()) {
      const orderId = created[next++]!.id;
      dayOf.set(orderId, { back, day });
      outcomes.set(
        orderId,
        n === 5
          ? { kind: 'failed', reason: 'recipient_absent', minute: 11 * 60 + 45, returned: false }
          : { kind: 'delivered', late: false, minute: deliveryMinute(n, false) },
      );
    }
  }

  for (const { back, day } of days) {
    if (!ROUTED_DAYS.includes(back)) continue;
    past.clock.set(at(day, 7 * 60 + 30));
    await past.services.dispatch.buildRoutes(ctx, {
      date: day,
      service_minutes: 5,
      time_limit_ms: DEMO_SEARCH_MS,
    });
  }
  // Cancelled before the vans left; the orders of days without routes went their way in a batch.
  const moves: Move[] = [];
  for (const [orderId, outcome] of outcomes) {
    const { back, day } = dayOf.get(orderId)!;
    if (outcome.kind === 'cancelled') {
      moves.push({ orderId, to: 'CANCELLED', at: at(day, 7 * 60 + 45) });
      continue;
    }
    if (ROUTED_DAYS.includes(back)) continue;
    moves.push({ orderId, to: 'PICKED_UP', at: at(day, 8 * 60 + 30) });
    if (outcome.kind === 'delivered') moves.push({ orderId, to: 'DELIVERED', at: at(day, outcome.minute) });
    else {
      moves.push({
        orderId,
        to: 'FAILED_ATTEMPT',
        at: at(day, outcome.minute),
        details: { incident_reason: { code: outcome.reason } },
      });
    }
  }
  await services.orders.changes.advanceAt(ctx, moves);
  for (const { back, day } of days) {
    if (ROUTED_DAYS.includes(back)) await workPastRoutes(db, past, input, day, at, outcomes);
  }
  // Failed parcels refused by their recipients came back to the depot in the evening.
  const returns: Move[] = [];
  for (const [orderId, outcome] of outcomes) {
    if (outcome.kind !== 'failed' || !outcome.returned) continue;
    const returned = at(dayOf.get(orderId)!.day, 19 * 60);
    returns.push({ orderId, to: 'RETURNED', at: returned, details: { return_reason: { code: 'refused' } } });
  }
  await services.orders.changes.advanceAt(ctx, returns);
}

/**
 * A past day's routes as their drivers worked them, through the drivers' own operations, so the
 * routes, the orders' statuses and their tracking agree: started at the planned departure, each
 * stop reached at its planned arrival (or as late as the day has run) and completed three minutes
 * later, delivered or failed as its outcome says, the route
 * finished at its planned return as late as the day had run.
 */
async function workPastRoutes(
  db: Queryable,
  past: HistoryServices,
  input: { businessId: number; adminId: number },
  day: string,
  at: (day: string, minutes: number) => Date,
  outcomes: ReadonlyMap<number, Outcome>,
) {
  const { dispatch, driverWork } = past.services;
  const admin = demoContext(db, past.clock, {
    userId: input.adminId,
    kind: 'client_admin',
    businessId: input.businessId,
  });
  const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  for (const route of await dispatch.routes(admin, { date: day })) {
    if (!route.driver || route.stops.length === 0) continue;
    const driver = demoContext(db, past.clock, {
      userId: route.driver.id,
      kind: 'driver',
      businessId: input.businessId,
    });
    let write = 0;
    const as = (minute: number) => {
      const moment = at(day, minute);
      past.clock.set(moment);
      return {
        route_id: route.id,
        client_id: `demo-${route.id}-${write++}`,
        device_time: moment.toISOString(),
      };
    };
    let minute = minutesOf(route.departure);
    await driverWork.start(driver, as(minute));
    let delay = 0;
    for (const stop of [...route.stops].sort((a, b) => a.sequence - b.sequence)) {
      const outcome = outcomes.get(stop.order_id);
      if (!outcome || outcome.kind === 'cancelled' || stop.status !== 'pending') continue;
      // A van held up 40 minutes before a stop the history has as late: the rest of its day too.
      if (outcome.kind === 'delivered' && outcome.late) delay += 40;
      minute = Math.max(minute + 2, minutesOf(stop.planned_arrival) + delay);
      await driverWork.arrive(driver, { ...as(minute), order_id: stop.order_id, leg: stop.leg });
      minute += 3;
      await driverWork.complete(driver, {
        ...as(minute),
        order_id: stop.order_id,
        leg: stop.leg,
        ...(outcome.kind === 'failed'
          ? { outcome: 'failed' as const, reason: { code: outcome.reason } }
          : { outcome: 'delivered' as const, recipient: 'At the door' }),
      });
    }
    await driverWork.finish(driver, as(Math.max(minute + 10, minutesOf(route.return_time) + delay)));
  }
}

/** The minute of the day an order numbered n is delivered: in its window (see delivery()) unless late. */
function deliveryMinute(n: number, late: boolean): number {
  // Windows 09:00-12:00 (n % 3 = 0), 13:00-18:00 (n % 3 = 1) or none.
  if (n % 3 === 0) return late ? 12 * 60 + 25 : 9 * 60 + 20 + (n % 5) * 30;
  if (n % 3 === 1) return late ? 18 * 60 + 20 : 13 * 60 + 30 + (n % 5) * 45;
  return 10 * 60 + n * 12;
}
