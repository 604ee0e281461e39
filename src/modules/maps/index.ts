// The maps module (custom maps of a business's own data, service zones, published links): what the composition root may use.

export { mapsOperations } from './operations.ts';
export { MapsService } from './service.ts';
