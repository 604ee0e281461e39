import { createHash, randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { validationFailed } from '../../platform/catalog/executor.ts';
import { businessOf, type OperationContext, Representation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MessageParams } from '../../platform/errors.ts';
import { AppError } from '../../platform/errors.ts';
import { type FieldMessageKey, fieldIssue } from '../../platform/i18n/field-messages.ts';
import { validationErrorMap } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import { type Feature, type FeatureCollection, staffFeatures } from './geojson.ts';
import { type LayerContent, LayerReader, type LayerSources } from './layers.ts';
import { publicFeatures, SAFE_FIELD_TYPES } from './public-view.ts';
import * as repo from './repository.ts';
import {
  type LayerDefinition,
  type layerInput,
  MAX_MAPS,
  MAX_ZONES,
  type MapStyle,
  verticesOf,
  withColours,
  type ZoneGeometry,
} from './schemas.ts';
import type { MapsTables } from './tables.ts';

export const GEOJSON = 'application/geo+json';

type MapRow = Omit<Selectable<MapsTables['maps']>, 'link_hash'>;
type LayerInput = z.output<typeof layerInput>;

/**
 * Custom maps: a business's named sets of layers drawn from its own data (places, address book,
 * datasets, sites, service zones, today's routes, live drivers), with a style; seen by its staff,
 * or by anyone holding the link of a published one, who sees only what names nobody. Every layer
 * is read through the owning module's service.
 */
export class MapsService {
  private readonly reader: LayerReader;

  constructor(
    private readonly clock: Clock,
    private readonly sources: LayerSources,
    private readonly publicBaseUrl: string,
  ) {
    this.reader = new LayerReader(sources);
  }

  async list(ctx: OperationContext, query: PageQuery) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countMaps(ctx.db, businessId),
      repo.mapsOf(ctx.db, businessId, pageWindow(query)),
    ]);
    return { result: true as const, ...envelopeOf(query, total), maps: rows.map(mapView) };
  }

  /** A map with its style and every layer's features: all a page needs to draw it, in one read. */
  async get(ctx: OperationContext, id: number) {
    const businessId = businessOf(ctx);
    const map = await this.map(ctx, id);
    const contents = await this.reader.read(ctx.db, businessId, map.layers, {
      now: this.clock.now(),
      lang: ctx.lang,
    });
    return {
      result: true as const,
      map: mapView(map),
      layers: map.layers.map((layer, index) => layerView(layer, contents[index]!, staffFeatures)),
    };
  }

  async create(ctx: OperationContext, input: { name: string; style: MapStyle; layers: LayerInput[] }) {
    const businessId = businessOf(ctx);
    // One creation at a time per business, so that two cannot both pass the count.
    await repo.lockBusinessMaps(ctx.db, businessId);
    if ((await repo.countMaps(ctx.db, businessId)) >= MAX_MAPS) {
      throw new AppError('MAPS_FULL', { params: { limit: MAX_MAPS } });
    }
    await this.checkSources(ctx, input.layers);
    const now = this.clock.now();
    const id = await repo.insertMap(ctx.db, {
      business_id: businessId,
      name: input.name,
      style: input.style,
      layers: withColours(input.layers),
      created_at: now,
      updated_at: now,
    });
    return { result: true as const, map: mapView(await this.map(ctx, id)) };
  }

  /** Changes what is given: the name, the style, the sites that may frame the published map. */
  async update(
    ctx: OperationContext,
    id: number,
    changes: { name?: string; style?: Partial<MapStyle>; embed_origins?: string[] },
  ) {
    const businessId = businessOf(ctx);
    const current = await this.map(ctx, id, { lock: true });
    await repo.updateMap(ctx.db, businessId, id, {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.style === undefined ? {} : { style: { ...current.style, ...changes.style } }),
      ...(changes.embed_origins === undefined ? {} : { embed_origins: changes.embed_origins }),
      updated_at: this.clock.now(),
    });
    return { result: true as const, map: mapView(await this.map(ctx, id)) };
  }

  async remove(ctx: OperationContext, id: number) {
    if (!(await repo.deleteMap(ctx.db, businessOf(ctx), id))) {
      throw new AppError('MAP_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, deleted: id };
  }

  /** Replaces the map's layers, each checked against the business's data it draws from. */
  async setLayers(ctx: OperationContext, id: number, layers: LayerInput[]) {
    const businessId = businessOf(ctx);
    await this.map(ctx, id, { lock: true });
    await this.checkSources(ctx, layers);
    await repo.updateMap(ctx.db, businessId, id, {
      layers: withColours(layers),
      updated_at: this.clock.now(),
    });
    return { result: true as const, map: mapView(await this.map(ctx, id)) };
  }

  // ----- publishing -----

  /**
   * Publishes the map under a new unguessable link, shown in this answer only (its digest is
   * what is kept). Publishing again replaces the link: the one before stops working.
   */
  async publish(ctx: OperationContext, id: number, input: { embed_origins?: string[] }) {
    const businessId = businessOf(ctx);
    await this.map(ctx, id, { lock: true });
    const linkId = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    await repo.updateMap(ctx.db, businessId, id, {
      visibility: 'public',
      link_hash: digestOf(linkId),
      published_at: now,
      ...(input.embed_origins === undefined ? {} : { embed_origins: input.embed_origins }),
      updated_at: now,
    });
    return {
      result: true as const,
      map: mapView(await this.map(ctx, id)),
      link: {
        id: linkId,
        url: `${this.publicBaseUrl}/maps/${linkId}`,
        api_url: `${this.publicBaseUrl}/api/v1/maps/${linkId}`,
      },
    };
  }

  /** Revokes the map's link: anyone holding it gets 404 from now on; the map is for staff only again. */
  async revoke(ctx: OperationContext, id: number) {
    const businessId = businessOf(ctx);
    const map = await this.map(ctx, id, { lock: true });
    await repo.updateMap(ctx.db, businessId, id, {
      visibility: 'authenticated',
      link_hash: null,
      published_at: null,
      updated_at: this.clock.now(),
    });
    return {
      result: true as const,
      revoked: map.visibility === 'public',
      map: mapView(await this.map(ctx, id)),
    };
  }

  /**
   * A published map as anyone holding its link sees it: its name, style and layers, each
   * feature built by the allowlist of public-view.ts. An unknown or revoked link is not found.
   */
  async publicMap(ctx: OperationContext, linkId: string) {
    const map = await repo.mapByLink(ctx.db, digestOf(linkId));
    if (!map) throw new AppError('MAP_LINK_NOT_FOUND');
    const contents = await this.reader.read(ctx.db, map.business_id, map.layers, {
      now: this.clock.now(),
      lang: ctx.lang,
    });
    return {
      result: true as const,
      map: { name: map.name, style: map.style },
      layers: map.layers.map((layer, index) => layerView(layer, contents[index]!, publicFeatures)),
      frame_ancestors: map.embed_origins,
    };
  }

  /**
   * The map's layers as one GeoJSON FeatureCollection, or one layer's (`layer`); every feature
   * names its layer in `properties.layer`. Bare `application/geo+json` when the caller asks for it.
   */
  async exportGeojson(ctx: OperationContext, id: number, layerKey: string | undefined) {
    const businessId = businessOf(ctx);
    const map = await this.map(ctx, id);
    const layers = layerKey === undefined ? map.layers : map.layers.filter((layer) => layer.key === layerKey);
    if (layerKey !== undefined && layers.length === 0) {
      throw new AppError('MAP_LAYER_NOT_FOUND', { params: { map: id, layer: layerKey } });
    }
    const contents = await this.reader.read(ctx.db, businessId, layers, {
      now: this.clock.now(),
      lang: ctx.lang,
    });
    const collection: FeatureCollection = {
      type: 'FeatureCollection',
      features: layers.flatMap((layer, index) => staffFeatures(layer, contents[index]!)),
    };
    if (ctx.representation === GEOJSON) {
      return new Representation(GEOJSON, collection, {
        'content-disposition': `attachment; filename="map-${id}${layerKey ? `-${layerKey}` : ''}.geojson"`,
      });
    }
    return { result: true as const, map_id: id, geojson: collection };
  }

  // ----- service zones -----

  async zones(ctx: OperationContext) {
    const rows = await repo.zonesOf(ctx.db, businessOf(ctx));
    return { result: true as const, zones: rows.map(zoneView) };
  }

  async createZone(ctx: OperationContext, input: { name: string; geometry: ZoneGeometry }) {
    const businessId = businessOf(ctx);
    await repo.lockBusinessMaps(ctx.db, businessId);
    if ((await repo.countZones(ctx.db, businessId)) >= MAX_ZONES) {
      throw new AppError('SERVICE_ZONES_FULL', { params: { limit: MAX_ZONES } });
    }
    const id = await repo.insertZone(ctx.db, {
      business_id: businessId,
      name: input.name,
      geometry: input.geometry,
      vertices: verticesOf(input.geometry),
      at: this.clock.now(),
    });
    return { result: true as const, zone: await this.zone(ctx, id) };
  }

  async replaceZone(ctx: OperationContext, id: number, input: { name: string; geometry: ZoneGeometry }) {
    const replaced = await repo.replaceZone(ctx.db, businessOf(ctx), id, {
      name: input.name,
      geometry: input.geometry,
      vertices: verticesOf(input.geometry),
      at: this.clock.now(),
    });
    if (!replaced) throw new AppError('SERVICE_ZONE_NOT_FOUND', { params: { id } });
    return { result: true as const, zone: await this.zone(ctx, id) };
  }

  /** Deletes a zone; maps that named it draw without it. */
  async deleteZone(ctx: OperationContext, id: number) {
    if (!(await repo.deleteZone(ctx.db, businessOf(ctx), id))) {
      throw new AppError('SERVICE_ZONE_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, deleted: id };
  }

  // ----- helpers -----

  private async map(ctx: OperationContext, id: number, options: { lock?: boolean } = {}): Promise<MapRow> {
    const [row] = await repo.mapsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0, ...options });
    if (!row) throw new AppError('MAP_NOT_FOUND', { params: { id } });
    return row;
  }

  private async zone(ctx: OperationContext, id: number) {
    const [row] = await repo.zonesOf(ctx.db, businessOf(ctx), { ids: [id] });
    return zoneView(row!);
  }

  /**
   * Every dataset and zone the layers name is the business's, the dataset's conditions fit its
   * fields and its public fields are of the kinds a published map may show; otherwise the whole
   * list is refused, each problem at its place (layers.2.dataset_id, ...).
   */
  private async checkSources(ctx: OperationContext, layers: readonly LayerInput[]) {
    const businessId = businessOf(ctx);
    const problems: Array<{ path: Array<string | number>; key: FieldMessageKey; params?: MessageParams }> =
      [];
    let zoneIds: Set<number> | undefined;
    for (const [index, layer] of layers.entries()) {
      if (layer.kind === 'service_zones' && layer.zone_ids) {
        zoneIds ??= new Set((await repo.zonesOf(ctx.db, businessId)).map((zone) => zone.id));
        layer.zone_ids.forEach((zoneId, at) => {
          if (!zoneIds!.has(zoneId)) {
            problems.push({
              path: [index, 'zone_ids', at],
              key: 'unknown_service_zone',
              params: { id: zoneId },
            });
          }
        });
      }
      if (layer.kind !== 'dataset') continue;
      const found = await this.sources.datasets
        .placedRecords(ctx.db, businessId, layer, 1, ctx.lang)
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'VALIDATION_FAILED') throw underLayer(error, index);
          throw error;
        });
      if (!found) {
        problems.push({
          path: [index, 'dataset_id'],
          key: 'unknown_dataset',
          params: { id: layer.dataset_id },
        });
        continue;
      }
      const fields = new Map(found.dataset.fields.map((field) => [field.name, field]));
      layer.public_fields.forEach((name, at) => {
        const field = fields.get(name);
        if (!field)
          problems.push({
            path: [index, 'public_fields', at],
            key: 'unknown_field',
            params: { field: name },
          });
        else if (!SAFE_FIELD_TYPES.has(field.type)) {
          problems.push({
            path: [index, 'public_fields', at],
            key: 'public_field_type',
            params: { field: name },
          });
        }
      });
    }
    if (problems.length === 0) return;
    const refusal = z.unknown().superRefine((_value, refine) => {
      for (const problem of problems) {
        refine.addIssue({
          code: 'custom',
          path: ['layers', ...problem.path],
          ...fieldIssue(problem.key, problem.params),
        });
      }
    });
    const parsed = refusal.safeParse(null, { error: validationErrorMap(ctx.lang) });
    throw validationFailed(parsed.error!);
  }
}

/** A dataset's refusal of a layer's conditions, its fields placed under the layer. */
function underLayer(error: AppError, index: number): AppError {
  const fields = ((error.options.details?.fields ?? []) as Array<{ field: string }>).map((field) => ({
    ...field,
    field: `layers.${index}.${field.field}`,
  }));
  return new AppError('VALIDATION_FAILED', {
    params: { fields: [...new Set(fields.map((field) => field.field))].join(', ') },
    details: { fields },
  });
}

export function digestOf(linkId: string): Buffer {
  return createHash('sha256').update(linkId, 'utf8').digest();
}

function mapView(row: MapRow) {
  return {
    id: row.id,
    name: row.name,
    style: row.style,
    visibility: row.visibility,
    layers: row.layers,
    embed_origins: row.embed_origins,
    published_at: row.published_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function layerView(
  layer: LayerDefinition,
  content: LayerContent,
  features: (layer: LayerDefinition, content: LayerContent) => Feature[],
) {
  return {
    key: layer.key,
    kind: layer.kind,
    name: layer.name,
    colour: layer.colour,
    truncated: content.truncated,
    geojson: { type: 'FeatureCollection' as const, features: features(layer, content) },
  };
}

function zoneView(row: Awaited<ReturnType<typeof repo.zonesOf>>[number]) {
  return {
    id: row.id,
    name: row.name,
    geometry: row.geometry,
    vertices: row.vertices,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
