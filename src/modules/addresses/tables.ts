import type { Generated } from 'kysely';

export interface AddressesTables {
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
