// The datasets module (a business's own tables of records, checked, geocoded and searched): what others may use.
export { datasetsOperations } from './operations.ts';
export { type Condition, conditionInput } from './schema.ts';
export { DatasetsService, PLACING_TOPIC, type Place } from './service.ts';
export type { FieldSpec } from './tables.ts';
