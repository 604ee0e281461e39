// The apps module (platform apps, their assignments to clients and identity providers): what other modules, the doors and the composition root may use.
export { IdTokenVerifier } from './identity.ts';
export { appsOperations } from './operations.ts';
export { AppsService } from './service.ts';
