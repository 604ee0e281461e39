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

/**
 * The board on a Leaflet map: each route a line in its colour through its stops, the driver's last
 * position, the depots, and the orders waiting (unplanned, held) where they are placed. A route is
 * drawn again only when what it shows changed, so a live change redraws one route, not the day.
 */
export class BoardMap {
  private readonly routes = new Map<number, { signature: string; layer: L.LayerGroup }>();
  private readonly waiting = L.layerGroup();
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
   * view fits the day the first time it has something to show.
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
    const points: L.LatLngExpression[] = [];
    for (const route of board.routes) {
      if (!visible.has(route.id)) continue;
      const colour = colours.get(route.id) ?? '#5b6470';
      const signature = JSON.stringify([route.stops, route.position, colour, route.id === selected]);
      const located = route.stops.filter((stop) => stop.lat !== null && stop.lng !== null);
      for (const stop of located) points.push([stop.lat!, stop.lng!]);
      if (route.position) points.push([route.position.lat, route.position.lng]);
      const drawn = this.routes.get(route.id);
      if (drawn?.signature === signature) continue;
      drawn?.layer.remove();
      const layer = L.layerGroup();
      const emphasis = route.id === selected;
      if (located.length > 1) {
        L.polyline(
          located.map((stop) => [stop.lat!, stop.lng!] as [number, number]),
          { color: colour, weight: emphasis ? 6 : 4, opacity: emphasis ? 1 : 0.8 },
        )
          .on('click', () => this.handlers.selectRoute(route.id))
          .addTo(layer);
      }
      for (const stop of located) {
        L.circleMarker([stop.lat!, stop.lng!], {
          radius: emphasis ? 8 : 6,
          fillColor: colour,
          ...RING[stop.state],
        })
          .bindTooltip(this.label.stop(route, stop))
          .on('click', () => this.handlers.openOrder(stop.order_id))
          .addTo(layer);
      }
      if (route.position) {
        L.circleMarker([route.position.lat, route.position.lng], {
          radius: 10,
          color: colour,
          weight: 4,
          fillColor: '#ffd166',
          fillOpacity: 1,
        })
          .bindTooltip(driverLabel(route))
          .on('click', () => this.handlers.selectRoute(route.id))
          .addTo(layer);
      }
      layer.addTo(this.map);
      this.routes.set(route.id, { signature, layer });
    }
    this.waiting.clearLayers();
    for (const exception of waiting) {
      const order = exception.order;
      if (order?.lat == null || order.lng == null) continue;
      points.push([order.lat, order.lng]);
      L.circleMarker([order.lat, order.lng], {
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
    // What is drawn, counted on the map's element: for tests and for tools reading the page.
    const shown = board.routes.filter((route) => visible.has(route.id));
    const located = shown.flatMap((route) => route.stops.filter((stop) => stop.lat !== null));
    const element = this.map.getContainer();
    element.dataset.stops = String(located.length);
    element.dataset.stopsDone = String(located.filter((stop) => stop.state === 'done').length);
    element.dataset.lines = String(
      shown.filter((route) => route.stops.filter((stop) => stop.lat !== null).length > 1).length,
    );
    element.dataset.waiting = String(this.waiting.getLayers().length);
    if (!this.fitted && points.length > 0) {
      this.map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 15 });
      this.fitted = true;
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
