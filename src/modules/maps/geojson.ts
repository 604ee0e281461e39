import type { MapRoute } from '../dispatch/index.ts';
import type { LayerContent } from './layers.ts';
import type { LayerDefinition, ZoneGeometry } from './schemas.ts';

// Layers as GeoJSON (RFC 7946) for the business's staff: every feature names its layer, and
// carries what the staff may read of its source. A published map goes through public-view.ts.

export type Geometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'LineString'; coordinates: number[][] }
  | ZoneGeometry;

export interface Feature {
  type: 'Feature';
  id?: string;
  geometry: Geometry;
  properties: Record<string, unknown>;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

/** Longitude first, as GeoJSON orders a position. */
export const point = (at: { lat: number; lng: number }): Geometry => ({
  type: 'Point',
  coordinates: [at.lng, at.lat],
});

export function feature(
  id: string | undefined,
  geometry: Geometry,
  properties: Record<string, unknown>,
): Feature {
  return { type: 'Feature', ...(id === undefined ? {} : { id }), geometry, properties };
}

/** The route's line: from its depot, through its stops in sequence, back to the depot. */
export function routeLine(route: MapRoute): number[][] {
  const depot = route.depot ? [[route.depot.lng, route.depot.lat]] : [];
  return [...depot, ...route.stops.map((stop) => [stop.lng, stop.lat]), ...depot];
}

export function staffFeatures(layer: LayerDefinition, content: LayerContent): Feature[] {
  const tagged = (properties: Record<string, unknown>) => ({ layer: layer.key, ...properties });
  switch (content.kind) {
    case 'points_of_interest':
      return content.points.map((poi) =>
        feature(
          `poi-${poi.id}`,
          point(poi),
          tagged({
            id: poi.id,
            name: poi.name,
            category: poi.category,
            line1: poi.line1,
            postal_code: poi.postal_code,
            city: poi.city,
            country: poi.country,
          }),
        ),
      );
    case 'address_book':
      return content.addresses.map((entry) =>
        feature(
          `address-${entry.id}`,
          point(entry),
          tagged({
            id: entry.id,
            label: entry.label,
            name: entry.name,
            phone: entry.phone,
            line1: entry.line1,
            line2: entry.line2,
            postal_code: entry.postal_code,
            city: entry.city,
            country: entry.country,
            delivery_notes: entry.delivery_notes,
          }),
        ),
      );
    case 'dataset': {
      const found = content.content;
      if (!found) return [];
      return found.records.map((record) =>
        feature(
          `record-${record.id}`,
          point(record),
          tagged({
            dataset_id: found.dataset.id,
            record_id: record.id,
            label: record.label,
            values: record.values,
          }),
        ),
      );
    }
    case 'sites':
      return [
        ...content.warehouses.map((site) =>
          feature(
            `warehouse-${site.id}`,
            point(site),
            tagged({
              site: 'warehouse',
              id: site.id,
              code: site.code,
              name: site.name,
              line1: site.line1,
              postal_code: site.postal_code,
              city: site.city,
              country: site.country,
              depot_id: site.depot_id,
            }),
          ),
        ),
        ...content.depots.map((depot) =>
          feature(
            `depot-${depot.id}`,
            point(depot),
            tagged({ site: 'depot', id: depot.id, name: depot.name }),
          ),
        ),
      ];
    case 'service_zones':
      return content.zones.map((zone) =>
        feature(`zone-${zone.id}`, zone.geometry, tagged({ id: zone.id, name: zone.name })),
      );
    case 'routes':
      return content.routes.flatMap((route) => {
        const line = routeLine(route);
        const summary = {
          route_id: route.id,
          date: content.date,
          driver_id: route.driver?.id ?? null,
          driver_name: route.driver?.name ?? null,
          status: route.status,
          departure: route.departure,
        };
        return [
          // A line needs two positions: a route with one stop and no depot has none.
          ...(line.length >= 2
            ? [
                feature(
                  `route-${route.id}`,
                  { type: 'LineString', coordinates: line },
                  tagged({ feature: 'route', ...summary, stops: route.stops.length }),
                ),
              ]
            : []),
          ...route.stops.map((stop) =>
            feature(
              `stop-${route.id}-${stop.sequence}`,
              point(stop),
              tagged({
                feature: 'stop',
                route_id: route.id,
                sequence: stop.sequence,
                order_id: stop.order_id,
                leg: stop.leg,
                status: stop.status,
                planned_arrival: stop.planned_arrival,
              }),
            ),
          ),
        ];
      });
    case 'drivers':
      return content.positions.map((position) =>
        feature(
          `driver-${position.driver.id}`,
          point(position),
          tagged({
            driver_id: position.driver.id,
            driver_name: position.driver.name,
            route_id: position.route_id,
            accuracy_meters: position.accuracy_meters,
            at: position.at.toISOString(),
            age_seconds: Math.max(0, Math.round((content.now.getTime() - position.at.getTime()) / 1000)),
          }),
        ),
      );
  }
}
