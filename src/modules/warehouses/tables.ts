import type { Generated } from 'kysely';
import type { OpeningHours } from '../../platform/schemas.ts';

export const LOCATION_KINDS = ['zone', 'aisle', 'bin', 'staging_lane'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];
/** Where a package stands in the warehouse flow (docs/warehouses.md). */
export const PACKAGE_STATES = ['received', 'stored', 'sorted', 'loaded', 'dispatched'] as const;
export type PackageState = (typeof PACKAGE_STATES)[number];

export interface WarehousesTables {
  warehouses: {
    id: Generated<number>;
    business_id: number;
    code: string;
    name: string;
    line1: string;
    postal_code: string | null;
    city: string | null;
    country: string | null;
    lat: number | null;
    lng: number | null;
    time_zone: string;
    opening_hours: OpeningHours;
    depot_id: number | null;
    postal_prefixes: string[];
    created_at: Date;
  };
  warehouse_locations: {
    id: Generated<number>;
    business_id: number;
    warehouse_id: number;
    code: string;
    kind: LocationKind;
    capacity: number;
    occupied: Generated<number>;
  };
  warehouse_staff: {
    business_id: number;
    warehouse_id: number;
    user_id: number;
    granted_by: number | null;
    granted_at: Date;
  };
  warehouse_packages: {
    package_id: number;
    business_id: number;
    warehouse_id: number;
    order_id: number;
    tracking_number: string;
    state: PackageState;
    location_id: number | null;
    route_id: number | null;
    home_warehouse_id: number | null;
    received_at: Date;
    last_movement_id: number;
    updated_at: Date;
  };
  warehouse_stock: {
    id: Generated<number>;
    business_id: number;
    warehouse_id: number;
    location_id: number | null;
    customer_user_id: number;
    sku: string;
    quantity: number;
    updated_at: Date;
  };
  warehouse_movements: {
    id: Generated<number>;
    business_id: number;
    warehouse_id: number;
    package_id: number | null;
    sku: string | null;
    quantity: number | null;
    action: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    transfer_id: number | null;
    /** The scanning device's id of a stock scan: one move per scan id and warehouse. */
    scan_id: string | null;
    actor_user_id: number | null;
    door: string;
    at: Date;
  };
  warehouse_route_lanes: {
    business_id: number;
    warehouse_id: number;
    route_id: number;
    route_date: string;
    location_id: number;
  };
  warehouse_outbounds: {
    business_id: number;
    route_id: number;
    warehouse_id: number;
    extra: string[];
    dispatched_at: Date | null;
    dispatched_by: number | null;
  };
  warehouse_transfers: {
    id: Generated<number>;
    business_id: number;
    from_warehouse_id: number;
    to_warehouse_id: number;
    package_ids: number[];
    note: string | null;
    created_by: number | null;
    created_at: Date;
    door: string;
    rolled_back_at: Date | null;
    rolled_back_by: number | null;
  };
}
