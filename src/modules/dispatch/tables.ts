import type { Generated } from 'kysely';
import type { Address } from '../orders/index.ts';

export const ROUTE_STATUSES = ['planned', 'started', 'finished'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const STOP_STATUSES = ['pending', 'arrived', 'done', 'failed'] as const;
export type StopStatus = (typeof STOP_STATUSES)[number];
/** Where a delivery is made: at the customer's door, or in a parcel locker at a locker site. */
export const STOP_KINDS = ['door', 'locker'] as const;
export type StopKind = (typeof STOP_KINDS)[number];
/** What a locker reservation does to the order's open delivery stop on a route (docs/lockers.md). */
export const LOCKER_RESERVATION_RULES = ['drop_at_locker', 'take_off_route'] as const;
export type LockerReservationRule = (typeof LOCKER_RESERVATION_RULES)[number];

/** The locker site a locker drop goes to, as the stop keeps it. */
export interface LockerPlace {
  site_id: number;
  booking_id: number;
  name: string;
  /** The site's address, placed: a drop is timed there. */
  address: Omit<Address, 'name' | 'phone'> & { lat: number; lng: number };
}

export interface DispatchTables {
  /** How the business plans (defaults in DEFAULT_DISPATCH_SETTINGS until it saves its own). */
  dispatch_settings: {
    business_id: number;
    preparation_minutes: number;
    circuity_factor: number;
    average_speed_kmh: number;
    locker_reservation: LockerReservationRule;
    updated_at: Date;
  };
  depots: { id: Generated<number>; business_id: number; name: string; lat: number; lng: number };
  driver_profiles: {
    user_id: number;
    business_id: number;
    depot_id: number | null;
    vehicle_type: string;
    capacity_weight_grams: number;
    capacity_volume_cm3: number;
    capacity_count: number;
    shift_start: string;
    shift_end: string;
    skills: string[];
    available: boolean;
    /** Drives for this contractor company; null for the business's own fleet. */
    contractor_company_id: number | null;
  };
  routes: {
    id: Generated<number>;
    business_id: number;
    /** null while the route is open on a fleet's route board (docs/route-board.md). */
    driver_user_id: number | null;
    route_date: string;
    distance_meters: number;
    departure: string;
    return_time: string;
    created_at: Date;
    /** planned, then started by its driver, then finished. */
    status: Generated<RouteStatus>;
    /** A locked route is left as it is by a rebuild. */
    locked: Generated<boolean>;
    started_at: Date | null;
    finished_at: Date | null;
    /** Where the plan's distances and times came from: a routing engine, or straight lines. */
    distance_source: Generated<string>;
    /** The most the route carries at once, per dimension. */
    load_weight_grams: Generated<number>;
    load_volume_cm3: Generated<number>;
    load_count: Generated<number>;
    /** Moves with every change of the route's plan (plan-versions.ts): what a stale view is told by. */
    plan_version: Generated<number>;
    /**
     * Where it leaves from and comes back to, fixed when it is built (its driver's shift depot
     * that day, else the profile's) and moved by a change of driver; null for a one-order route.
     */
    depot_id: number | null;
  };
  route_stops: {
    business_id: number;
    route_id: number;
    sequence: number;
    order_id: number;
    /** Which leg of the order: a P2P order has both, on the same route, pickup first. */
    leg: 'pickup' | 'delivery';
    planned_arrival: string;
    planned_departure: string;
    /** What happened there: pending, the driver arrived, the leg was done, or it failed. */
    status: Generated<StopStatus>;
    arrived_at: Date | null;
    completed_at: Date | null;
    /** A door delivery, or a drop at the locker site `locker` names (set by a locker reservation). */
    kind: Generated<StopKind>;
    locker: Generated<LockerPlace | null>;
  };
}

/** What the driver's phone sends: each write kept with its first answer, and positions along a route. */
export interface DriverWorkTables {
  driver_writes: {
    driver_user_id: number;
    /** Given by the phone, so that a write sent again after losing signal is applied once. */
    client_id: string;
    business_id: number;
    operation: string;
    route_id: number;
    order_id: number | null;
    leg: 'pickup' | 'delivery' | null;
    /** The first answer, which every replay answers; null while the first call runs. */
    answer: unknown;
    created_at: Date;
  };
  driver_positions: {
    id: Generated<number>;
    business_id: number;
    driver_user_id: number;
    route_id: number;
    /** The order whose stop was completed there, for the position a completion reports. */
    order_id: number | null;
    lat: number;
    lng: number;
    accuracy_meters: number | null;
    device_time: Date;
    received_at: Date;
  };
}

/**
 * The dispatch board's version of each business: changes folded into a counter, and those not
 * folded yet, one row each (board-repository.ts, signalBoard and readVersion).
 */
export interface BoardVersionTables {
  dispatch_board_versions: { business_id: number; folded: Generated<number> };
  dispatch_board_changes: { business_id: number; id: Generated<number> };
}

/** Plan edits: the business's vehicles, and the one a route drives instead of its driver's profile. */
export interface PlanEditTables {
  vehicles: {
    id: Generated<number>;
    business_id: number;
    name: string;
    vehicle_type: string;
    capacity_weight_grams: number;
    capacity_volume_cm3: number;
    capacity_count: number;
    active: boolean;
  };
  routes: {
    /** null: the capacity of the driver's profile. */
    vehicle_id: Generated<number | null>;
  };
}
