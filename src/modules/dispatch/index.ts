// The dispatch module (depots, driver profiles, routes and route building): what other modules, the doors and the composition root may use.

export { type DriverVocabulary, driverOperations } from './driver-operations.ts';
export { DriverWork } from './driver-work.ts';
export { dispatchOperations } from './operations.ts';
export { DispatchService } from './service.ts';
