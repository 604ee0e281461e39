// The system module (the service's own health and capabilities): what other modules, the doors and the composition root may use.
export { type Capabilities, systemOperations } from './operations.ts';
