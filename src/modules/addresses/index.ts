// The addresses module (address books, searched with typos forgiven): what the composition root may use.

export {
  BusinessDataGeocoder,
  GeocoderChain,
  GeocoderUnavailable,
  type PlaceSource,
  UrlGeocoder,
} from './geocoding.ts';
export { addressesOperations } from './operations.ts';
export { AddressesService, poiCategorySchema } from './service.ts';
export { POI_CATEGORIES, type PoiCategory } from './tables.ts';
