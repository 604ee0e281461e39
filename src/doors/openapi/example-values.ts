import { EXAMPLE_MOMENT } from './example-demo.ts';

// The values the example requests and the set-up before them share: one address, one parcel,
// one zone, the demo's moment, so the examples read as one business's day.

export const AT = EXAMPLE_MOMENT.toISOString();
/** A Paris street address with its point. */
export const ADDRESS = {
  line1: '8 Rue de Rivoli',
  city: 'Paris',
  postal_code: '75004',
  country: 'FR',
  lat: 48.8556,
  lng: 2.3579,
};
/** The address as a drop-off: who receives there. */
export const DROPOFF = { name: 'Camille Martin', phone: '+33 6 12 34 56 78', ...ADDRESS };
export const PICKUP = { line1: '7 Quai de Bercy', city: 'Paris', postal_code: '75012', country: 'FR' };
export const PACKAGES = [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 150 }];
export const ZONE = {
  type: 'Polygon',
  coordinates: [
    [
      [2.33, 48.85],
      [2.37, 48.85],
      [2.37, 48.87],
      [2.33, 48.87],
      [2.33, 48.85],
    ],
  ],
};
/** The line of an inbound parcel the demo customer announces. */
export const SNEAKERS = {
  description: 'Sneakers',
  quantity: 1,
  value: 120,
  currency: 'USD',
  hs_code: '640411',
  origin_country: 'VN',
};
