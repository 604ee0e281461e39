import type { Generated } from 'kysely';

export interface OcrTables {
  label_orders: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    /** The carrier tracking numbers read off the label, normalised (upper case, no spaces). */
    tracking_numbers: string[];
    /** The creator's own id of the call: the same one again answers the first order. */
    client_id: string | null;
    created_by: number;
    created_at: Date;
  };
}
