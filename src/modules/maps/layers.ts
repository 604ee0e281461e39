import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/index.ts';
import type { AddressesService } from '../addresses/index.ts';
import type { DatasetsService, FieldSpec } from '../datasets/index.ts';
import type { DispatchService, MapRoute } from '../dispatch/index.ts';
import type { WarehousesService } from '../warehouses/index.ts';
import * as repo from './repository.ts';
import { type LayerDefinition, MAX_FEATURES, type ZoneGeometry } from './schemas.ts';

// What each layer of a map holds, read through the owning modules' services: the same data for
// staff and for a published map; geojson.ts and public-view.ts decide what each of them is shown.

type Poi = Awaited<ReturnType<AddressesService['mapPlaces']>>[number];
type SavedAddress = Awaited<ReturnType<AddressesService['mapAddresses']>>[number];
type Warehouse = Awaited<ReturnType<WarehousesService['mapSites']>>[number];
type Depot = { id: number; name: string; lat: number; lng: number };
type Position = Awaited<ReturnType<DispatchService['maps']['lastPositions']>>[number];
export interface Zone {
  id: number;
  name: string;
  geometry: ZoneGeometry;
}
export interface DatasetContent {
  dataset: { id: number; name: string; fields: FieldSpec[] };
  records: Array<{ id: number; label: string; values: Record<string, unknown>; lat: number; lng: number }>;
}

/** A layer's content, as read: `truncated` when the source held more than a layer draws. */
export type LayerContent =
  | { kind: 'points_of_interest'; truncated: boolean; points: Poi[] }
  | { kind: 'address_book'; truncated: boolean; addresses: SavedAddress[] }
  | { kind: 'dataset'; truncated: boolean; content: DatasetContent | null }
  | { kind: 'sites'; truncated: boolean; warehouses: Warehouse[]; depots: Depot[] }
  | { kind: 'service_zones'; truncated: boolean; zones: Zone[] }
  | { kind: 'routes'; truncated: boolean; date: string; routes: MapRoute[] }
  | { kind: 'drivers'; truncated: boolean; now: Date; positions: Position[] };

/** Routes one routes layer draws at most: their stops count towards the layer's features. */
const MAX_ROUTES = 250;

export interface LayerSources {
  addresses: AddressesService;
  datasets: DatasetsService;
  warehouses: WarehousesService;
  dispatch: DispatchService;
}

export class LayerReader {
  constructor(private readonly sources: LayerSources) {}

  /**
   * Each layer's content for the business, in the map's order. A dataset the business no longer
   * has reads as an empty layer; one whose fields changed under the layer's conditions too.
   */
  async read(
    db: Queryable,
    businessId: number,
    layers: readonly LayerDefinition[],
    at: { now: Date; lang: Language },
  ): Promise<LayerContent[]> {
    const contents: LayerContent[] = [];
    // One after the other: a map's reads share the caller's one connection or transaction.
    for (const layer of layers) contents.push(await this.readOne(db, businessId, layer, at));
    return contents;
  }

  private async readOne(
    db: Queryable,
    businessId: number,
    layer: LayerDefinition,
    at: { now: Date; lang: Language },
  ): Promise<LayerContent> {
    const { addresses, datasets, warehouses, dispatch } = this.sources;
    const capped = <T>(rows: T[], max = MAX_FEATURES) => ({
      truncated: rows.length > max,
      rows: rows.slice(0, max),
    });
    switch (layer.kind) {
      case 'points_of_interest': {
        const { truncated, rows } = capped(
          await addresses.mapPlaces(db, businessId, layer.categories, MAX_FEATURES + 1),
        );
        return { kind: layer.kind, truncated, points: rows };
      }
      case 'address_book': {
        const { truncated, rows } = capped(await addresses.mapAddresses(db, businessId, MAX_FEATURES + 1));
        return { kind: layer.kind, truncated, addresses: rows };
      }
      case 'dataset': {
        const found = await datasets
          .placedRecords(db, businessId, layer, MAX_FEATURES, at.lang)
          .catch((error: unknown) => {
            // The dataset's fields changed since the layer was set: nothing matches any more.
            if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return null;
            throw error;
          });
        return {
          kind: layer.kind,
          truncated: found !== null && found.total > found.records.length,
          content: found,
        };
      }
      case 'sites': {
        const sites = {
          warehouses: layer.include.includes('warehouses')
            ? await warehouses.mapSites(db, businessId, MAX_FEATURES + 1)
            : [],
          depots: layer.include.includes('depots') ? await dispatch.maps.depots(db, businessId) : [],
        };
        const all = capped([...sites.warehouses, ...sites.depots]);
        return {
          kind: layer.kind,
          truncated: all.truncated,
          warehouses: sites.warehouses.slice(0, MAX_FEATURES),
          depots: sites.depots.slice(0, Math.max(0, MAX_FEATURES - sites.warehouses.length)),
        };
      }
      case 'service_zones': {
        const zones = await repo.zonesOf(db, businessId, { ids: layer.zone_ids });
        return { kind: layer.kind, truncated: false, zones };
      }
      case 'routes': {
        const date = await dispatch.today(db, businessId);
        const routes = await dispatch.maps.routes(db, businessId, date, MAX_ROUTES + 1);
        // Stops count towards the features a layer draws; whole routes are kept or left.
        const kept: MapRoute[] = [];
        let features = 0;
        for (const route of routes.slice(0, MAX_ROUTES)) {
          features += route.stops.length + 1;
          if (features > MAX_FEATURES) break;
          kept.push(route);
        }
        return { kind: layer.kind, truncated: kept.length < routes.length, date, routes: kept };
      }
      case 'drivers': {
        const since = new Date(at.now.getTime() - layer.within_minutes * 60_000);
        const { truncated, rows } = capped(
          await dispatch.maps.lastPositions(db, businessId, since, MAX_FEATURES + 1),
        );
        return { kind: layer.kind, truncated, now: at.now, positions: rows };
      }
    }
  }
}
