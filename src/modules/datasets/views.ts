import type { Selectable } from 'kysely';
import type { DatasetsTables } from './tables.ts';

export type DatasetRow = Selectable<DatasetsTables['datasets']>;
export type RecordRow = Selectable<DatasetsTables['dataset_records']>;

// How the datasets module answers its groups, datasets and records.

export const rounded = (score: number) => Math.round(score * 100) / 100;

export function groupView(
  row: Selectable<DatasetsTables['dataset_groups']> & { dataset_count: number | null },
) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    dataset_count: row.dataset_count ?? 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function datasetView(row: DatasetRow & { group_name: string | null; record_count: number | null }) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    group: row.group_id === null ? null : { id: row.group_id, name: row.group_name ?? '' },
    fields: row.fields.map((field) => ({
      name: field.name,
      label: field.label ?? null,
      type: field.type,
      required: field.required,
      values: field.values ?? null,
    })),
    record_count: row.record_count ?? 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function recordView(row: RecordRow) {
  return {
    id: row.id,
    dataset_id: row.dataset_id,
    values: row.data,
    location: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    geocoding: {
      status: row.geocoding_status,
      provider: row.geocoding_provider,
      confidence: row.geocoding_confidence,
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
