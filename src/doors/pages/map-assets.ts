import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/** A package's files the pages load, from the npm package the service depends on. */
function packageAssets(name: string, files: readonly string[]) {
  const root = path.dirname(require.resolve(`${name}/package.json`));
  const version: string = require(`${name}/package.json`).version;
  return { root, files, base: `/assets/${name}/${version}` };
}

const LEAFLET = packageAssets('leaflet', [
  'dist/leaflet.js',
  'dist/leaflet.css',
  ...readdirSync(path.join(path.dirname(require.resolve('leaflet/package.json')), 'dist', 'images')).map(
    (image) => `dist/images/${image}`,
  ),
]);
const CLUSTERS = packageAssets('leaflet.markercluster', [
  'dist/leaflet.markercluster.js',
  'dist/MarkerCluster.css',
  'dist/MarkerCluster.Default.css',
]);

/** Where the pages load Leaflet and its marker clusters from: this service, never a CDN. */
const MAP_ASSETS = {
  stylesheets: [
    `${LEAFLET.base}/dist/leaflet.css`,
    `${CLUSTERS.base}/dist/MarkerCluster.css`,
    `${CLUSTERS.base}/dist/MarkerCluster.Default.css`,
  ],
  scripts: [`${LEAFLET.base}/dist/leaflet.js`, `${CLUSTERS.base}/dist/leaflet.markercluster.js`],
} as const;

/** The raster tiles under the pages' maps (MAP_TILES_URL); none: a plain background. */
export type MapTiles = { url: string; attribution: string } | undefined;

/** What a page drawing a map with its own `script` loads, and where its images may come from. */
export function mapPageAssets(script: string, tiles: MapTiles) {
  const tileOrigin = tiles ? new URL(tiles.url.split('{')[0]!).origin : undefined;
  return {
    assets: { stylesheets: MAP_ASSETS.stylesheets, scripts: [...MAP_ASSETS.scripts, script] },
    imageSources: ["'self'", 'data:', ...(tileOrigin ? [tileOrigin] : [])],
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

/**
 * Serves Leaflet's and its marker clusters' scripts, stylesheets and images from the npm packages,
 * so a map page works offline and its policy allows scripts from this origin only.
 */
export function registerMapAssets(app: FastifyInstance): void {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const assets of [LEAFLET, CLUSTERS]) {
    for (const file of assets.files) {
      const type = TYPES[path.extname(file)];
      if (type)
        files.set(`${assets.base}/${file}`, { body: readFileSync(path.join(assets.root, file)), type });
    }
  }
  app.get('/assets/*', (request, reply) => {
    const file = files.get(request.url.split('?')[0]!);
    if (!file) return reply.callNotFound();
    // The path names the version, so a file never changes under its address.
    return reply
      .type(file.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  });
}
