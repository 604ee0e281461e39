// A custom map's script (served by src/doors/pages/maps.ts, with Leaflet and its marker clusters
// before it): draws the layers the page holds as GeoJSON, in their colours, with the map's style.
// It fetches nothing; it writes text through Leaflet's tooltips, given as text nodes.
(() => {
  const data = JSON.parse(document.getElementById('map-data').textContent);
  const map = L.map('map', { attributionControl: Boolean(data.tiles), zoomSnap: 0.5 });
  if (data.tiles) {
    // Tile servers ask to know which site loads their tiles; the page itself sends no referrer.
    L.tileLayer(data.tiles.url, {
      attribution: data.tiles.attribution,
      maxZoom: 19,
      referrerPolicy: 'strict-origin-when-cross-origin',
    }).addTo(map);
  }
  map.setView([20, 0], 2);

  /** What a feature is called, if anything: its name, else its label (beside it with `labels`). */
  const titleOf = (properties) => properties.name ?? properties.label ?? '';
  const textNode = (value) => document.createTextNode(String(value));
  const bounds = L.latLngBounds([]);

  for (const layer of data.layers) {
    const points = data.style.clustering
      ? L.markerClusterGroup({ showCoverageOnHover: false })
      : L.layerGroup();
    const drawn = L.geoJSON(layer.geojson, {
      // Leaflet styles every shape of the layer with this, points included.
      style: (feature) =>
        feature.geometry.type === 'Point'
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
        const properties = feature.properties ?? {};
        const title = titleOf(properties);
        if (title !== '') {
          shape.bindTooltip(
            textNode(title),
            data.style.labels ? { permanent: true, direction: 'right' } : {},
          );
        } else if (properties.status) {
          shape.bindTooltip(textNode(properties.status));
        }
      },
    });
    drawn.eachLayer((shape) => {
      if (shape instanceof L.CircleMarker) points.addLayer(shape);
      else shape.addTo(map);
      if (shape.getBounds) bounds.extend(shape.getBounds());
      else if (shape.getLatLng) bounds.extend(shape.getLatLng());
    });
    points.addTo(map);
  }
  if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
  document.body.dataset.mapDrawn = String(data.layers.length);
  document.body.dataset.drawn = String(data.layers.length);
})();
