import { z } from 'zod';
import { fieldIssue, fieldMessage } from '../../platform/i18n/field-messages.ts';
import { POI_CATEGORIES, poiCategorySchema } from '../addresses/index.ts';
import { conditionInput } from '../datasets/index.ts';

// What a map is made of, as callers write it: a style, layers of its kinds, service zones
// (checked GeoJSON) and the sites that may frame a published map.

/** A business keeps at most this many maps, and a map this many layers. */
export const MAX_MAPS = 100;
export const MAX_LAYERS = 20;
/** A layer draws at most this many features; `truncated` says when it had more. */
export const MAX_FEATURES = 2_000;
/** A business keeps at most this many service zones, each of at most this many positions. */
export const MAX_ZONES = 200;
export const MAX_ZONE_VERTICES = 10_000;
/** Sites one published map may be framed by. */
export const MAX_EMBED_ORIGINS = 20;

export const LAYER_KINDS = [
  'points_of_interest',
  'address_book',
  'dataset',
  'sites',
  'service_zones',
  'routes',
  'drivers',
] as const;
export type LayerKind = (typeof LAYER_KINDS)[number];

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, fieldMessage('colour'));

export const mapStyleInput = z.object({
  labels: z.boolean().default(true).describe('Names beside markers'),
  clustering: z.boolean().default(false).describe('Nearby markers drawn as one numbered cluster'),
});
export type MapStyle = z.output<typeof mapStyleInput>;
/** A change of style: what is left out stays as it is (no defaults here, unlike a new map's). */
export const mapStyleChanges = z.object({
  labels: z.boolean().optional(),
  clustering: z.boolean().optional(),
});

const layerBase = {
  key: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, fieldMessage('slug', { max: 40 }))
    .describe(
      'Names the layer within the map (exports, features): up to 40 lower-case letters, digits, - and _',
    ),
  name: z.string().trim().min(1).max(100),
  colour: colour
    .optional()
    .describe('Its markers, lines and areas, #rrggbb; a colour of the palette by position when absent'),
};

export const layerInput = z.discriminatedUnion('kind', [
  z
    .object({
      ...layerBase,
      kind: z.literal('points_of_interest'),
      categories: z
        .array(poiCategorySchema)
        .max(POI_CATEGORIES.length)
        .optional()
        .describe('All when absent'),
    })
    .describe("The business's points of interest (its depots, hubs, lockers, sites)"),
  z
    .object({ ...layerBase, kind: z.literal('address_book') })
    .describe("The business's own address book entries that have a point (never customers' books)"),
  z
    .object({
      ...layerBase,
      kind: z.literal('dataset'),
      dataset_id: z.int().positive(),
      q: z.string().trim().min(2).max(200).optional(),
      where: z.record(z.string(), conditionInput).optional(),
      near: z
        .object({
          lat: z.number().min(-90).max(90),
          lng: z.number().min(-180).max(180),
          radius_m: z.number().positive().max(20_000_000),
        })
        .optional(),
      public_fields: z
        .array(z.string().max(40))
        .max(10)
        .default([])
        .describe(
          'Number, boolean, date and enum fields a published map shows beside each point; nothing else is ever shown there',
        ),
    })
    .describe("A dataset's placed records matching a search (as search_dataset_records filters them)"),
  z
    .object({
      ...layerBase,
      kind: z.literal('sites'),
      include: z
        .array(z.enum(['warehouses', 'depots']))
        .min(1)
        .max(2)
        .default(['warehouses', 'depots']),
    })
    .describe("The business's warehouses and depots"),
  z
    .object({
      ...layerBase,
      kind: z.literal('service_zones'),
      zone_ids: z.array(z.int().positive()).max(MAX_ZONES).optional().describe('All zones when absent'),
    })
    .describe("The business's service zones"),
  z
    .object({ ...layerBase, kind: z.literal('routes') })
    .describe("Today's routes (the business's time zone): their stops and lines"),
  z
    .object({
      ...layerBase,
      kind: z.literal('drivers'),
      within_minutes: z
        .int()
        .min(1)
        .max(1440)
        .default(120)
        .describe('Positions older than this are left out'),
    })
    .describe("The drivers' last reported positions"),
]);
export type LayerDefinition = z.output<typeof layerInput> & { colour: string };

export const layersInput = z
  .array(layerInput)
  .max(MAX_LAYERS)
  .superRefine((layers, ctx) => {
    const seen = new Set<string>();
    layers.forEach((layer, index) => {
      if (seen.has(layer.key)) {
        ctx.addIssue({ code: 'custom', path: [index, 'key'], ...fieldIssue('unique', { field: 'key' }) });
      }
      seen.add(layer.key);
    });
  })
  .describe(`The layers in drawing order, the first at the bottom; at most ${MAX_LAYERS}`);

/** Colours layers get by position when they name none. */
const PALETTE = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7ea4', '#57606a'];

export function withColours(layers: ReadonlyArray<z.output<typeof layerInput>>): LayerDefinition[] {
  return layers.map((layer, index) => ({
    ...layer,
    colour: layer.colour ?? PALETTE[index % PALETTE.length]!,
  }));
}

// ----- service zones: GeoJSON (RFC 7946) checked strictly -----

/** A position: longitude, latitude (and an altitude, kept as given). */
const position = z
  .array(z.number())
  .min(2)
  .max(3)
  .superRefine((at, ctx) => {
    if (Math.abs(at[0]!) > 180) ctx.addIssue({ code: 'custom', path: [0], ...fieldIssue('longitude') });
    if (Math.abs(at[1]!) > 90) ctx.addIssue({ code: 'custom', path: [1], ...fieldIssue('latitude') });
  });

/** A linear ring: at least four positions, the last the same as the first. */
const ring = z
  .array(position)
  .min(4, fieldMessage('ring_positions'))
  .superRefine((positions, ctx) => {
    const first = positions[0];
    const last = positions.at(-1);
    if (positions.length >= 4 && first && last && !(first[0] === last[0] && first[1] === last[1])) {
      ctx.addIssue({ code: 'custom', path: [positions.length - 1], ...fieldIssue('ring_closed') });
    }
  });

const polygonCoordinates = z.array(ring).min(1);

function countVertices(polygons: number[][][][]): number {
  return polygons.reduce((sum, rings) => sum + rings.reduce((n, r) => n + r.length, 0), 0);
}

export const zoneGeometryInput = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('Polygon'), coordinates: polygonCoordinates }),
    z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(polygonCoordinates).min(1) }),
  ])
  .superRefine((geometry, ctx) => {
    if (verticesOf(geometry) > MAX_ZONE_VERTICES) {
      ctx.addIssue({
        code: 'custom',
        path: ['coordinates'],
        ...fieldIssue('zone_vertices', { max: MAX_ZONE_VERTICES }),
      });
    }
  })
  .describe(
    `A GeoJSON Polygon or MultiPolygon (RFC 7946): closed rings, longitude first, at most ${MAX_ZONE_VERTICES} positions`,
  );
export type ZoneGeometry = z.output<typeof zoneGeometryInput>;

export function verticesOf(geometry: ZoneGeometry): number {
  return countVertices(geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates);
}

// ----- the sites that may frame a published map -----

/**
 * A site's origin as CSP frame-ancestors names it: http or https, a host, an optional port, no
 * path, query, fragment or credentials. Written back in its normal form (lower-case host).
 */
export const embedOrigin = z
  .string()
  .max(200)
  .transform((text, ctx) => {
    const origin = originOf(text);
    if (origin === null) {
      ctx.addIssue({ code: 'custom', ...fieldIssue('site_origin') });
      return z.NEVER;
    }
    return origin;
  });

function originOf(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  // Only the origin itself: "https://shop.example" or "https://shop.example/", never a path.
  if (url.pathname !== '/' || !/^https?:\/\/[^/?#]+\/?$/i.test(text)) return null;
  if (!url.hostname || url.hostname.includes('*')) return null;
  return url.origin;
}

export const embedOriginsInput = z
  .array(embedOrigin)
  .max(MAX_EMBED_ORIGINS)
  .transform((origins) => [...new Set(origins)])
  .describe(
    `Origins of the sites that may frame the published map (https://shop.example.com), at most ${MAX_EMBED_ORIGINS}; none: it may be framed by no site`,
  );
