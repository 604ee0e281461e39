// The datasets module (a business's own tables of records, checked, geocoded and searched): what others may use.
export { datasetsOperations } from './operations.ts';
export { DatasetsService, PLACING_TOPIC, type Place } from './service.ts';
