// The dispatch module (depots, driver profiles, routes and route building): what other modules, the doors and the composition root may use.
export { dispatchOperations } from './operations.ts';
export type { RoadNetwork, TravelMatrix } from './roads.ts';
export { roadNetwork } from './roads.ts';
export { DispatchService } from './service.ts';
