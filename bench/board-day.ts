import { sql } from 'kysely';
import { formatLocalDateTime } from '../src/platform/clock.ts';
import type { Db } from '../src/platform/db/database.ts';
import type { Services } from '../src/services.ts';
import { benchBusiness } from './day.ts';

/**
 * A time zone where it is about `hour` o'clock now, whatever the hour a bench runs at: at 13 the
 * morning's windows ended and the afternoon's not yet; at 9 the working hours lie ahead.
 */
export function timeZoneAt(hour: number): string {
  const ahead = (((hour - new Date().getUTCHours()) % 24) + 24) % 24;
  const offset = ahead > 12 ? ahead - 24 : ahead;
  return offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/**
 * A day under way, loaded in SQL (setup only), for the benches of the dispatch board, its console
 * and the working day: one business, `routes` drivers at one depot, each with a started route of
 * `stops` orders out for delivery in Paris (with `windows`, the default, windows spread over the
 * day, so some ended; without, none), `positions` reported positions a driver and `waiting`
 * orders on no route. With
 * `adminPassword`, the client admin signs in with it (the console's form) as well as by token.
 */
export async function loadStartedDay(
  accounts: Services['accounts'],
  db: Db,
  options: {
    routes: number;
    stops: number;
    positions: number;
    waiting: number;
    timeZone: string;
    windows?: boolean;
    adminPassword?: string;
  },
): Promise<{
  businessId: number;
  today: string;
  admin: string;
  drivers: Array<{ id: number; token: string }>;
}> {
  const { routes: ROUTES, stops: STOPS, positions: POSITIONS, waiting: WAITING } = options;
  const ORDERS = ROUTES * STOPS;
  const today = formatLocalDateTime(new Date(), options.timeZone).slice(0, 10);
  const { businessId, admin, drivers } = await benchBusiness(accounts, db, {
    drivers: ROUTES,
    timeZone: options.timeZone,
  });
  if (options.adminPassword !== undefined) {
    const hash = await accounts.hashPassword(options.adminPassword);
    await sql`
      UPDATE users SET password_hash = ${hash}
      WHERE business_id = ${businessId} AND kind = 'client_admin'`.execute(db);
  }
  const driverIds = drivers.map((driver) => driver.id);
  // Orders 1..ORDERS on the routes, out for delivery; the rest waiting.
  await sql`
    INSERT INTO orders (business_id, order_ref, family, type, status, scheduled_date, window_start, window_end,
                        dropoff, created_at, updated_at)
    SELECT ${businessId}, 'B' || i, 'local_delivery', 'D',
           CASE WHEN i <= ${ORDERS} THEN 'OUT_FOR_DELIVERY' ELSE 'NEW_ORDER' END, ${today}::date,
           CASE WHEN ${options.windows ?? true} THEN make_time(8 + i % 10, 0, 0) END,
           CASE WHEN ${options.windows ?? true} THEN make_time(10 + i % 10, 0, 0) END,
           jsonb_build_object('name', 'Customer ' || i, 'phone', '+33 1 00 00 ' || i, 'line1', i || ' Rue de Bercy',
                              'postal_code', '75012', 'city', 'Paris',
                              'lat', 48.76 + ((i * 7919) % 1000) / 5000.0, 'lng', 2.22 + ((i * 104729) % 1000) / 3600.0),
           now(), now()
    FROM generate_series(1, ${ORDERS + WAITING}) AS i`.execute(db);
  await sql`
    INSERT INTO packages (business_id, order_id, tracking_number, weight_grams)
    SELECT ${businessId}, o.id, 'BD' || lpad(substr(o.order_ref, 2), 9, '0'), 1500
    FROM orders o WHERE o.business_id = ${businessId}`.execute(db);
  await sql`
    INSERT INTO routes (business_id, driver_user_id, route_date, distance_meters, departure, return_time, created_at,
                        status, started_at, load_count, depot_id)
    SELECT ${businessId}, d, ${today}::date, 40000, '08:00', '17:00', now(), 'started', now(), ${STOPS},
           (SELECT depot_id FROM driver_profiles p WHERE p.business_id = ${businessId} AND p.user_id = d)
    FROM unnest(${sql.val(driverIds)}::bigint[]) AS d`.execute(db);
  await sql`
    WITH r AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM routes WHERE business_id = ${businessId}),
         o AS (SELECT id, substr(order_ref, 2)::int - 1 AS k FROM orders
               WHERE business_id = ${businessId} AND substr(order_ref, 2)::int <= ${ORDERS})
    INSERT INTO route_stops (business_id, route_id, sequence, order_id, leg, planned_arrival, planned_departure)
    SELECT ${businessId}, r.id, o.k / ${ROUTES} + 1, o.id, 'delivery',
           make_time(8 + (o.k / ${ROUTES}) * 25 / 60, (o.k / ${ROUTES}) * 25 % 60, 0),
           make_time(8 + ((o.k / ${ROUTES}) * 25 + 5) / 60, ((o.k / ${ROUTES}) * 25 + 5) % 60, 0)
    FROM o JOIN r ON r.n = o.k % ${ROUTES}`.execute(db);
  await sql`
    UPDATE orders o SET route_id = s.route_id, driver_user_id = r.driver_user_id
    FROM route_stops s JOIN routes r ON r.id = s.route_id WHERE s.order_id = o.id`.execute(db);
  await sql`
    INSERT INTO driver_positions (business_id, driver_user_id, route_id, lat, lng, accuracy_meters, device_time, received_at)
    SELECT ${businessId}, r.driver_user_id, r.id, 48.8 + p / 1000.0, 2.3 + p / 1000.0, 10,
           now() - (p || ' minutes')::interval, now()
    FROM routes r CROSS JOIN generate_series(1, ${POSITIONS}) AS p WHERE r.business_id = ${businessId}`.execute(
    db,
  );
  await sql`VACUUM ANALYZE`.execute(db);
  return { businessId, today, admin, drivers };
}
