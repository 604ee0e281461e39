import type { Generated } from 'kysely';
import type { OpeningHours } from '../../platform/schemas.ts';

export const POI_CATEGORIES = ['depot', 'hub', 'locker', 'customer_site', 'other'] as const;
export type PoiCategory = (typeof POI_CATEGORIES)[number];

export interface AddressesTables {
  points_of_interest: {
    id: Generated<number>;
    business_id: number;
    name: string;
    category: PoiCategory;
    line1: string;
    postal_code: string | null;
    city: string | null;
    country: string | null;
    lat: number;
    lng: number;
    opening_hours: OpeningHours;
    notes: string | null;
    search_text: Generated<string>;
    created_at: Date;
    updated_at: Date;
  };
  saved_addresses: {
    id: Generated<number>;
    business_id: number;
    /** Null: the business's own address book; else a customer account's. */
    customer_user_id: number | null;
    label: string;
    contact_name: string | null;
    phone: string | null;
    line1: string;
    line2: string | null;
    postal_code: string | null;
    city: string | null;
    country: string | null;
    lat: number | null;
    lng: number | null;
    delivery_notes: string | null;
    /** Lower-cased text of the whole address, kept by PostgreSQL, for the trigram search. */
    search_text: Generated<string>;
    created_at: Date;
    updated_at: Date;
  };
}
