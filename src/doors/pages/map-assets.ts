/** The raster tiles under the pages' maps (MAP_TILES_URL); none: a plain background. */
export type MapTiles = { url: string; attribution: string } | undefined;

/** Where a map page's images may come from: this origin (its app's images), data:, the tiles' origin. */
export function mapImageSources(tiles: MapTiles): string[] {
  return ["'self'", 'data:', ...(tiles ? [new URL(tiles.url.split('{')[0]!).origin] : [])];
}
