import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';

/** A bank of twelve compartments: six small, four medium, two large (inner mm). */
const COMPARTMENTS = Array.from({ length: 12 }, (_, n) => {
  const [size_class, height_mm] =
    n < 6 ? (['S', 90] as const) : n < 10 ? (['M', 190] as const) : (['L', 390] as const);
  return { number: n + 1, size_class, length_mm: 600, width_mm: 400, height_mm };
});

/**
 * The demo's locker site at Gare de Lyon with one locker, and that locker's credential: the
 * simulated device (`tms locker simulate`) connects with it (docs/lockers.md).
 */
export async function seedDemoLockers(services: Services, admin: OperationContext) {
  const { sites } = services.lockers;
  const { site } = await sites.create(admin, {
    name: 'Gare de Lyon lockers',
    address: {
      line1: 'Place Louis-Armand',
      city: 'Paris',
      postal_code: '75012',
      country: 'FR',
      lat: 48.8443,
      lng: 2.3744,
    },
    opening_hours: 'Mo-Su 05:00-01:00',
    hold_hours: 72,
    send_price: { amount: 4.9, currency: 'EUR' },
  });
  const { device, credential } = await sites.register(admin, {
    site_id: site.id,
    kind: 'locker',
    name: 'Hall 1 bank',
    compartments: COMPARTMENTS,
  });
  return { site_id: site.id, device_id: device.id, compartments: COMPARTMENTS.length, credential };
}
