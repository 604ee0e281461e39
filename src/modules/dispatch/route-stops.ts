import type { OperationContext } from '../../platform/catalog/operation.ts';

/** Which routes' stops changed, told in the change's own transaction once its stops are written. */
export interface RouteStopsChange {
  businessId: number;
  routeIds: readonly number[];
  /** A rebuild dissolves these routes (their orders are planned again elsewhere), and deletes them next. */
  dissolved?: boolean;
}

/**
 * A module above dispatch that follows the stops of routes (packing's load plans, docs/loading.md):
 * told when a route's stops are added, moved, taken off or completed, inside the change's
 * transaction, so whatever it writes commits or rolls back with the change. Dispatch does not know
 * who listens; the composition root registers them.
 *
 * Every change of stops holds its routes' rows (locked for update, or updated) before it tells,
 * so a listener that reads a route's stops holding its row for share (DispatchService
 * stopsOfRoutes, `hold`) either sees a change committed or is told of it after it commits, and
 * takes its own locks after the route's, never before.
 */
export interface RouteStopsListener {
  routeStopsChanged(ctx: OperationContext, change: RouteStopsChange): Promise<void>;
}

/** The listeners of one dispatch module, told in the order they were registered. */
export class RouteStopsListeners {
  private readonly listeners: RouteStopsListener[] = [];

  add(listener: RouteStopsListener): void {
    this.listeners.push(listener);
  }

  async tell(ctx: OperationContext, change: RouteStopsChange): Promise<void> {
    if (change.routeIds.length === 0) return;
    for (const listener of this.listeners) await listener.routeStopsChanged(ctx, change);
  }
}
