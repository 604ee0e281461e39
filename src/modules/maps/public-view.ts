import { type Feature, feature, point, routeLine } from './geojson.ts';
import type { LayerContent } from './layers.ts';
import type { LayerDefinition } from './schemas.ts';

/**
 * What anyone holding a published map's link may see of a layer: the business's own places, and
 * of everything else only what names nobody. It is an allowlist, built field by field from the
 * layer's content: a field not named here is never copied.
 *
 * - points of interest keep their name and category, except customer sites (a customer's place);
 * - the address book is the recipients' book: no entry, not even its point;
 * - dataset records keep their point and the values of the number, boolean, date and enum fields
 *   the layer names in `public_fields` (never text, addresses or other points, which may name or
 *   locate people);
 * - warehouses and depots keep their name (the business's own sites);
 * - service zones keep their name and area;
 * - routes keep their status and stops' status and sequence, and their line and stops at a
 *   coarse grid (0.01°, about a kilometre): no order, recipient or driver, and no door to find;
 * - drivers keep their position and its time: no id, no name.
 */
export function publicFeatures(layer: LayerDefinition, content: LayerContent): Feature[] {
  const tagged = (properties: Record<string, unknown>) => ({ layer: layer.key, ...properties });
  switch (content.kind) {
    case 'points_of_interest':
      return content.points
        .filter((poi) => poi.category !== 'customer_site')
        .map((poi) => feature(undefined, point(poi), tagged({ name: poi.name, category: poi.category })));
    case 'address_book':
      return [];
    case 'dataset': {
      const found = content.content;
      if (!found || layer.kind !== 'dataset') return [];
      const shown = found.dataset.fields.filter(
        (field) => layer.public_fields.includes(field.name) && SAFE_FIELD_TYPES.has(field.type),
      );
      return found.records.map((record) => {
        const values: Record<string, unknown> = {};
        for (const field of shown) {
          const value = record.values[field.name];
          if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
            values[field.name] = value;
          }
        }
        return feature(undefined, point(record), tagged({ values }));
      });
    }
    case 'sites':
      return [
        ...content.warehouses.map((site) =>
          feature(undefined, point(site), tagged({ site: 'warehouse', name: site.name })),
        ),
        ...content.depots.map((depot) =>
          feature(undefined, point(depot), tagged({ site: 'depot', name: depot.name })),
        ),
      ];
    case 'service_zones':
      return content.zones.map((zone) => feature(undefined, zone.geometry, tagged({ name: zone.name })));
    case 'routes':
      return content.routes.flatMap((route) => {
        const line = routeLine(route).map(([lng, lat]) => [coarse(lng!), coarse(lat!)]);
        return [
          ...(line.length >= 2
            ? [
                feature(
                  undefined,
                  { type: 'LineString', coordinates: line },
                  tagged({ feature: 'route', status: route.status, stops: route.stops.length }),
                ),
              ]
            : []),
          ...route.stops.map((stop) =>
            feature(
              undefined,
              { type: 'Point', coordinates: [coarse(stop.lng), coarse(stop.lat)] },
              tagged({ feature: 'stop', sequence: stop.sequence, status: stop.status }),
            ),
          ),
        ];
      });
    case 'drivers':
      return content.positions.map((position) =>
        feature(undefined, point(position), tagged({ at: position.at.toISOString() })),
      );
  }
}

/** Field types whose values say nothing of a person (free text and places may): what `public_fields` may name. */
export const SAFE_FIELD_TYPES: ReadonlySet<string> = new Set(['number', 'boolean', 'date', 'enum']);

/** A coordinate on a 0.01° grid (about 1.1 km of latitude): a neighbourhood, not a door. */
function coarse(degrees: number): number {
  return Math.round(degrees * 100) / 100;
}
