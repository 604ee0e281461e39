import { type Api, type ApiError, answer } from '../shared/api.ts';
import { Dialog } from '../shared/dialog.ts';
import { AppHeader } from '../shared/layout.ts';
import { createMap, L } from '../shared/map.ts';
import type { PageData } from '../shared/page-data.ts';
import { routeColour } from '../shared/palette.ts';
import type { Translate } from '../shared/texts.ts';
import {
  html,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from '../shared/ui.ts';
import { AgentPanel } from './agent-panel.ts';
import { type BoardRoute, LiveBoard } from './board.ts';
import type { ConsoleContext } from './context.ts';
import { PlaceDialog, RouteActionsDialog, ViolationsDialog } from './dialogs.ts';
import { type Fleet, FleetBoardsSection, useFleetBoards } from './fleet-boards.ts';
import { dropped, ExceptionList, RouteRow, WaitingRow } from './lists.ts';
import { BoardMap, type Depot } from './map-layer.ts';
import { NewOrderDialog } from './new-order.ts';
import { OrderPanel } from './order-panel.ts';
import { SEARCH_MAX, SearchResults, useOrderSearch } from './order-search.ts';
import { pickPoint } from './pick-point.ts';
import { attempt, buildDay, type PlanEdit, planEdits, type Violation } from './plan.ts';
import { Suggestions } from './suggestions.ts';
import type { ConsoleKey } from './texts/index.ts';

type DialogState =
  | { kind: 'assign'; orderId: number; ref: string }
  | { kind: 'move'; route: BoardRoute; orderId: number; ref: string; position: number }
  | { kind: 'route'; routeId: number }
  | { kind: 'violations'; edit: PlanEdit; violations: Violation[]; settle: (made: boolean) => void }
  | { kind: 'rebuild' }
  | { kind: 'newOrder' };

interface Notice {
  text: string;
  undo?: () => Promise<unknown>;
}

type Options = {
  drivers: Array<{ id: number; name: string }>;
  depots: Depot[];
};

/** The dispatcher's console: the live board on a map and in lists, and the plan's edits. */
export function Console(props: { data: PageData<ConsoleKey>; api: Api; t: Translate<ConsoleKey> }) {
  const { data, api, t } = props;
  const live = useMemo(() => new LiveBoard(`${data.base}/api/v1/client/dispatch/board`), []);
  const edits = useMemo(() => planEdits(api), []);
  const [, setRevision] = useState(0);
  const [date, setDate] = useState(new URLSearchParams(location.search).get('date') ?? '');
  const [selected, setSelected] = useState<number | null>(null);
  const [orderId, setOrderId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [tilesLost, setTilesLost] = useState(false);
  const [filters, setFilters] = useState({ driver: '', status: '', kind: '', query: '' });
  const [options, setOptions] = useState<Options>({ drivers: [], depots: [] });
  const mapElement = useRef<HTMLDivElement>(null);
  const boardMap = useRef<BoardMap | null>(null);
  const leaflet = useRef<L.Map | null>(null);

  useEffect(() => live.subscribe(() => setRevision((revision) => revision + 1)), []);
  useEffect(() => live.follow(date), [date]);
  const board = live.board;
  // Plan edits (console-plan): the fleets and the routes on their route boards.
  const fleetBoards = useFleetBoards(api, board);

  // The day's drivers and depots, for the driver picker and the map.
  useEffect(() => {
    if (!board) return;
    answer(api.GET('/v3/client/build-route/options', { params: { query: { date: board.date } } }))
      .then((found) => setOptions({ drivers: found.drivers, depots: found.depots }))
      .catch(() => setOptions({ drivers: [], depots: [] }));
  }, [board?.date]);

  const colours = useMemo(() => new Map<number, string>(), [board?.date]);
  const numbers = useMemo(() => new Map<number, number>(), [board?.date]);
  for (const route of board?.routes ?? []) {
    if (!numbers.has(route.id)) {
      numbers.set(route.id, numbers.size + 1);
      colours.set(route.id, routeColour(numbers.size - 1));
    }
  }

  const say = useCallback((text: string, undo?: () => Promise<unknown>) => setNotice({ text, undo }), []);
  const refused = (error: ApiError) =>
    say(error.code === 'CONCURRENT_UPDATE' ? t('planChanged') : t('refused', { message: error.message }));

  const context: ConsoleContext = {
    data,
    api,
    t,
    live,
    edits,
    openOrder: setOrderId,
    selectRoute: setSelected,
    say,
    routeNumber: (id) => numbers.get(id) ?? 0,
    routeColour: (id) => colours.get(id) ?? '#5b6470',
    pickPoint: async () => {
      say(t('pickHint'));
      const point = await pickPoint(leaflet.current);
      setNotice(null);
      return point;
    },
    boardEntry: (id) => fleetBoards.entries.get(id),
    edit: async (edit) => {
      say(t('working'));
      let outcome = await attempt(edit, false);
      if (outcome.kind === 'needsConfirmation') {
        const confirmed = await new Promise<boolean>((settle) =>
          setDialog({ kind: 'violations', edit, violations: outcome.violations, settle }),
        );
        setDialog(null);
        if (!confirmed) {
          setNotice(null);
          return false;
        }
        outcome = await attempt(edit, true);
      }
      if (outcome.kind === 'refused') {
        refused(outcome.error!);
        return false;
      }
      const { undo } = edit;
      say(t('changeMade'), undo && (() => undo(outcome.made)));
      return true;
    },
  };

  // The search is get_orders' (matching is the server's rule): routes and waiting orders narrow to those found.
  const found = useOrderSearch(api, board?.date, filters.query);
  const visible = useMemo(() => {
    const shown = new Set<number>();
    for (const route of board?.routes ?? []) {
      if (filters.driver && String(route.driver.id) !== filters.driver) continue;
      if (filters.status && route.status !== filters.status) continue;
      if (filters.kind && !board!.exceptions.some((e) => e.kind === filters.kind && e.route_id === route.id))
        continue;
      if (found && !found.orders.some((order) => order.route_id === route.id)) continue;
      shown.add(route.id);
    }
    return shown;
  }, [board, board?.version, filters, found]);
  const exceptions = (board?.exceptions ?? []).filter(
    (exception) =>
      exception.kind !== 'order_unplanned' &&
      (!filters.kind || exception.kind === filters.kind) &&
      (exception.route_id === null || visible.has(exception.route_id)),
  );
  const waiting = (board?.exceptions ?? []).filter(
    (exception) =>
      (exception.kind === 'order_unplanned' || exception.kind === 'order_held') &&
      (!found || found.orders.some((order) => order.id === exception.order_id)),
  );

  useEffect(() => {
    if (!mapElement.current || boardMap.current) return;
    const map = createMap(mapElement.current, data.tiles, () => setTilesLost(true));
    leaflet.current = map;
    boardMap.current = new BoardMap(
      map,
      { openOrder: setOrderId, selectRoute: setSelected },
      { stop: (_route, stop) => `${stop.order_ref} · ${t(stop.state)}` },
    );
  }, []);
  useEffect(() => {
    boardMap.current?.showDepots(options.depots, (depot) => t('depotLabel', { name: depot.name }));
  }, [options.depots]);
  // Drawn before the browser paints (a layout effect): the map changes in the same frame as the
  // lists, not a frame later.
  useLayoutEffect(() => {
    if (!board || !boardMap.current) return;
    boardMap.current.draw(board, colours, visible, waiting, selected, (route) =>
      t('driverAt', {
        driver: route.driver.name,
        age: t('minutesAgo', { minutes: Math.round((route.position?.age_seconds ?? 0) / 60) }),
      }),
    );
    document.body.dataset.drawn = String(board.version);
    // The draw's end (User Timing, read by bench/dispatch-console.ts), the latest only.
    performance.clearMarks('board-drawn');
    performance.mark('board-drawn', { detail: board.version });
  });

  const dropOnMap = (event: DragEvent) => {
    const order = dropped(event);
    if (!order || !board || !boardMap.current || !mapElement.current) return;
    event.preventDefault();
    const box = mapElement.current.getBoundingClientRect();
    const point = L.point(event.clientX - box.left, event.clientY - box.top);
    const routeId = boardMap.current.nearestRoute(board, visible, point);
    if (routeId === null) return;
    const target = live.route(routeId);
    const source = order.from && live.route(order.from.routeId);
    if (!target || (order.from && !source)) return;
    void context.edit(
      order.from && source
        ? edits.move({ route: source, position: order.from.position }, order.orderId, { route: target })
        : edits.assign(target, order.orderId),
    );
  };

  const routes = (board?.routes ?? []).filter((route) => visible.has(route.id));
  return html`
    <${AppHeader} data=${data} t=${t} title=${t('title')} />
    <form
      id="day"
      class="filters"
      onSubmit=${(event: Event) => {
        event.preventDefault();
        const field = (event.currentTarget as HTMLFormElement).elements.namedItem('date') as HTMLInputElement;
        boardMap.current?.refit();
        setDate(field.value);
      }}
    >
      <label for="date">${t('day')}</label>
      <input id="date" name="date" type="date" required value=${board?.date ?? date} />
      <button type="submit">${t('show')}</button>
      <p id="live" class="meta" role="status">${t(live.connection)}</p>
    </form>
    <${FiltersForm}
      context=${context}
      filters=${filters}
      setFilters=${setFilters}
      onRebuild=${() => setDialog({ kind: 'rebuild' })}
      onNewOrder=${() => setDialog({ kind: 'newOrder' })}
    />
    <p class="meta">${t('observedOnly')}</p>
    ${tilesLost ? html`<p class="meta" role="note">${t('tilesLost')}</p>` : ''}
    <div class="console">
      <div
        id="map"
        ref=${mapElement}
        role="region"
        aria-label=${t('map')}
        onDragOver=${(event: DragEvent) => event.preventDefault()}
        onDrop=${dropOnMap}
      ></div>
      <div class="side">
        <${SearchResults} context=${context} found=${found} />
        <${OrderPanel} context=${context} orderId=${orderId} />
        <section class="card" aria-labelledby="exceptions-heading">
          <h2 id="exceptions-heading">${t('exceptions')}</h2>
          <${ExceptionList} context=${context} exceptions=${exceptions} routes=${board?.routes ?? []} />
        </section>
        <section class="card" aria-labelledby="routes-heading">
          <h2 id="routes-heading">${t('routes')}</h2>
          <ul id="routes" class="list">
            ${
              routes.length === 0
                ? html`<li class="meta">${t('noRoutes')}</li>`
                : routes.map(
                    (route) => html`<${RouteRow}
                      key=${route.id}
                      context=${context}
                      route=${route}
                      selected=${route.id === selected}
                      onActions=${(chosen: BoardRoute) => setDialog({ kind: 'route', routeId: chosen.id })}
                      onMove=${(chosen: BoardRoute, id: number, ref: string, position: number) =>
                        setDialog({ kind: 'move', route: chosen, orderId: id, ref, position })}
                    />`,
                  )
            }
          </ul>
        </section>
        <${FleetBoardsSection} context=${context} entries=${fleetBoards.entries} />
        <section class="card" aria-labelledby="unplanned-heading">
          <h2 id="unplanned-heading">${t('unplanned')}</h2>
          <p class="meta">${t('dragHint')}</p>
          <ul id="unplanned" class="list">
            ${
              waiting.length === 0
                ? html`<li class="meta">${t('noUnplanned')}</li>`
                : waiting.map(
                    (exception) => html`<${WaitingRow}
                      key=${exception.key}
                      context=${context}
                      exception=${exception}
                      onAssign=${(id: number, ref: string) => setDialog({ kind: 'assign', orderId: id, ref })}
                    />`,
                  )
            }
          </ul>
        </section>
        <${Suggestions} context=${context} />
        <${AgentPanel} context=${context} />
      </div>
    </div>
    ${
      notice
        ? html`<div class="notice" role="status" aria-live="polite">
            <span>${notice.text}</span>
            ${
              notice.undo
                ? html`<button
                    type="button"
                    class="small secondary"
                    onClick=${async () => {
                      const undo = notice.undo!;
                      setNotice({ text: t('working') });
                      try {
                        await undo();
                        say(t('undone'));
                      } catch (error) {
                        refused(error as ApiError);
                      }
                    }}
                  >
                    ${t('undo')}
                  </button>`
                : ''
            }
          </div>`
        : ''
    }
    ${renderDialog(context, dialog, setDialog, routes, options, fleetBoards.fleets)}
  `;
}

function renderDialog(
  context: ConsoleContext,
  dialog: DialogState | null,
  setDialog: (dialog: DialogState | null) => void,
  routes: readonly BoardRoute[],
  options: Options,
  fleets: readonly Fleet[],
) {
  const { t, edits } = context;
  const close = () => setDialog(null);
  if (!dialog) return '';
  if (dialog.kind === 'newOrder') {
    const date = context.live.board?.date;
    return date ? html`<${NewOrderDialog} context=${context} date=${date} onClose=${close} />` : '';
  }
  if (dialog.kind === 'violations') {
    return html`<${ViolationsDialog}
      context=${context}
      violations=${dialog.violations}
      onConfirm=${() => dialog.settle(true)}
      onClose=${() => dialog.settle(false)}
    />`;
  }
  if (dialog.kind === 'assign') {
    return html`<${PlaceDialog}
      context=${context}
      title=${t('assignOrder', { order: dialog.ref })}
      routes=${routes.filter((route) => route.status !== 'finished')}
      onClose=${close}
      onPlace=${(routeId: number, position: number | undefined) => {
        close();
        const route = routes.find((candidate) => candidate.id === routeId);
        if (route) void context.edit(edits.assign(route, dialog.orderId, position));
      }}
    />`;
  }
  if (dialog.kind === 'move') {
    return html`<${PlaceDialog}
      context=${context}
      title=${t('moveStopOf', { order: dialog.ref })}
      routes=${routes.filter((route) => route.status !== 'finished')}
      initialRoute=${dialog.route.id}
      onClose=${close}
      onPlace=${(routeId: number, position: number | undefined) => {
        close();
        const route = routes.find((candidate) => candidate.id === routeId);
        if (!route) return;
        void context.edit(
          edits.move({ route: dialog.route, position: dialog.position }, dialog.orderId, {
            route,
            ...(position ? { position } : {}),
          }),
        );
      }}
    />`;
  }
  if (dialog.kind === 'route') {
    const route = context.live.route(dialog.routeId);
    if (!route) return '';
    return html`<${RouteActionsDialog}
      context=${context}
      route=${route}
      drivers=${options.drivers}
      fleets=${fleets}
      onClose=${close}
    />`;
  }
  return html`<${RebuildDialog} context=${context} onClose=${close} />`;
}

/** Builds the day again with an objective; locked and started routes stay as they are. */
function RebuildDialog(props: { context: ConsoleContext; onClose: () => void }) {
  const { context } = props;
  const { t, api } = context;
  const [objective, setObjective] = useState<'balanced' | 'fewest_vehicles' | 'least_distance'>('balanced');
  const submit = async (event: Event) => {
    event.preventDefault();
    const date = context.live.board?.date;
    if (!date) return;
    context.say(t('working'));
    props.onClose();
    try {
      const built = await buildDay(api, { date, objective }, { confirmed: false });
      context.say(t('rebuildDone', { routes: built.routes.length, unplanned: built.unassigned.length }));
    } catch (error) {
      context.say(t('refused', { message: (error as Error).message }));
    }
  };
  return html`<${Dialog} title=${t('rebuild')} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" onSubmit=${submit}>
      <label for="objective">${t('objective')}</label>
      <select id="objective" value=${objective} onChange=${(event: Event) => setObjective((event.target as HTMLSelectElement).value as typeof objective)}>
        <option value="balanced">${t('objective_balanced')}</option>
        <option value="fewest_vehicles">${t('objective_fewest_vehicles')}</option>
        <option value="least_distance">${t('objective_least_distance')}</option>
      </select>
      <p class="meta">${t('rebuildHint')}</p>
      <button type="submit">${t('rebuild')}</button>
    </form>
  <//>`;
}

/** The filters, drawn again only when they, the language or the day's drivers changed. */
const FiltersForm = memo(Filters, ({ context, filters }) => [
  filters,
  context.t,
  (context.live.board?.routes ?? []).map((route) => `${route.driver.id}:${route.driver.name}`).join('|'),
]);

/** Filters by driver, route status and exception kind, and a search of the day's orders. */
function Filters(props: {
  context: ConsoleContext;
  filters: { driver: string; status: string; kind: string; query: string };
  setFilters: (filters: { driver: string; status: string; kind: string; query: string }) => void;
  onRebuild: () => void;
  onNewOrder: () => void;
}) {
  const { context, filters, setFilters } = props;
  const { t } = context;
  const board = context.live.board;
  const drivers = new Map((board?.routes ?? []).map((route) => [route.driver.id, route.driver.name]));
  const set = (field: keyof typeof filters) => (event: Event) =>
    setFilters({ ...filters, [field]: (event.target as HTMLInputElement | HTMLSelectElement).value });
  const kinds = ['stop_late', 'failed_attempt', 'route_not_started', 'driver_silent', 'order_held'] as const;
  return html`<form class="filters" role="search" aria-label=${t('filters')} onSubmit=${(event: Event) => event.preventDefault()}>
    <label for="filter-driver">${t('driverFilter')}</label>
    <select id="filter-driver" value=${filters.driver} onChange=${set('driver')}>
      <option value="">${t('allDrivers')}</option>
      ${[...drivers].map(([id, name]) => html`<option value=${id}>${name}</option>`)}
    </select>
    <label for="filter-status">${t('statusFilter')}</label>
    <select id="filter-status" value=${filters.status} onChange=${set('status')}>
      <option value="">${t('allStatuses')}</option>
      ${(['planned', 'started', 'finished'] as const).map((status) => html`<option value=${status}>${t(status)}</option>`)}
    </select>
    <label for="filter-kind">${t('kindFilter')}</label>
    <select id="filter-kind" value=${filters.kind} onChange=${set('kind')}>
      <option value="">${t('allKinds')}</option>
      ${kinds.map((kind) => html`<option value=${kind}>${t(`kind_${kind}`)}</option>`)}
    </select>
    <label for="filter-query">${t('search')}</label>
    <input
      id="filter-query"
      type="search"
      maxlength=${SEARCH_MAX}
      value=${filters.query}
      placeholder=${t('searchHint')}
      onInput=${set('query')}
    />
    <button type="button" class="secondary" onClick=${props.onRebuild}>${t('rebuild')}</button>
    <button type="button" id="new-order-button" onClick=${props.onNewOrder}>${t('newOrder')}</button>
  </form>`;
}
