import { timeOfDay } from '../shared/texts.ts';
import { html, memo, useRef } from '../shared/ui.ts';
import type { BoardException, BoardRoute } from './board.ts';
import { MessageDriver } from './chat.ts';
import type { ConsoleContext } from './context.ts';

/** What a drag carries: an order, and the route and place it comes from when it is on one. */
export const DRAG_TYPE = 'application/x-tms-order';
export interface Dragged {
  orderId: number;
  from?: { routeId: number; position: number };
}

export function dragStart(event: DragEvent, dragged: Dragged): void {
  event.dataTransfer?.setData(DRAG_TYPE, JSON.stringify(dragged));
  if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
}

export function dropped(event: DragEvent): Dragged | null {
  const raw = event.dataTransfer?.getData(DRAG_TYPE);
  return raw ? (JSON.parse(raw) as Dragged) : null;
}

const acceptDrop = (event: DragEvent) => {
  if (event.dataTransfer?.types.includes(DRAG_TYPE)) event.preventDefault();
};

/** An exception in the board's words for its kind; a button opening its order, or its route. */
export function ExceptionItem(props: { context: ConsoleContext; exception: BoardException }) {
  const { context, exception } = props;
  const { t, live } = context;
  const route = exception.route_id !== null ? live.route(exception.route_id) : undefined;
  const line = t(exception.kind, {
    order: orderRef(context, exception),
    driver: route?.driver.name ?? '',
    time: route?.departure ?? '',
    since: exception.since ? timeOfDay(exception.since, context.data.lang) : '—',
  });
  const open = () => {
    if (exception.order_id !== null) context.openOrder(exception.order_id);
    if (exception.route_id !== null) context.selectRoute(exception.route_id);
  };
  return html`<li data-exception=${exception.kind}>
    <button type="button" class="link" onClick=${open}>${line}</button>
  </li>`;
}

function orderRef(context: ConsoleContext, exception: BoardException): string {
  if (exception.order) return exception.order.order_ref;
  return exception.order_id === null ? '' : context.live.orderRef(exception.order_id, exception.route_id);
}

/** An order waiting for a route: dragged onto a route (list or map), or assigned with its button. */
export function WaitingItem(props: {
  context: ConsoleContext;
  exception: BoardException;
  onAssign: (orderId: number, ref: string) => void;
}) {
  const { context, exception } = props;
  const orderId = exception.order_id!;
  const ref = exception.order?.order_ref ?? `#${orderId}`;
  return html`<li
    class="waiting"
    draggable="true"
    data-order=${orderId}
    onDragStart=${(event: DragEvent) => dragStart(event, { orderId })}
  >
    <button type="button" class="link" onClick=${() => context.openOrder(orderId)}>
      ${exception.kind === 'order_held' ? context.t('order_held', { order: ref }) : ref}
    </button>
    ${
      exception.kind === 'order_unplanned'
        ? html`<button type="button" class="small" onClick=${() => props.onAssign(orderId, ref)}>
            ${context.t('assign')}
          </button>`
        : ''
    }
  </li>`;
}

/**
 * A route of the day: its colour and number, driver, status and counts, the age of its last
 * position; a drop target for orders; its actions; and, when selected, its stops in order, each
 * dragged to another place or route, or moved with its buttons.
 */
export function RouteItem(props: {
  context: ConsoleContext;
  route: BoardRoute;
  selected: boolean;
  onActions: (route: BoardRoute) => void;
  onMove: (route: BoardRoute, orderId: number, ref: string, position: number) => void;
}) {
  const { context, route, selected } = props;
  const { t } = context;
  const number = context.routeNumber(route.id);
  const colour = context.routeColour(route.id);
  const seen = route.position
    ? t('lastSeen', { minutes: Math.round(route.position.age_seconds / 60) })
    : t('neverSeen');
  const drop = (position?: number) => (event: DragEvent) => {
    const order = dropped(event);
    if (!order) return;
    event.preventDefault();
    event.stopPropagation();
    // The routes as drawn: their plan versions are the edit's precondition.
    if (order.from) {
      const source = context.live.route(order.from.routeId);
      if (!source) return;
      const to = { route, ...(position ? { position } : {}) };
      void context.edit(
        context.edits.move({ route: source, position: order.from.position }, order.orderId, to),
      );
    } else {
      void context.edit(context.edits.assign(route, order.orderId, position));
    }
  };
  const pending = route.stops.filter((stop) => stop.state === 'pending');
  const onBoard = context.boardEntry(route.id);
  return html`<li
    class=${`route${selected ? ' selected' : ''}`}
    data-route=${route.id}
    onDragOver=${acceptDrop}
    onDrop=${drop()}
    aria-label=${t('dropHere', { number })}
  >
    <div class="route-head">
      <span class="swatch" style=${`background:${colour}`} aria-hidden="true"></span>
      <button
        type="button"
        class="link"
        aria-expanded=${selected}
        onClick=${() => context.selectRoute(selected ? null : route.id)}
      >
        ${t('routeLabel', { number })} · ${route.driver.name}
      </button>
      <span class="meta" data-on-board=${onBoard?.fleet_id}>
        ${t(route.status)}${route.locked ? ` · ${t('locked')}` : ''}
        ${onBoard ? ` · ${t('onFleetBoard', { fleet: onBoard.fleet })} · ${t('boardClaimed', { driver: route.driver.name })}` : ''}
      </span>
      <button type="button" class="small secondary" data-actions onClick=${() => props.onActions(route)}>
        ${t('routeActions', { number })}
      </button>
      <${MessageDriver} context=${context} route=${route} />
    </div>
    <p class="meta">
      ${t('stops', { done: route.stops_done, failed: route.stops_failed, remaining: route.stops_remaining })} ·
      ${seen}
    </p>
    ${
      selected
        ? html`<ol class="stops" aria-label=${t('stopsOf', { number })}>
            ${route.stops.map((stop) => {
              const position = pending.indexOf(stop) + 1;
              const movable = stop.state === 'pending';
              return html`<li
                data-stop=${stop.order_id}
                draggable=${movable ? 'true' : 'false'}
                onDragStart=${(event: DragEvent) =>
                  dragStart(event, { orderId: stop.order_id, from: { routeId: route.id, position } })}
                onDragOver=${acceptDrop}
                onDrop=${movable ? drop(position) : undefined}
              >
                <button type="button" class="link" onClick=${() => context.openOrder(stop.order_id)}>
                  ${stop.sequence}. ${stop.order_ref}
                </button>
                <span class="meta">${t(stop.state)}${stop.window ? ` · ${stop.window.start}–${stop.window.end}` : ''}</span>
                ${
                  movable
                    ? html`<button
                        type="button"
                        class="small secondary"
                        onClick=${() => props.onMove(route, stop.order_id, stop.order_ref, position)}
                      >
                        ${t('moveStop')}
                      </button>`
                    : ''
                }
              </li>`;
            })}
          </ol>`
        : ''
    }
  </li>`;
}

/**
 * The lists' items drawn again only when what they show changed (./console.ts renders these): a
 * live change redraws the one or two it touched, not the day's hundreds. A board's route object is
 * replaced by a `route` message, and its stops and position are replaced inside it by `stop` and
 * `position` messages; an exception is replaced when it changes.
 */
export const ExceptionRow = memo(ExceptionItem, ({ context, exception }) => [
  exception,
  exception.route_id !== null ? context.live.route(exception.route_id) : undefined,
]);
/** How many exceptions a group holds: a change redraws its group's items, not the day's hundreds. */
const EXCEPTIONS_A_GROUP = 40;

/**
 * Splits the exceptions into groups that keep their members: an exception joins the open group when
 * first seen and stays in it, so clearing or replacing one leaves the other groups as they were.
 * The list's order is kept: consecutive members of a group form one run (a run's key names it).
 */
class ExceptionGroups {
  readonly #groupOf = new Map<string, number>();
  #open = 0;
  #filled = 0;

  split(exceptions: readonly BoardException[]): Array<{ key: string; members: BoardException[] }> {
    // Forgets the exceptions long gone, so a whole day's turnover does not pile up.
    if (this.#groupOf.size > 2 * exceptions.length + EXCEPTIONS_A_GROUP) {
      const present = new Set(exceptions.map((exception) => exception.key));
      for (const key of this.#groupOf.keys()) if (!present.has(key)) this.#groupOf.delete(key);
    }
    const runs: Array<{ key: string; members: BoardException[] }> = [];
    const seen = new Map<number, number>();
    let last = -1;
    for (const exception of exceptions) {
      let group = this.#groupOf.get(exception.key);
      if (group === undefined) {
        if (this.#filled === EXCEPTIONS_A_GROUP) [this.#open, this.#filled] = [this.#open + 1, 0];
        group = this.#open;
        this.#filled++;
        this.#groupOf.set(exception.key, group);
      }
      if (group !== last) {
        const again = seen.get(group) ?? 0;
        seen.set(group, again + 1);
        runs.push({ key: again === 0 ? String(group) : `${group}.${again}`, members: [] });
        last = group;
      }
      runs.at(-1)!.members.push(exception);
    }
    return runs;
  }
}

/** A group of exceptions' items, drawn again only when one of its members or their routes changed. */
const ExceptionGroup = memo(
  (props: { context: ConsoleContext; members: readonly BoardException[] }) =>
    props.members.map(
      (exception) =>
        html`<${ExceptionRow} key=${exception.key} context=${props.context} exception=${exception} />`,
    ),
  ({ context, members }) =>
    members.flatMap((exception) => [
      exception,
      exception.route_id !== null ? context.live.route(exception.route_id) : undefined,
    ]),
);

/**
 * The exceptions list, drawn again only when an exception or a route its items name was replaced:
 * a driver's position, the commonest live change, leaves its hundreds of items alone; a stop done
 * redraws the group of the exception it cleared.
 */
export const ExceptionList = memo(
  (props: {
    context: ConsoleContext;
    exceptions: readonly BoardException[];
    routes: readonly BoardRoute[];
  }) => {
    const { context, exceptions } = props;
    const groups = useRef(new ExceptionGroups()).current;
    return html`<ul id="exceptions" class="list">
      ${
        exceptions.length === 0
          ? html`<li class="meta">${context.t('noExceptions')}</li>`
          : groups
              .split(exceptions)
              .map(
                (run) => html`<${ExceptionGroup} key=${run.key} context=${context} members=${run.members} />`,
              )
      }
    </ul>`;
  },
  ({ exceptions, routes }) => [...exceptions, null, ...routes],
);
/** A waiting order's item, drawn again only when its exception was replaced. */
export const WaitingRow = memo(WaitingItem, ({ exception }) => [exception]);
export const RouteRow = memo(RouteItem, ({ context, route, selected }) => [
  route,
  route.position,
  selected,
  context.routeNumber(route.id),
  context.routeColour(route.id),
  context.boardEntry(route.id),
  // A selected route lists its stops: drawn again at every change.
  selected ? {} : null,
]);
