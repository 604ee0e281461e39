// The contractors module (contractor rules and the orders brokers hold): what other modules, the doors and the composition root may use.
export { AssignmentsService } from './assignments.ts';
export { contractorsOperations } from './operations.ts';
export { ContractorsService } from './service.ts';
