import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import {
  embedOriginsInput,
  LAYER_KINDS,
  layersInput,
  MAX_FEATURES,
  MAX_MAPS,
  MAX_ZONES,
  mapStyleChanges,
  mapStyleInput,
  zoneGeometryInput,
} from './schemas.ts';
import { GEOJSON, type MapsService } from './service.ts';

const TAG = 'Custom Maps';
const READ = { kinds: STAFF, scopes: ['maps:read'] };
const WRITE = { kinds: STAFF, scopes: ['maps:write'] };
/** Publishing shows the business's data to anyone with the link: its admin's decision. */
const PUBLISH = { kinds: ['client_admin'] as const, scopes: ['maps:write'] };

const layerKind = z.enum(LAYER_KINDS).meta({ title: 'MapLayerKind' });
const styleSchema = z.object({ labels: z.boolean(), clustering: z.boolean() }).meta({ title: 'MapStyle' });
/** A layer as stored: its kind's own fields beside these (see the layers input). */
const layerSchema = z
  .looseObject({
    key: z.string(),
    kind: layerKind,
    name: z.string(),
    colour: z.string(),
  })
  .meta({ title: 'MapLayer' });
const mapSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    style: styleSchema,
    visibility: z.enum(['authenticated', 'public']).describe('public: published under a link (publish_map)'),
    layers: z.array(layerSchema),
    embed_origins: z
      .array(z.string())
      .describe('Sites that may frame the published map (CSP frame-ancestors)'),
    published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'CustomMap' });
const mapAnswer = z.object({ result: z.literal(true), map: mapSchema });

const geometrySchema = z
  .object({
    type: z.enum(['Point', 'LineString', 'Polygon', 'MultiPolygon']),
    coordinates: z.array(z.unknown()),
  })
  .meta({ title: 'GeoJsonGeometry' });
const featureCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(
      z
        .object({
          type: z.literal('Feature'),
          id: z.string().optional(),
          geometry: geometrySchema,
          properties: z
            .record(z.string(), z.unknown())
            .describe('layer: the layer key; the rest by layer kind (docs/maps.md)'),
        })
        .meta({ title: 'GeoJsonFeature' }),
    ),
  })
  .meta({ title: 'GeoJsonFeatureCollection' })
  .describe('A GeoJSON FeatureCollection (RFC 7946): longitude first');
const layerContent = z
  .object({
    key: z.string(),
    kind: layerKind,
    name: z.string(),
    colour: z.string(),
    truncated: z.boolean().describe(`The source held more than the ${MAX_FEATURES} features a layer draws`),
    geojson: featureCollection,
  })
  .meta({ title: 'MapLayerContent' });

const zoneSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    geometry: z.object({ type: z.enum(['Polygon', 'MultiPolygon']), coordinates: z.array(z.unknown()) }),
    vertices: z.int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'ServiceZone' });
const zoneInput = { name: z.string().trim().min(1).max(100), geometry: zoneGeometryInput };

/** A business's custom maps, their service zones and published links (docs/maps.md). */
export function mapsOperations(maps: MapsService): Operation[] {
  return [
    defineOperation({
      name: 'list_maps',
      summary: "The business's custom maps",
      description:
        'Each map with its style, visibility and layer definitions (not their features: get_map draws them).',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_maps',
        guide: "The business's custom maps (name, visibility, layers). Use get_map for what a map shows.",
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/maps' },
      graphql: 'maps',
      input: z.object({ ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, maps: z.array(mapSchema) }),
      handler: (ctx, input) => maps.list(ctx, input),
    }),
    defineOperation({
      name: 'get_map',
      summary: 'A custom map with every layer drawn',
      description: `The map's style and layers, each layer with its features as a GeoJSON FeatureCollection (at most ${MAX_FEATURES} a layer): all a page needs in one read. Routes are today's in the business's time zone.`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_map',
        guide:
          "One custom map's layers as GeoJSON (places, datasets, sites, service zones, today's routes, drivers' last positions).",
        idempotent: true,
      },
      access: READ,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/maps/:map_id' },
      graphql: 'map',
      input: z.object({ map_id: id }),
      output: z.object({ result: z.literal(true), map: mapSchema, layers: z.array(layerContent) }),
      handler: (ctx, input) => maps.get(ctx, input.map_id),
    }),
    defineOperation({
      name: 'create_map',
      summary: 'Create a custom map',
      description: `A map for the business's staff, with its style and layers (set_map_layers replaces them later). A business keeps at most ${MAX_MAPS} maps; publish_map shows one to the public.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['MAPS_FULL'],
      rest: { method: 'POST', path: '/v1/client/maps' },
      graphql: 'createMap',
      input: z.object({
        name: z.string().trim().min(1).max(100),
        style: mapStyleInput.default({ labels: true, clustering: false }),
        layers: layersInput.default([]),
      }),
      output: mapAnswer,
      handler: (ctx, input) => maps.create(ctx, input),
    }),
    defineOperation({
      name: 'update_map',
      summary: 'Rename a map, change its style or the sites that may frame it',
      description: 'Only the fields sent change.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/maps/:map_id' },
      graphql: 'updateMap',
      input: z.object({
        map_id: id,
        name: z.string().trim().min(1).max(100).optional(),
        style: mapStyleChanges.optional(),
        embed_origins: embedOriginsInput.optional(),
      }),
      output: mapAnswer,
      handler: (ctx, { map_id, ...changes }) => maps.update(ctx, map_id, changes),
    }),
    defineOperation({
      name: 'delete_map',
      summary: 'Delete a custom map',
      description: 'Its published link, if any, stops working with it. The data it drew is untouched.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/maps/:map_id' },
      graphql: 'deleteMap',
      input: z.object({ map_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => maps.remove(ctx, input.map_id),
    }),
    defineOperation({
      name: 'set_map_layers',
      summary: "Replace a map's layers",
      description:
        "The whole list, in drawing order. Kinds: points_of_interest, address_book, dataset (a dataset search), sites (warehouses, depots), service_zones, routes (today), drivers (last positions). Datasets and zones named must be the business's.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/maps/:map_id/layers' },
      graphql: 'setMapLayers',
      input: z.object({ map_id: id, layers: layersInput }),
      output: mapAnswer,
      handler: (ctx, input) => maps.setLayers(ctx, input.map_id, input.layers),
    }),
    defineOperation({
      name: 'export_map_geojson',
      summary: "A map's layers as one GeoJSON FeatureCollection",
      description: `Every layer's features in one FeatureCollection, each naming its layer in properties.layer; \`layer\` keeps one layer's. With Accept: ${GEOJSON} the bare FeatureCollection, as a file.`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['MAP_NOT_FOUND', 'MAP_LAYER_NOT_FOUND'],
      representations: [GEOJSON],
      rest: { method: 'GET', path: '/v1/client/maps/:map_id/geojson' },
      graphql: 'mapGeojson',
      input: z.object({
        map_id: id,
        layer: z.string().max(40).optional().describe("One layer's key: only its features"),
      }),
      output: z.object({ result: z.literal(true), map_id: z.int(), geojson: featureCollection }),
      handler: (ctx, input) => maps.exportGeojson(ctx, input.map_id, input.layer),
    }),
    defineOperation({
      name: 'publish_map',
      summary: 'Publish a map under an unguessable link',
      description:
        'Anyone holding the link sees the map without signing in, with no personal data (docs/maps.md). The link is shown in this answer only; publishing again replaces it. `embed_origins` lists the sites that may frame it.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: PUBLISH,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/maps/:map_id/publish' },
      graphql: 'publishMap',
      input: z.object({ map_id: id, embed_origins: embedOriginsInput.optional() }),
      output: mapAnswer.extend({
        link: z.object({
          id: z.string().describe('Shown once: only its digest is kept'),
          url: z.string().describe('The public page'),
          api_url: z.string().describe('The anonymous read (get_public_map)'),
        }),
      }),
      handler: (ctx, input) => maps.publish(ctx, input.map_id, input),
    }),
    defineOperation({
      name: 'revoke_map_link',
      summary: "Revoke a map's public link",
      description:
        'The link answers 404 from now on and the map is for staff only again; revoking an unpublished map changes nothing.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: PUBLISH,
      errors: ['MAP_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/maps/:map_id/revoke' },
      graphql: 'revokeMapLink',
      input: z.object({ map_id: id }),
      output: mapAnswer.extend({ revoked: z.boolean().describe('false: the map had no live link') }),
      handler: (ctx, input) => maps.revoke(ctx, input.map_id),
    }),
    defineOperation({
      name: 'get_public_map',
      summary: 'A published map, by its link',
      description:
        'Public. Its name, style and layers with only what names nobody (docs/maps.md, "Privacy"), and the sites that may frame it. An unknown or revoked link answers 404.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['MAP_LINK_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/maps/:link_id' },
      graphql: 'publicMap',
      input: z.object({ link_id: z.string().min(1).max(100) }),
      output: z.object({
        result: z.literal(true),
        map: z.object({ name: z.string(), style: styleSchema }),
        layers: z.array(layerContent),
        frame_ancestors: z
          .array(z.string())
          .describe("Origins that may frame the map: the page's CSP frame-ancestors"),
      }),
      handler: (ctx, input) => maps.publicMap(ctx, input.link_id),
    }),
    defineOperation({
      name: 'list_service_zones',
      summary: "The business's service zones",
      description: 'Each zone with its GeoJSON geometry.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/client/service-zones' },
      graphql: 'serviceZones',
      input: z.object({}),
      output: z.object({ result: z.literal(true), zones: z.array(zoneSchema) }),
      handler: (ctx) => maps.zones(ctx),
    }),
    defineOperation({
      name: 'upload_service_zone',
      summary: 'Upload a service zone',
      description: `A GeoJSON Polygon or MultiPolygon, checked strictly: closed rings of at least 4 positions, longitude then latitude in range, at most 10,000 positions. A business keeps at most ${MAX_ZONES} zones.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['SERVICE_ZONES_FULL'],
      rest: { method: 'POST', path: '/v1/client/service-zones' },
      graphql: 'uploadServiceZone',
      input: z.object(zoneInput),
      output: z.object({ result: z.literal(true), zone: zoneSchema }),
      handler: (ctx, input) => maps.createZone(ctx, input),
    }),
    defineOperation({
      name: 'replace_service_zone',
      summary: "Replace a service zone's name and geometry",
      description: 'Checked as an upload is; maps drawing the zone draw the new geometry.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['SERVICE_ZONE_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/service-zones/:zone_id' },
      graphql: 'replaceServiceZone',
      input: z.object({ zone_id: id, ...zoneInput }),
      output: z.object({ result: z.literal(true), zone: zoneSchema }),
      handler: (ctx, { zone_id, ...input }) => maps.replaceZone(ctx, zone_id, input),
    }),
    defineOperation({
      name: 'delete_service_zone',
      summary: 'Delete a service zone',
      description: 'Maps that drew it draw without it.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['SERVICE_ZONE_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/service-zones/:zone_id' },
      graphql: 'deleteServiceZone',
      input: z.object({ zone_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => maps.deleteZone(ctx, input.zone_id),
    }),
  ];
}
