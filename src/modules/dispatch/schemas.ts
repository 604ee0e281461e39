import { z } from 'zod';
import { ROUTE_STATUSES, STOP_KINDS, STOP_STATUSES } from './tables.ts';

// The dispatch module's answers shared by its operations: a driver with their working profile, a route with its stops.

export const routeStatusSchema = z.enum(ROUTE_STATUSES).meta({ title: 'RouteStatus' });
export const stopStatusSchema = z.enum(STOP_STATUSES).meta({ title: 'StopStatus' });
/** What the driver does at a stop: a P2P order has both legs on one route, pickup first. */
export const stopLegSchema = z.enum(['pickup', 'delivery']).meta({ title: 'StopLeg' });
/** The three dimensions a vehicle, a driver's profile and a route's load are measured in. */
export const capacityDimensionSchema = z
  .enum(['weight_grams', 'volume_cm3', 'count'])
  .meta({ title: 'CapacityDimension' });
export const capacitySchema = z
  .object({ weight_grams: z.int(), volume_cm3: z.int(), count: z.int() })
  .meta({ title: 'Capacity' });
/** A capacity as callers give it (CapacityInput in the contract). */
export const capacityInput = z
  .object({
    weight_grams: z.int().positive().max(100_000_000),
    volume_cm3: z.int().positive().max(1_000_000_000),
    count: z.int().positive().max(10_000),
  })
  .meta({ title: 'Capacity' });

export const driverSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    email: z.string(),
    active: z.boolean(),
    profile: z
      .object({
        depot_id: z.int().nullable(),
        vehicle_type: z.string(),
        capacity: capacitySchema,
        shift: z.object({ start: z.string(), end: z.string() }),
        skills: z.array(z.string()),
        available: z.boolean(),
        contractor_company_id: z
          .int()
          .nullable()
          .describe("The contractor company it drives for; null: the business's own"),
      })
      .nullable()
      .describe('Vehicle, capacity, working hours and skills; null until set'),
  })
  .meta({ title: 'Driver' });

/** A route's driver; null while the route waits, open, on a fleet's route board. */
export const routeDriverSchema = z
  .object({ id: z.int(), name: z.string() })
  .meta({ title: 'RouteDriver' })
  .nullable()
  .describe("null while the route is open on a fleet's route board, waiting for a driver to claim it");

/** A route's driver as answers show it, from the names of the routes' drivers. */
export function routeDriver(driverId: number | null, names: ReadonlyMap<number, string>) {
  return driverId === null ? null : { id: driverId, name: names.get(driverId) ?? '' };
}

/** The drivers of these routes (a route open on a route board has none). */
export function driverIdsOf(rows: ReadonlyArray<{ driver_user_id: number | null }>): number[] {
  return rows.flatMap((row) => (row.driver_user_id === null ? [] : [row.driver_user_id]));
}

/** The version of a route's plan, which plan edits take as their precondition (plan-versions.ts). */
export const planVersionSchema = z
  .int()
  .describe(
    "Moves with every change of the route's plan (its stops and their order, lock, driver, vehicle); a plan edit sent with `expected_plan_version` is refused (CONCURRENT_UPDATE) when it moved since",
  );

/** A stop of a route: one leg of one order. */
export const stopSchema = z
  .object({
    sequence: z.int(),
    order_id: z.int(),
    leg: stopLegSchema.describe(
      'What the driver does there: a P2P order has both legs on one route, pickup first; a P order is a pickup, a D order a delivery',
    ),
    planned_arrival: z.string(),
    planned_departure: z.string(),
    status: stopStatusSchema.describe(
      'pending; arrived when the driver is at the door; done or failed once completed',
    ),
    arrived_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    kind: z
      .enum(STOP_KINDS)
      .describe(
        "door: at the order's own address; locker: a drop in a parcel locker at the site `locker` names, since a locker compartment was reserved for the order",
      ),
    locker: z
      .object({
        site_id: z.int(),
        booking_id: z.int(),
        name: z.string(),
        address: z.object({
          line1: z.string(),
          line2: z.string().optional(),
          city: z.string().optional(),
          postal_code: z.string().optional(),
          country: z.string().optional(),
          lat: z.number(),
          lng: z.number(),
        }),
      })
      .nullable()
      .describe('The locker site and booking of a locker drop; null at a door'),
  })
  .meta({ title: 'Stop' });

export const routeSchema = z
  .object({
    id: z.int(),
    date: z.string(),
    driver: routeDriverSchema,
    status: routeStatusSchema.describe(
      'planned; started when its driver sets off; finished when the driver ends it',
    ),
    locked: z.boolean().describe('A locked route is left as it is by a rebuild'),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    distance_meters: z.int(),
    distance_source: z
      .string()
      .describe("Where distances and times came from: 'straight_line' or a routing engine ('osrm')"),
    departure: z.string().describe('Planned departure from the depot, local time HH:MM'),
    return_time: z.string().describe('Planned return to the depot, local time HH:MM'),
    duration_minutes: z.int().describe('From departure to return'),
    load: capacitySchema.describe('The most the route carries at once, per dimension'),
    stops: z.array(stopSchema),
    plan_version: planVersionSchema,
    depot_id: z
      .int()
      .nullable()
      .describe(
        "Where the route leaves from and comes back to: its driver's fleet shift depot of the day when the shift names one, else the driver profile's, fixed when the route was built; a change of driver moves it to the new driver's. null: none (an instant rider's one-order route)",
      ),
  })
  .meta({ title: 'Route' });
