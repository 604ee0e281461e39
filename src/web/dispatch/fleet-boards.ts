import { type Api, answer, type paths } from '../shared/api.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import type { Board } from './board.ts';
import type { ConsoleContext, FleetBoardEntry } from './context.ts';

/** A fleet of the business, as get_fleets answers it. */
export type Fleet =
  paths['/v1/client/fleets']['get']['responses'][200]['content']['application/json']['fleets'][number];

/**
 * The business's fleets and the routes of the day on their route boards, read from each fleet's
 * board (get_route_board): the dispatch board leaves out a route open on one (it has no driver).
 * Read again when the day's routes come or go (a route published leaves the dispatch board, one
 * claimed or pulled back joins it), which the live board tells.
 */
export function useFleetBoards(api: Api, board: Board | null) {
  const [fleets, setFleets] = useState<Fleet[]>([]);
  const [entries, setEntries] = useState<Map<number, FleetBoardEntry>>(new Map());
  useEffect(() => {
    answer(api.GET('/v1/client/fleets'))
      .then((found) => setFleets(found.fleets))
      .catch(() => setFleets([]));
  }, []);
  const date = board?.date;
  const routes = (board?.routes ?? []).map((route) => `${route.id}:${route.driver.id}`).join();
  useEffect(() => {
    if (!date || fleets.length === 0) return;
    let current = true;
    Promise.all(
      fleets.map((fleet) =>
        answer(
          api.GET('/v1/client/fleets/{fleet_id}/board', {
            params: { path: { fleet_id: fleet.id }, query: { date } },
          }),
        )
          .then((found) => found.routes.map((route) => ({ ...route, fleet: fleet.name })))
          .catch(() => []),
      ),
    ).then((found) => {
      if (current) setEntries(new Map(found.flat().map((entry) => [entry.route_id, entry])));
    });
    return () => {
      current = false;
    };
  }, [date, fleets, routes]);
  return { fleets, entries };
}

/** The routes waiting, open, on a fleet's board: each taken back to its driver with a button. */
export function FleetBoardsSection(props: {
  context: ConsoleContext;
  entries: ReadonlyMap<number, FleetBoardEntry>;
}) {
  const { context } = props;
  const { t } = context;
  const open = [...props.entries.values()].filter((entry) => entry.state === 'open');
  return html`<section class="card" aria-labelledby="fleet-boards-heading">
    <h2 id="fleet-boards-heading">${t('fleetBoards')}</h2>
    <ul id="fleet-boards" class="list">
      ${
        open.length === 0
          ? html`<li class="meta">${t('noFleetBoards')}</li>`
          : open.map(
              (entry) => html`<li key=${entry.route_id} data-board-route=${entry.route_id}>
                <span>
                  ${t('routeLabel', { number: context.routeNumber(entry.route_id) || `#${entry.route_id}` })} ·
                  ${t('onFleetBoard', { fleet: entry.fleet })} · ${t('boardOpen')}
                </span>
                <button
                  type="button"
                  class="small secondary"
                  onClick=${() => context.edit(context.edits.pullBack(entry.route_id, entry.fleet_id))}
                >
                  ${t('pullBack')}
                </button>
              </li>`,
            )
      }
    </ul>
  </section>`;
}
