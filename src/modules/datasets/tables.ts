import type { Generated } from 'kysely';

/** What a field of a dataset holds; docs/datasets.md gives each one's JSON form. */
export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'address', 'geo_point', 'enum'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * How a record's point was found: `none` (no location value), `provided` (the caller gave the
 * coordinates), `geocoded` (the geocoder placed the address), `not_found` (the geocoder does not
 * know it), `pending` (the business's own data did not know it; the public geocoder is asked in
 * the background), `unavailable` (no geocoder, or it failed: the record is kept, unplaced).
 */
export const GEOCODING_STATUSES = [
  'none',
  'provided',
  'geocoded',
  'pending',
  'not_found',
  'unavailable',
] as const;
export type GeocodingStatus = (typeof GEOCODING_STATUSES)[number];

/** One declared field of a dataset. */
export interface FieldSpec {
  name: string;
  label?: string;
  type: FieldType;
  required: boolean;
  /** The allowed values of an enum field. */
  values?: string[];
}

export interface DatasetsTables {
  dataset_groups: {
    id: Generated<number>;
    business_id: number;
    name: string;
    description: string | null;
    created_at: Date;
    updated_at: Date;
  };
  datasets: {
    id: Generated<number>;
    business_id: number;
    group_id: number | null;
    name: string;
    description: string | null;
    fields: FieldSpec[];
    created_at: Date;
    updated_at: Date;
  };
  dataset_records: {
    id: Generated<number>;
    business_id: number;
    dataset_id: number;
    data: Record<string, unknown>;
    search_text: string;
    address_text: string | null;
    lat: number | null;
    lng: number | null;
    geocoding_status: GeocodingStatus;
    geocoding_provider: string | null;
    geocoding_confidence: number | null;
    /** The import that wrote the record (a digest of its file or list) and its row there, from 0. */
    import_key: string | null;
    import_row: number | null;
    created_at: Date;
    updated_at: Date;
  };
}
