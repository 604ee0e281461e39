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
  /** Absent: label images are never kept. */
  label_reading_settings: {
    business_id: number;
    /** 0: never; else how many days an image sent with create_order_from_label is kept. */
    keep_label_images_days: number;
    updated_at: Date;
  };
  label_images: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    /** Where the bytes are in the file storage: random, never shown to anyone. */
    storage_key: string;
    content_type: string;
    size_bytes: number;
    created_at: Date;
    expires_at: Date;
  };
}
