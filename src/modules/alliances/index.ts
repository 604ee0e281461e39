// The alliances module (groups of businesses sharing tracking and orders by explicit grants): what other modules and the composition root may use.
export { alliancesOperations } from './operations.ts';
export { AlliancesService } from './service.ts';
export type { Grant, Grants } from './tables.ts';
export { GRANTS } from './tables.ts';
