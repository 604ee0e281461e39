// The dispatch module (depots, driver profiles, routes and route building): what other modules, the doors and the composition root may use.
export { dispatchOperations } from './operations.ts';
export { DispatchService } from './service.ts';
