// A custom map's app (served by src/doors/pages/maps.ts): draws the layers the page holds as
// GeoJSON, in their colours, with the map's style. It fetches nothing; its texts are the features'
// own names, given to Leaflet's tooltips as text nodes.
import '../shared/leaflet-global.ts';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import type { Feature } from 'geojson';
import { L } from '../shared/map.ts';

interface MapData {
  tiles: { url: string; attribution: string } | null;
  style: { labels: boolean; clustering: boolean };
  layers: Array<{ key: string; colour: string; geojson: GeoJSON.GeoJsonObject }>;
}

type Clusters = (options: { showCoverageOnHover: boolean }) => L.LayerGroup;

const data = JSON.parse(document.getElementById('map-data')!.textContent!) as MapData;
const map = L.map('map', { attributionControl: Boolean(data.tiles), zoomSnap: 0.5 });
if (data.tiles) {
  // Tile servers ask to know which site loads their tiles; the page itself sends no referrer.
  L.tileLayer(data.tiles.url, {
    attribution: data.tiles.attribution,
    maxZoom: 19,
    referrerPolicy: 'strict-origin-when-cross-origin',
  } as L.TileLayerOptions).addTo(map);
}
map.setView([20, 0], 2);

/** What a feature is called, if anything: its name, else its label (beside it with `labels`). */
const titleOf = (properties: Record<string, unknown>) => String(properties.name ?? properties.label ?? '');
const textNode = (value: unknown) => document.createTextNode(String(value));
const bounds = L.latLngBounds([]);
const clusters = (L as unknown as { markerClusterGroup: Clusters }).markerClusterGroup;

for (const layer of data.layers) {
  const points = data.style.clustering ? clusters({ showCoverageOnHover: false }) : L.layerGroup();
  const drawn = L.geoJSON(layer.geojson, {
    // Leaflet styles every shape of the layer with this, points included.
    style: (feature?: Feature) =>
      feature?.geometry.type === 'Point'
        ? {
            color: '#ffffff',
            weight: 2,
            fillColor: layer.colour,
            fillOpacity: 1,
            className: `feature point layer-${layer.key}`,
          }
        : { color: layer.colour, weight: 3, fillOpacity: 0.15, className: `feature layer-${layer.key}` },
    pointToLayer: (_feature, at) => L.circleMarker(at, { radius: 7 }),
    onEachFeature: (feature, shape) => {
      const properties = (feature.properties ?? {}) as Record<string, unknown>;
      const title = titleOf(properties);
      if (title !== '') {
        shape.bindTooltip(
          textNode(title) as unknown as HTMLElement,
          data.style.labels ? { permanent: true, direction: 'right' } : {},
        );
      } else if (properties.status) {
        shape.bindTooltip(textNode(properties.status) as unknown as HTMLElement);
      }
    },
  });
  drawn.eachLayer((shape) => {
    if (shape instanceof L.CircleMarker) {
      points.addLayer(shape);
      bounds.extend(shape.getLatLng());
    } else {
      shape.addTo(map);
      if (shape instanceof L.Path && 'getBounds' in shape) bounds.extend((shape as L.Polyline).getBounds());
    }
  });
  points.addTo(map);
}
if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
document.body.dataset.mapDrawn = String(data.layers.length);
document.body.dataset.drawn = String(data.layers.length);
