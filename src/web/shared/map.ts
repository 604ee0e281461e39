import L from 'leaflet';
import 'leaflet/dist/leaflet.css';

export { L };

export type Tiles = { url: string; attribution: string } | null;

/**
 * A Leaflet map drawn on canvas (thousands of stops stay fast), over the deployment's raster tiles.
 * Tiles that cannot be loaded (no internet, a tile server down) leave the plain background, and
 * `onTilesLost` says so once, so the reader knows why the streets are missing.
 */
export function createMap(element: HTMLElement, tiles: Tiles, onTilesLost: () => void): L.Map {
  const map = L.map(element, {
    attributionControl: tiles !== null,
    zoomSnap: 0.5,
    preferCanvas: true,
    keyboard: true,
  });
  if (tiles) {
    let lost = false;
    L.tileLayer(tiles.url, {
      attribution: tiles.attribution,
      maxZoom: 19,
      // Tile servers (OpenStreetMap's among them) ask to know which site loads their tiles; the
      // page itself sends no referrer, so each tile sends this origin only.
      referrerPolicy: 'strict-origin-when-cross-origin',
    } as L.TileLayerOptions)
      .on('tileerror', () => {
        if (lost) return;
        lost = true;
        onTilesLost();
      })
      .addTo(map);
  }
  map.setView([20, 0], 2);
  return map;
}
