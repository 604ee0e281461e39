// The datasets module (a business's own tables of records, checked, geocoded and searched): what others may use.
export { datasetsOperations } from './operations.ts';
export { PLACING_TOPIC } from './placing.ts';
export { type Condition, conditionInput } from './schema.ts';
export { DatasetsService, type Place } from './service.ts';
export type { FieldSpec } from './tables.ts';
