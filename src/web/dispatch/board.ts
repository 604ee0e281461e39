import type { paths } from '../shared/api.ts';

/** The day's board as `get_dispatch_board` answers it, and its parts. */
export type Board =
  paths['/v1/client/dispatch/board']['get']['responses'][200]['content']['application/json'];
export type BoardRoute = Board['routes'][number];
export type BoardStop = BoardRoute['stops'][number];
export type BoardException = Board['exceptions'][number];

/** The kinds of the board's live messages (docs/dispatch-board.md). */
const KINDS = [
  'snapshot',
  'route',
  'route_removed',
  'stop',
  'position',
  'exception',
  'exception_cleared',
  'totals',
] as const;
type Kind = (typeof KINDS)[number];

export type Connection = 'loading' | 'live' | 'reconnecting';

/**
 * The board of a day, kept live: the stream's snapshot, then each change applied as it commits.
 * Listeners hear once for the messages that arrive together (a stop completed sends four).
 */
export class LiveBoard {
  board: Board | null = null;
  connection: Connection = 'loading';
  private stream: EventSource | null = null;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();
  /** The board's routes by id: the lists ask for a route once per exception (hundreds) at each draw. */
  private routesById = new Map<number, BoardRoute>();

  constructor(private readonly address: string) {}

  /** Follows a day's board (empty: today); a lost stream reconnects and starts over. */
  follow(date: string): void {
    this.stream?.close();
    this.board = null;
    this.routesById.clear();
    this.connection = 'loading';
    this.changed();
    const query = date ? `?date=${encodeURIComponent(date)}` : '';
    const stream = new EventSource(`${this.address}${query}`);
    this.stream = stream;
    for (const kind of KINDS) {
      stream.addEventListener(kind, (event) => {
        // When the message reached the page (User Timing, read by bench/dispatch-console.ts); the
        // latest only, so a console open all day keeps no growing list.
        performance.clearMarks('board-message');
        performance.mark('board-message', { detail: kind });
        this.apply(kind, JSON.parse((event as MessageEvent).data));
      });
    }
    stream.addEventListener('error', () => {
      this.connection = 'reconnecting';
      this.changed();
    });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  route(id: number): BoardRoute | undefined {
    return this.routesById.get(id);
  }

  /**
   * An order's reference as the board knows it: on a stop (of `routeId` first: hundreds of late
   * stops each searching the day's stops added up), else among the waiting orders; else `#id`.
   */
  orderRef(orderId: number, routeId: number | null = null): string {
    const own = routeId !== null ? this.route(routeId) : undefined;
    for (const route of own ? [own, ...(this.board?.routes ?? [])] : (this.board?.routes ?? [])) {
      const stop = route.stops.find((candidate) => candidate.order_id === orderId);
      if (stop) return stop.order_ref;
    }
    const waiting = this.board?.exceptions.find((exception) => exception.order?.order_id === orderId);
    return waiting?.order?.order_ref ?? `#${orderId}`;
  }

  // biome-ignore lint/suspicious/noExplicitAny: each kind of message has its own shape (docs/dispatch-board.md)
  private apply(kind: Kind, message: any): void {
    if (kind === 'snapshot') {
      this.board = message as Board;
      this.routesById = new Map(this.board.routes.map((route) => [route.id, route]));
      this.connection = 'live';
      // A whole board is told at once: only the deltas after it are gathered.
      if (this.pending) clearTimeout(this.pending);
      this.pending = null;
      for (const listener of this.listeners) listener();
      return;
    }
    const board = this.board;
    if (!board || message.version < board.version) return;
    if (kind === 'route') {
      const index = board.routes.findIndex((route) => route.id === message.route.id);
      const route: BoardRoute = index < 0 ? message.route : { ...board.routes[index]!, ...message.route };
      if (index < 0) board.routes.push(route);
      else board.routes[index] = route;
      this.routesById.set(route.id, route);
    } else if (kind === 'route_removed') {
      board.routes = board.routes.filter((route) => route.id !== message.route_id);
      this.routesById.delete(message.route_id);
    } else if (kind === 'stop') {
      const route = this.route(message.route_id);
      const index =
        route?.stops.findIndex(
          (stop) => stop.order_id === message.stop.order_id && stop.leg === message.stop.leg,
        ) ?? -1;
      if (route && index >= 0) route.stops[index] = message.stop;
    } else if (kind === 'position') {
      const route = this.route(message.route_id);
      if (route) route.position = message.position;
    } else if (kind === 'exception') {
      // An exception that changed keeps its place: the list does not jump under the dispatcher.
      const index = board.exceptions.findIndex((held) => held.key === message.exception.key);
      board.exceptions =
        index < 0
          ? [...board.exceptions, message.exception]
          : board.exceptions.map((held, at) => (at === index ? message.exception : held));
    } else if (kind === 'exception_cleared') {
      board.exceptions = board.exceptions.filter((held) => held.key !== message.key);
    } else if (kind === 'totals') {
      board.totals = message.totals;
    }
    if (message.version > board.version) board.version = message.version;
    this.changed();
  }

  /**
   * Tells the listeners once, in a task after the messages already received. Not in an animation
   * frame: the map's canvas asks for a frame of its own when it is drawn, and asked from inside a
   * frame it would wait for the next one; from a task, the lists and the map show in the same frame.
   */
  private changed(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      for (const listener of this.listeners) listener();
    }, 0);
  }
}
