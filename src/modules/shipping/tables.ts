import type { Generated } from 'kysely';
import type { Surcharge } from './carriers/rate-card.ts';

export interface ShippingTables {
  shipping_carriers: {
    id: Generated<number>;
    business_id: number;
    code: string;
    name: string;
    kind: string;
    rate_card: unknown;
    /** Bumped by every change (the default 1 on creation). */
    version: Generated<number>;
    active: boolean;
    created_at: Date;
    updated_at: Date;
  };
  shipping_labels: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    package_id: number;
    tracking_number: string;
    carrier_id: number;
    carrier_code: string;
    carrier_name: string;
    service_code: string;
    service_name: string;
    carrier_reference: string;
    rate_id: string;
    zone: string;
    transit_days: number;
    billable_weight_grams: number;
    currency: string;
    price_minor: number;
    surcharges: Surcharge[];
    tax_minor: number;
    total_minor: number;
    pdf: Buffer;
    document_id: string | null;
    document_sha256: string;
    created_at: Date;
  };
}
