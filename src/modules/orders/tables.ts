import type { Generated } from 'kysely';
import type { OrderFamily, OrderType } from './schemas.ts';
import type { OrderStatus } from './statuses.ts';

export interface Address {
  name?: string;
  phone?: string;
  line1: string;
  line2?: string;
  city?: string;
  postal_code?: string;
  country?: string;
  lat?: number;
  lng?: number;
}

export interface OrdersTables {
  return_reasons: {
    business_id: number;
    code: string;
    /** The label in each language the business wrote it in (BCP 47 tag -> text). */
    labels: Record<string, string>;
    photo_required: boolean;
    updated_at: Date;
  };
  order_settings: { business_id: number; tracking_prefix: string };
  orders: {
    id: Generated<number>;
    business_id: number;
    order_ref: string;
    family: OrderFamily;
    type: OrderType | null;
    status: OrderStatus;
    scheduled_date: string | null;
    window_start: string | null;
    window_end: string | null;
    pickup: Address | null;
    dropoff: Address | null;
    customer_user_id: number | null;
    note: string | null;
    delivery_instruction: string | null;
    required_skills: string[];
    carrier: string | null;
    currency: string | null;
    shipping_price_minor: number | null;
    tax_minor: number | null;
    surcharges: Array<{ code: string; amount_minor: number }> | null;
    price_details: Array<{ label: string; amount_minor: number }> | null;
    rerouted_from: number | null;
    /** `third_party:<connection id>` for an order a delivery provider handed over; null otherwise. */
    origin: string | null;
    /** Offered to the nearest online riders at creation (the riders module), instead of waiting to be planned. */
    instant: boolean;
    route_id: number | null;
    driver_user_id: number | null;
    created_at: Date;
    updated_at: Date;
  };
  packages: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    tracking_number: string;
    weight_grams: number | null;
    length_mm: number | null;
    width_mm: number | null;
    height_mm: number | null;
    description: string | null;
  };
  order_events: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    at: Date;
    actor_user_id: number | null;
    source: string;
    action: string;
    changes: Record<string, { from: unknown; to: unknown }>;
  };
}
