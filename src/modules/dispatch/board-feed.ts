import type pg from 'pg';
import type { OperationContext } from '../../platform/catalog/operation.ts';
import { ChannelListener } from '../../platform/db/channel.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEventHandler } from '../../platform/events.ts';
import { type EventSink, EventStream, type StreamEvent } from '../../platform/http/event-stream.ts';
import type { BoardAnswer, BoardQuery, BoardState, DispatchBoard } from './board.ts';
import { deltasBetween, snapshotEvent } from './board-deltas.ts';
import { BOARD_CHANNEL, type BoardChange, changeOf, signalBoard } from './board-repository.ts';

/** Live boards one business may have open on one instance at once. */
export const MAX_STREAMS_PER_BUSINESS = 20;
/**
 * Every open board is read whole this often: what time alone changes (a window ending, a driver
 * falling silent) and what no event tells (a time window edited) reaches it then.
 */
export const REFRESH_MS = 30_000;

interface PendingChange {
  all: boolean;
  routeIds: Set<number>;
  orderIds: Set<number>;
}

/** One client of a live board: its messages wait until the door attaches, then go straight out. */
class Subscriber {
  /** Gets the next answer whole, as its first message. */
  fresh = true;
  private queue: StreamEvent[] = [];
  private sink: EventSink | undefined;

  attach(sink: EventSink): void {
    this.sink = sink;
    for (const event of this.queue) sink.send(event);
    this.queue = [];
  }

  send(events: readonly StreamEvent[]): void {
    if (this.sink) for (const event of events) this.sink.send(event);
    else this.queue.push(...events);
  }

  end(): void {
    this.sink?.end();
  }
}

/** The boards open on this instance, one per business, date, depot and threshold, shared by their clients. */
interface View {
  key: string;
  query: BoardQuery;
  timeZone: string;
  state?: BoardState;
  answer?: BoardAnswer;
  subscribers: Set<Subscriber>;
  pending: PendingChange;
  /** The run that will take `pending`, not started yet. */
  next?: Promise<void>;
  /** Runs go one after the other, so every client gets the answers in the order they were read. */
  chain: Promise<void>;
  timer: NodeJS.Timeout;
}

/**
 * Live boards: a client gets the board's whole answer, then the small messages that keep it true
 * (board-deltas.ts). Writers signal what they touched in their transaction (signalBoard); every
 * instance hears it once the transaction commits (PostgreSQL LISTEN/NOTIFY) and, for the boards
 * its clients have open, reads again only the routes touched (and the waiting orders, when orders
 * changed), then sends each client what changed. Changes heard while a read runs are taken
 * together by the next one.
 */
export class BoardFeed {
  private db: Db | undefined;
  private pool: pg.Pool | undefined;
  private readonly views = new Map<string, View>();
  private readonly listener = new ChannelListener(
    BOARD_CHANNEL,
    (payload) => this.heard(payload),
    // Anything said while nobody listened is unknown: every open board is read again.
    () => {
      for (const view of this.views.values()) this.refreshLater(view, { all: true });
    },
  );

  constructor(private readonly board: DispatchBoard) {}

  /**
   * Every status change of an order (any door) tells the boards of its business (registered with
   * the domain events), in the change's own transaction.
   */
  static readonly hearsOrders: DomainEventHandler = async (ctx, events) => {
    const byBusiness = new Map<number, number[]>();
    for (const event of events) {
      if (event.kind !== 'order.created' && event.kind !== 'order.status_changed') continue;
      const orderId = event.data.order_id;
      if (typeof orderId !== 'number') continue;
      byBusiness.set(event.businessId, [...(byBusiness.get(event.businessId) ?? []), orderId]);
    }
    for (const [businessId, orderIds] of byBusiness) await signalBoard(ctx.db, businessId, { orderIds });
  };

  /** The database background reads go to (the composition root connects it). */
  connect(db: Db): void {
    this.db = db;
  }

  /**
   * Lets live boards hear changes committed by any instance: while one is open, a connection of
   * the pool listens (none is held while no board is open).
   */
  async start(pool: pg.Pool): Promise<void> {
    this.pool = pool;
    if (this.views.size > 0) await this.listener.start(pool);
  }

  /** Stops listening and ends every open board. */
  async stop(): Promise<void> {
    this.pool = undefined;
    await this.listener.stop();
    for (const view of this.views.values()) {
      clearInterval(view.timer);
      for (const subscriber of view.subscribers) subscriber.end();
    }
    this.views.clear();
  }

  /** Whether changes committed elsewhere reach this instance's boards now (else: the periodic reads only). */
  get listening(): boolean {
    return this.listener.listening;
  }

  /**
   * A live board for the caller: read afresh before this answers (a refusal or a failed read is
   * the call's), its whole answer the stream's first message.
   */
  async open(ctx: OperationContext, query: BoardQuery): Promise<EventStream> {
    const open = [...this.views.values()]
      .filter((view) => view.query.businessId === query.businessId)
      .reduce((count, view) => count + view.subscribers.size, 0);
    if (open >= MAX_STREAMS_PER_BUSINESS) {
      throw new AppError('TOO_MANY_STREAMS', { params: { limit: MAX_STREAMS_PER_BUSINESS } });
    }
    this.db ??= ctx.db as Db;
    const view = await this.viewOf(query);
    const subscriber = new Subscriber();
    view.subscribers.add(subscriber);
    try {
      // Listening before the first read, so that nothing committed after it goes unheard.
      if (this.pool && !this.listener.listening) await this.listener.start(this.pool);
      await this.refresh(view, { all: true });
    } catch (error) {
      this.leave(view, subscriber);
      throw error;
    }
    return new EventStream((sink) => {
      subscriber.attach(sink);
      return () => this.leave(view, subscriber);
    });
  }

  private async viewOf(query: BoardQuery): Promise<View> {
    const key = JSON.stringify([query.businessId, query.date, query.depotId, query.silentMinutes]);
    const existing = this.views.get(key);
    if (existing) return existing;
    const timeZone = await this.board.timeZone(this.db!, query.businessId);
    const raced = this.views.get(key);
    if (raced) return raced;
    const view: View = {
      key,
      query,
      timeZone,
      subscribers: new Set(),
      pending: { all: false, routeIds: new Set(), orderIds: new Set() },
      chain: Promise.resolve(),
      timer: setInterval(() => this.refreshLater(view, { all: true }), REFRESH_MS),
    };
    view.timer.unref();
    this.views.set(key, view);
    return view;
  }

  private leave(view: View, subscriber: Subscriber): void {
    view.subscribers.delete(subscriber);
    if (view.subscribers.size > 0 || this.views.get(view.key) !== view) return;
    clearInterval(view.timer);
    this.views.delete(view.key);
    if (this.views.size === 0) void this.listener.stop();
  }

  private heard(payload: string): void {
    const change = changeOf(payload);
    if (!change) return;
    for (const view of this.views.values()) {
      if (view.query.businessId === change.businessId) this.refreshLater(view, change);
    }
  }

  /** A refresh nobody waits on: a failed one is tried again whole at the next. */
  private refreshLater(view: View, change: BoardChange): void {
    this.refresh(view, change).catch(() => {});
  }

  /** Adds the change to what the view's next run takes, and answers that run. */
  private refresh(view: View, change: BoardChange): Promise<void> {
    const pending = view.pending;
    pending.all ||= change.all === true;
    for (const id of change.routeIds ?? []) pending.routeIds.add(id);
    for (const id of change.orderIds ?? []) pending.orderIds.add(id);
    if (!view.next) {
      const next = view.chain.then(() => {
        view.next = undefined;
        return this.run(view);
      });
      view.next = next;
      view.chain = next.catch(() => {});
    }
    return view.next;
  }

  private async run(view: View): Promise<void> {
    if (this.views.get(view.key) !== view) return;
    const change = view.pending;
    view.pending = { all: false, routeIds: new Set(), orderIds: new Set() };
    let state: BoardState;
    try {
      state = await this.stateAfter(view, change);
    } catch (error) {
      view.pending.all = true;
      throw error;
    }
    const answer = this.board.assemble(state, view.query, view.timeZone);
    const deltas = view.answer ? deltasBetween(view.answer, answer) : [];
    view.state = state;
    view.answer = answer;
    for (const subscriber of view.subscribers) {
      if (subscriber.fresh) {
        subscriber.fresh = false;
        subscriber.send([snapshotEvent(answer)]);
      } else if (deltas.length > 0) {
        subscriber.send(deltas);
      }
    }
  }

  /** The view's state after a change: read whole, or only what the change touched. */
  private async stateAfter(view: View, change: PendingChange): Promise<BoardState> {
    const db = this.db!;
    const before = view.state;
    if (!before || change.all) return this.board.read(db, view.query);
    const touched = new Set(change.routeIds);
    for (const route of before.routes.values()) {
      if (route.stops.some((stop) => change.orderIds.has(stop.order_id))) touched.add(route.id);
    }
    // A driver's last position shows on each of their routes.
    const drivers = new Set([...touched].flatMap((id) => before.routes.get(id)?.driver.id ?? []));
    for (const route of before.routes.values()) if (drivers.has(route.driver.id)) touched.add(route.id);
    const waiting = change.orderIds.size > 0;
    if (touched.size === 0 && !waiting) return before;
    const part = await this.board.read(db, view.query, { routeIds: [...touched], waiting });
    const routes = new Map(before.routes);
    for (const id of touched) {
      const route = part.routes.get(id);
      if (route) routes.set(id, route);
      else routes.delete(id);
    }
    return {
      version: Math.max(before.version, part.version),
      routes,
      waiting: waiting ? part.waiting : before.waiting,
      counts: waiting ? part.counts : before.counts,
    };
  }
}
