import { L } from '../shared/map.ts';
import type { Board, BoardException, BoardRoute } from './board.ts';

export interface MapHandlers {
  openOrder(orderId: number): void;
  selectRoute(routeId: number): void;
}

export interface Depot {
  id: number;
  name: string;
  lat: number;
  lng: number;
}

/** A stop's ring by its state: to do white, arrived dark, done hollow, failed red (not by colour alone). */
const RING = {
  pending: { color: '#ffffff', weight: 2, fillOpacity: 1 },
  arrived: { color: '#1b1e23', weight: 3, fillOpacity: 1 },
  done: { color: '#1b1e23', weight: 1, fillOpacity: 0.35 },
  failed: { color: '#b3261e', weight: 4, fillOpacity: 1 },
} as const;

interface Seen {
  stops: readonly BoardRoute['stops'][number][];
  position: BoardRoute['position'];
  colour: string;
  emphasis: boolean;
}

const same = (seen: Seen, now: Seen) =>
  seen.position === now.position &&
  seen.colour === now.colour &&
  seen.emphasis === now.emphasis &&
  seen.stops.length === now.stops.length &&
  seen.stops.every((stop, index) => stop === now.stops[index]);

/** A route as drawn: what it showed, its layer, and its markers to update in place. */
interface DrawnRoute {
  /**
   * What the route showed: its stops and position (the live board replaces a stop or a position
   * that changed, so the same objects are the same content), its colour and emphasis. The same,
   * nothing is drawn again.
   */
  seen: Seen;
  /** Its line and the places of its markers, its colour and emphasis: unchanged, markers are updated in place. */
  shape: string;
  layer: L.LayerGroup;
  stops: Map<string, { marker: L.CircleMarker; group: L.FeatureGroup; state: string; label: string }>;
  position: { marker: L.Marker; lat: number; lng: number; label: string } | null;
}

/**
 * The board on a Leaflet map: each route a line in its colour through its stops, the driver's last
 * position, the depots, and the orders waiting (unplanned, held) where they are placed. A route is
 * drawn again only when what it shows changed, and when only its stops' states or its driver's
 * position did, those markers are updated in place: the canvas then repaints their few pixels, not
 * the whole map (Leaflet's canvas redraws the box around what changed).
 */
export class BoardMap {
  private readonly routes = new Map<number, DrawnRoute>();
  private readonly waiting = L.layerGroup();
  private waitingSignature = '';
  private readonly depots = L.layerGroup();
  private fitted = false;

  constructor(
    private readonly map: L.Map,
    private readonly handlers: MapHandlers,
    private readonly label: { stop(route: BoardRoute, stop: BoardRoute['stops'][number]): string },
  ) {
    this.waiting.addTo(map);
    this.depots.addTo(map);
  }

  showDepots(depots: readonly Depot[], label: (depot: Depot) => string): void {
    this.depots.clearLayers();
    for (const depot of depots) {
      L.marker([depot.lat, depot.lng], {
        icon: L.divIcon({ className: 'depot-marker', html: '', iconSize: [18, 18] }),
        keyboard: false,
      })
        .bindTooltip(label(depot))
        .addTo(this.depots);
    }
  }

  /**
   * Draws the routes `visible` keeps, in their colours, with `selected` on top and thicker; the
   * view fits the day the first time it has something to show (before the markers are placed, so
   * they are placed once).
   */
  draw(
    board: Board,
    colours: ReadonlyMap<number, string>,
    visible: ReadonlySet<number>,
    waiting: readonly BoardException[],
    selected: number | null,
    driverLabel: (route: BoardRoute) => string,
  ): void {
    for (const [id, drawn] of this.routes) {
      if (!visible.has(id)) {
        drawn.layer.remove();
        this.routes.delete(id);
      }
    }
    const shown = board.routes.filter((route) => visible.has(route.id));
    const placed = waiting.filter((exception) => exception.order?.lat != null && exception.order.lng != null);
    if (!this.fitted) {
      const points: L.LatLngExpression[] = [];
      for (const route of shown) {
        for (const stop of route.stops)
          if (stop.lat !== null && stop.lng !== null) points.push([stop.lat, stop.lng]);
        if (route.position) points.push([route.position.lat, route.position.lng]);
      }
      // The routes frame the view; waiting orders do when there is no route (one far away, badly
      // placed, would otherwise shrink the day to a dot).
      if (points.length === 0)
        for (const exception of placed) points.push([exception.order!.lat!, exception.order!.lng!]);
      if (points.length > 0) {
        this.map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 15 });
        this.fitted = true;
      }
    }
    for (const route of shown) {
      const colour = colours.get(route.id) ?? '#5b6470';
      const emphasis = route.id === selected;
      const seen: Seen = { stops: [...route.stops], position: route.position, colour, emphasis };
      const drawn = this.routes.get(route.id);
      if (drawn && same(drawn.seen, seen)) continue;
      const located = route.stops.filter((stop) => stop.lat !== null && stop.lng !== null);
      const shape = JSON.stringify([
        located.map((stop) => [stop.order_id, stop.leg, stop.lat, stop.lng]),
        route.position !== null,
        colour,
        emphasis,
      ]);
      if (drawn?.shape === shape) {
        this.update(drawn, route, located, driverLabel);
        drawn.seen = seen;
        continue;
      }
      drawn?.layer.remove();
      this.routes.set(route.id, {
        ...this.build(route, located, colour, emphasis, driverLabel),
        seen,
        shape,
      });
    }
    const waitingSignature = JSON.stringify(
      placed.map((exception) => [exception.key, exception.kind, exception.order]),
    );
    if (waitingSignature !== this.waitingSignature) {
      this.waitingSignature = waitingSignature;
      this.waiting.clearLayers();
      for (const exception of placed) {
        const order = exception.order!;
        L.circleMarker([order.lat!, order.lng!], {
          radius: 7,
          color: '#1b1e23',
          weight: 2,
          dashArray: '3 3',
          fillColor: exception.kind === 'order_held' ? '#f4a259' : '#ffffff',
          fillOpacity: 1,
        })
          .bindTooltip(order.order_ref)
          .on('click', () => this.handlers.openOrder(order.order_id))
          .addTo(this.waiting);
      }
    }
    // What is drawn, counted on the map's element: for tests and for tools reading the page.
    let stops = 0;
    let done = 0;
    let lines = 0;
    for (const route of shown) {
      let located = 0;
      for (const stop of route.stops) {
        if (stop.lat === null) continue;
        located++;
        if (stop.state === 'done') done++;
      }
      stops += located;
      if (located > 1) lines++;
    }
    const element = this.map.getContainer();
    element.dataset.stops = String(stops);
    element.dataset.stopsDone = String(done);
    element.dataset.lines = String(lines);
    element.dataset.waiting = String(this.waiting.getLayers().length);
    element.dataset.colours = JSON.stringify(
      Object.fromEntries(shown.map((route) => [route.id, colours.get(route.id)])),
    );
  }

  /**
   * A route's layer: its line, its stops and its driver's position, on top of the others. The stops
   * share one tooltip and one click handler, on their group (Leaflet hands it the stop under the
   * pointer): a day's 1,800 markers then carry no tooltip or listeners of their own.
   */
  private build(
    route: BoardRoute,
    located: BoardRoute['stops'],
    colour: string,
    emphasis: boolean,
    driverLabel: (route: BoardRoute) => string,
  ): Omit<DrawnRoute, 'seen' | 'shape'> {
    const layer = L.layerGroup();
    if (located.length > 1) {
      L.polyline(
        located.map((stop) => [stop.lat!, stop.lng!] as [number, number]),
        { color: colour, weight: emphasis ? 6 : 4, opacity: emphasis ? 1 : 0.8 },
      )
        .on('click', () => this.handlers.selectRoute(route.id))
        .addTo(layer);
    }
    const stops: DrawnRoute['stops'] = new Map();
    const byMarker = new Map<L.Layer, { orderId: number; label: string }>();
    const group = L.featureGroup()
      .bindTooltip((marker) => byMarker.get(marker)?.label ?? '')
      .on('click', (event) => {
        const stop = byMarker.get((event as L.LeafletEvent & { layer: L.Layer }).layer);
        if (stop) this.handlers.openOrder(stop.orderId);
      });
    for (const stop of located) {
      const marker = L.circleMarker([stop.lat!, stop.lng!], {
        radius: emphasis ? 8 : 6,
        fillColor: colour,
        ...RING[stop.state],
      }).addTo(group);
      const shown = {
        marker,
        group,
        orderId: stop.order_id,
        state: stop.state,
        label: this.label.stop(route, stop),
      };
      stops.set(`${stop.order_id}:${stop.leg}`, shown);
      byMarker.set(marker, shown);
    }
    group.addTo(layer);
    let position: DrawnRoute['position'] = null;
    if (route.position) {
      const { lat, lng } = route.position;
      const label = driverLabel(route);
      const marker = L.marker([lat, lng], { icon: driverIcon(colour), keyboard: false })
        .bindTooltip(label)
        .on('click', () => this.handlers.selectRoute(route.id))
        .addTo(layer);
      position = { marker, lat, lng, label };
    }
    layer.addTo(this.map);
    return { layer, stops, position };
  }

  /** A drawn route whose line and markers stay: its stops' rings and labels, its driver's place and label. */
  private update(
    drawn: DrawnRoute,
    route: BoardRoute,
    located: BoardRoute['stops'],
    driverLabel: (route: BoardRoute) => string,
  ): void {
    for (const stop of located) {
      const shown = drawn.stops.get(`${stop.order_id}:${stop.leg}`)!;
      if (shown.state !== stop.state) {
        shown.marker.setStyle(RING[stop.state]);
        shown.state = stop.state;
      }
      const label = this.label.stop(route, stop);
      if (shown.label !== label) {
        shown.label = label;
        // The group's tooltip reads the label when it opens; one open now shows the new one.
        shown.group.getTooltip()?.update();
      }
    }
    const position = drawn.position;
    if (position && route.position) {
      const { lat, lng } = route.position;
      if (position.lat !== lat || position.lng !== lng) {
        position.marker.setLatLng([lat, lng]);
        position.lat = lat;
        position.lng = lng;
      }
      const label = driverLabel(route);
      if (position.label !== label) {
        position.marker.setTooltipContent(label);
        position.label = label;
      }
    }
  }

  /** Fits the view again at the next draw (another day). */
  refit(): void {
    this.fitted = false;
  }

  /** The route whose stop or line is nearest a point of the map's container (an order dropped there). */
  nearestRoute(board: Board, visible: ReadonlySet<number>, point: L.Point): number | null {
    let best: { id: number; pixels: number } | null = null;
    for (const route of board.routes) {
      if (!visible.has(route.id)) continue;
      for (const stop of route.stops) {
        if (stop.lat === null || stop.lng === null) continue;
        const pixels = this.map.latLngToContainerPoint([stop.lat, stop.lng]).distanceTo(point);
        if (!best || pixels < best.pixels) best = { id: route.id, pixels };
      }
    }
    return best && best.pixels <= 60 ? best.id : null;
  }
}

/**
 * A driver's place: an element above the canvas, not a circle on it. Drivers move all day; moving
 * an element is a transform the compositor applies, where a circle on the canvas made Leaflet
 * clear and redraw every stop and line in the box between its old and new places. The colour is
 * set through the element's style object (allowed by the page's CSP, which refuses style text).
 */
function driverIcon(colour: string): L.DivIcon {
  const dot = document.createElement('div');
  dot.style.borderColor = colour;
  return L.divIcon({ className: 'driver-marker', html: dot, iconSize: [20, 20] });
}
