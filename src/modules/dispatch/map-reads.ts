import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import { driverIdsOf, routeDriver } from './schemas.ts';
import type { DispatchTables, DriverWorkTables, StopStatus } from './tables.ts';

// What a map draws of dispatch: the depots, a day's routes (stops where their orders are, and the
// line the driver follows) and the drivers' last positions. Read for any caller the maps module
// serves; it decides what each caller may see.

type Db = Queryable<DispatchTables & DriverWorkTables>;
export interface MapPoint {
  lat: number;
  lng: number;
}

export interface MapStop extends MapPoint {
  sequence: number;
  order_id: number;
  leg: 'pickup' | 'delivery';
  status: StopStatus;
  planned_arrival: string;
}

export interface MapRoute {
  id: number;
  /** null while the route is open on a fleet's route board. */
  driver: { id: number; name: string } | null;
  status: string;
  departure: string;
  /** Where the route leaves from and comes back to: its own depot (none for a one-order route). */
  depot: MapPoint | null;
  /** The stops that have a point, in sequence (a stop whose order lost its coordinates is left out). */
  stops: MapStop[];
}

export class DispatchMapReads {
  constructor(
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
  ) {}

  depots(db: Db, businessId: number) {
    return repo.depotsOf(db, businessId);
  }

  /** The business's routes of a date with their stops placed, at most `limit` routes. */
  async routes(db: Db, businessId: number, date: string, limit: number): Promise<MapRoute[]> {
    const rows = (await repo.routesOf(db, businessId, { date })).slice(0, limit);
    const stops = await repo.stopsOf(
      db,
      rows.map((row) => row.id),
    );
    const orders = new Map(
      (await this.orders.queries.views(db, businessId, [...new Set(stops.map((stop) => stop.order_id))])).map(
        (order) => [order.id, order],
      ),
    );
    const names = await this.accounts.namesOf(db, driverIdsOf(rows));
    const depots = new Map((await repo.depotsOf(db, businessId)).map((depot) => [depot.id, depot]));
    return rows.map((row) => {
      // The route's own depot, whoever drives it now (an open one keeps the one it was built from).
      const depot = row.depot_id === null ? undefined : depots.get(row.depot_id);
      return {
        id: row.id,
        driver: routeDriver(row.driver_user_id, names),
        status: row.status,
        departure: row.departure.slice(0, 5),
        depot: depot ? { lat: depot.lat, lng: depot.lng } : null,
        stops: stops
          .filter((stop) => stop.route_id === row.id)
          .flatMap((stop) => {
            const order = orders.get(stop.order_id);
            // A locker drop is made at its locker site, not at the order's address.
            const place = stop.locker?.address ?? (stop.leg === 'pickup' ? order?.pickup : order?.dropoff);
            if (place?.lat === undefined || place?.lng === undefined) return [];
            return [
              {
                sequence: stop.sequence,
                order_id: stop.order_id,
                leg: stop.leg,
                status: stop.status,
                planned_arrival: stop.planned_arrival.slice(0, 5),
                lat: place.lat,
                lng: place.lng,
              },
            ];
          }),
      };
    });
  }

  /**
   * Each driver's last position reported since `since` (the newest by the phone's clock), with
   * the driver's name, at most `limit` drivers.
   */
  async lastPositions(db: Db, businessId: number, since: Date, limit: number) {
    const rows = await db
      .selectFrom('driver_positions')
      .select(['driver_user_id', 'route_id', 'lat', 'lng', 'accuracy_meters', 'device_time'])
      .distinctOn('driver_user_id')
      .where('business_id', '=', businessId)
      .where('device_time', '>=', since)
      .orderBy('driver_user_id')
      .orderBy(sql`device_time`, 'desc')
      .limit(limit)
      .execute();
    const names = await this.accounts.namesOf(
      db,
      rows.map((row) => row.driver_user_id),
    );
    return rows.map((row) => ({
      driver: { id: row.driver_user_id, name: names.get(row.driver_user_id) ?? '' },
      route_id: row.route_id,
      lat: row.lat,
      lng: row.lng,
      accuracy_meters: row.accuracy_meters,
      at: row.device_time,
    }));
  }
}
