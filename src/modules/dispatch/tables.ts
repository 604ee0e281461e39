import type { Generated } from 'kysely';

export interface DispatchTables {
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
    driver_user_id: number;
    route_date: string;
    distance_meters: number;
    departure: string;
    return_time: string;
    created_at: Date;
  };
  route_stops: {
    route_id: number;
    sequence: number;
    order_id: number;
    /** Which leg of the order: a P2P order has both, on the same route, pickup first. */
    leg: 'pickup' | 'delivery';
    planned_arrival: string;
    planned_departure: string;
  };
}
