// The pricing module (who may see which prices): what other modules, the doors and the composition root may use.
export { pricingOperations } from './operations.ts';
export { PricingService } from './service.ts';
