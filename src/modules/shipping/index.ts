// The shipping module (carriers, rates and shipping labels): what other modules, the doors and the composition root may use.
export { seedDemoCarriers } from './demo.ts';
export { shippingOperations } from './operations.ts';
export { ShippingService } from './service.ts';
