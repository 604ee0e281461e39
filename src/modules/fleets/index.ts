// The fleets module (fleets and their captains, the shift calendar, the driver route board): what the composition root may use.

export { fleetsOperations } from './operations.ts';
export { FleetsService } from './service.ts';
