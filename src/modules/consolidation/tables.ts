import type { Generated } from 'kysely';

export const PARCEL_STATES = ['announced', 'received', 'consolidated', 'shipped'] as const;
export type ParcelState = (typeof PARCEL_STATES)[number];
export const CONSOLIDATION_STATES = ['requested', 'shipped'] as const;
export type ConsolidationState = (typeof CONSOLIDATION_STATES)[number];

/** One line of a parcel's contents, as the customer declares it. */
export interface ParcelItem {
  description: string;
  quantity: number;
  /** Of the whole line, in major units. */
  value: number;
  currency: string;
  hs_code: string;
  origin_country: string;
}

export interface ConsolidationTables {
  forwarding_settings: {
    business_id: number;
    webhook_secret: string | null;
    free_storage_days: Generated<number>;
    storage_fee_minor: Generated<number>;
    currency: Generated<string>;
    updated_at: Date;
  };
  forwarding_suites: {
    id: Generated<number>;
    business_id: number;
    warehouse_id: number;
    customer_user_id: number;
    code: string;
    created_at: Date;
  };
  inbound_parcels: {
    id: Generated<number>;
    business_id: number;
    suite_id: number;
    customer_user_id: number;
    reference: string;
    carrier: string;
    tracking_number: string;
    state: ParcelState;
    items: ParcelItem[];
    weight_grams: number | null;
    length_mm: number | null;
    width_mm: number | null;
    height_mm: number | null;
    photo_urls: Generated<string[]>;
    received_at: Date | null;
    received_by: number | null;
    consolidation_id: number | null;
    left_at: Date | null;
    created_at: Date;
  };
  forwarding_pushes: {
    business_id: number;
    event_id: string;
    received_at: Date;
  };
  consolidations: {
    id: Generated<number>;
    business_id: number;
    customer_user_id: number;
    suite_id: number;
    state: ConsolidationState;
    parcel_ids: number[];
    dropoff: unknown;
    residential: boolean;
    package: {
      weight_grams: number;
      length_mm: number;
      width_mm: number;
      height_mm: number;
      packaging_id: number | null;
    };
    customs: unknown;
    order_id: number | null;
    tracking_number: string | null;
    carrier: string | null;
    service: string | null;
    created_at: Date;
    shipped_at: Date | null;
  };
}
