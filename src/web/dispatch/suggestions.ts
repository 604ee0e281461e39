import { type ApiError, answer, CONFIRM, type paths } from '../shared/api.ts';
import { html, useEffect, useRef, useState } from '../shared/ui.ts';
import type { ConsoleContext } from './context.ts';
import { buildDay, type PlanEdit } from './plan.ts';

type Suggestion =
  paths['/v1/dispatch/suggestions']['get']['responses'][200]['content']['application/json']['suggestions'][number];

/** The board changes often (positions every few seconds): suggestions are read again at most this often. */
const REFRESH_MS = 5_000;

/**
 * The day's dispatch suggestions (`get_dispatch_suggestions`), each naming its route (a button that
 * selects it) and applied with one action. Shown only where the API answers them (the operations
 * agent family on): a refusal shows nothing.
 */
export function Suggestions(props: { context: ConsoleContext }) {
  const { context } = props;
  const { api, t } = context;
  const board = context.live.board;
  const [found, setFound] = useState<Suggestion[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  // Refused (the family off, the person not staff): not asked again at every board change.
  const refused = useRef(false);

  useEffect(() => {
    if (!board || refused.current) return;
    const date = board.date;
    const read = () => {
      last.current = Date.now();
      answer(api.GET('/v1/dispatch/suggestions', { params: { query: { date } } })).then(
        (answered) => setFound(answered.date === date ? answered.suggestions : null),
        (error: ApiError) => {
          refused.current = error.status === 403 || error.status === 409;
          setFound(null);
        },
      );
    };
    // At most one read per REFRESH_MS, however often the board changes: the last change is read.
    const wait = last.current + REFRESH_MS - Date.now();
    clearTimeout(timer.current);
    if (wait <= 0) read();
    else timer.current = setTimeout(read, wait);
  }, [board?.date, board?.version, asked]);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!found) return '';
  const apply = async (suggestion: Suggestion) => {
    setBusy(suggestion.id);
    try {
      await applied(context, suggestion);
    } finally {
      setBusy(null);
      last.current = 0;
      setAsked((count) => count + 1);
    }
  };
  return html`<section class="card" aria-labelledby="suggestions-heading">
    <h2 id="suggestions-heading">${t('suggestHeading')}</h2>
    <ul id="suggestions" class="list">
      ${found.length === 0 ? html`<li class="meta">${t('suggestEmpty')}</li>` : ''}
      ${found.map((suggestion) => {
        const routeId = suggestion.route_id;
        return html`<li key=${suggestion.id} data-suggestion=${suggestion.kind} data-route=${routeId ?? ''}>
          ${
            routeId !== null && context.live.route(routeId)
              ? html`<button type="button" class="link" onClick=${() => context.selectRoute(routeId)}>
                  <span class="swatch" style=${`background:${context.routeColour(routeId)}`} aria-hidden="true"></span>
                  ${' '}${t('routeLabel', { number: context.routeNumber(routeId) })}
                </button>`
              : ''
          }
          <p>${suggestion.reason.message}</p>
          ${
            suggestion.write === null
              ? html`<p class="meta">${t('suggestNoWrite')}</p>`
              : html`<button type="button" class="small" disabled=${busy !== null} onClick=${() => apply(suggestion)}>
                  ${APPLIED.has(suggestion.write.tool) ? t('suggestApply') : t('suggestPropose')}
                </button>`
          }
        </li>`;
      })}
    </ul>
  </section>`;
}

/**
 * What the console runs for a suggestion's write: the operation its tool names, as the person,
 * directly. Not `propose_dispatch_suggestion`: a proposal made with the session's sign-in cannot
 * be approved with it (the approval queue refuses one's own proposal, OWN_PROPOSAL), so it would
 * take a second person, not one action. The plan edits go through the console's own edit (a dry
 * run, the rules they break confirmed, undo); a write tool the console does not know is proposed.
 */
const APPLIED = new Set([
  'assign_order_to_route',
  'move_route_stop',
  'resequence_route',
  'release_order',
  'build_route',
]);

async function applied(context: ConsoleContext, suggestion: Suggestion): Promise<void> {
  const { api, t } = context;
  const write = suggestion.write!;
  const args = write.arguments as Record<string, unknown>;
  const edit = planEditOf(context, write.tool, args);
  if (edit) {
    await context.edit(edit);
    return;
  }
  context.say(t('working'));
  try {
    if (write.tool === 'release_order') {
      await answer(
        api.POST('/v1/client/orders/{order_id}/release', {
          params: { path: { order_id: Number(args.order_id) }, header: CONFIRM },
        }),
      );
      context.say(t('changeMade'));
    } else if (write.tool === 'build_route') {
      await buildDay(
        api,
        { date: String(args.date), driver_ids: args.driver_ids as number[] },
        { confirmed: true },
      );
      context.say(t('changeMade'));
    } else {
      const date = context.live.board?.date;
      await answer(
        api.POST('/v1/dispatch/suggestions/{suggestion_id}/propose', {
          params: { path: { suggestion_id: suggestion.id } },
          body: date ? { date } : {},
        }),
      );
      context.say(t('suggestProposed'));
    }
  } catch (error) {
    context.say(t('refused', { message: (error as Error).message }));
  }
}

/** The plan edit a write tool names, with what its undo needs read from the board. */
function planEditOf(context: ConsoleContext, tool: string, args: Record<string, unknown>): PlanEdit | null {
  const { edits, live } = context;
  const routeId = Number(args.route_id);
  const route = live.route(routeId);
  const pending = (route?.stops ?? []).filter((stop) => stop.state === 'pending');
  if (!route) return null;
  if (tool === 'assign_order_to_route') {
    return edits.assign(route, Number(args.order_id), args.position as number | undefined);
  }
  if (tool === 'move_route_stop') {
    const orderId = Number(args.order_id);
    const position = pending.findIndex((stop) => stop.order_id === orderId) + 1;
    const target = live.route(Number(args.to_route_id ?? routeId));
    if (position === 0 || !target) return null;
    return edits.move({ route, position }, orderId, {
      route: target,
      position: args.position as number | undefined,
    });
  }
  if (tool === 'resequence_route') {
    return edits.optimise(
      route,
      pending.map((stop) => ({ order_id: stop.order_id, leg: stop.leg })),
    );
  }
  return null;
}
