import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';
import { DEMO_SEARCH_MS } from './context.ts';

/** A small e-commerce carton range (inner sizes in mm, 5 mm single-wall board, cost in EUR). */
const CARTONS: ReadonlyArray<[name: string, length: number, width: number, height: number, cost: number]> = [
  ['Mailer S', 220, 160, 80, 0.35],
  ['Box S', 250, 200, 150, 0.55],
  ['Box M', 350, 250, 200, 0.8],
  ['Box L', 450, 350, 300, 1.2],
  ['Box XL', 600, 400, 400, 1.9],
  ['Wine 6', 320, 230, 340, 1.4],
];
const WALL_MM = 5;

/**
 * The demo's packaging catalog, and a load plan of one of today's routes in the demo's van, its
 * parcels unloaded in the order of its deliveries: what docs/loading.md shows.
 */
export async function seedDemoPacking(services: Services, admin: OperationContext) {
  const { packaging, loadPlans, dispatch } = services;
  for (const [name, length, width, height, cost] of CARTONS) {
    await packaging.create(admin, {
      name,
      inner: { length_mm: length, width_mm: width, height_mm: height },
      outer: {
        length_mm: length + 2 * WALL_MM,
        width_mm: width + 2 * WALL_MM,
        height_mm: height + 2 * WALL_MM,
      },
      tare_grams: Math.round((length * width + width * height + length * height) / 400),
      max_gross_grams: 30_000,
      cost,
      currency: 'EUR',
      active: true,
    });
  }
  const today = await dispatch.today(admin.db, admin.business!);
  const routes = await dispatch.routes(admin, { date: today });
  const busiest = routes.reduce<(typeof routes)[number] | undefined>(
    (best, route) => (!best || route.stops.length > best.stops.length ? route : best),
    undefined,
  );
  if (!busiest) return;
  await loadPlans.create(admin, {
    space: 'van-3t5',
    route_id: busiest.id,
    support_percent: 75,
    time_limit_ms: DEMO_SEARCH_MS,
  });
}
