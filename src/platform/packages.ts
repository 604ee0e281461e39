import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded when a feature first needs it, synchronously, so the constructors
 * that need it stay synchronous. For packages only some configurations use (Redis, an outside
 * MQTT broker): each takes a tenth of a second or more to load, which every start would pay
 * (bench/README.md, "Starting the service"). Node keeps what it loaded: a second call is free.
 */
export function loadPackage<Package>(name: string): Package {
  return requireHere(name) as Package;
}
