import { type Api, answer } from '../shared/api.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import type { ConsoleContext } from './context.ts';

export type FoundOrder = Awaited<ReturnType<typeof findOrders>>['orders'][number];

/** A search waits for the typing to pause, so a word typed is one request, not one per letter. */
const PAUSE_MS = 250;
/** The API's longest search (get_orders). */
export const SEARCH_MAX = 100;

function findOrders(api: Api, date: string, words: string) {
  return answer(
    api.GET('/v1/client/orders', {
      params: { query: { scheduled_date: date, search: words, per_page: 50 } },
    }),
  );
}

/**
 * The day's orders the API finds for the words (get_orders' search: reference, tracking number,
 * name, address); null while there are no words, or until the first answer.
 */
export function useOrderSearch(api: Api, date: string | undefined, query: string) {
  const [found, setFound] = useState<{ words: string; orders: FoundOrder[] } | null>(null);
  const words = query.trim();
  useEffect(() => {
    if (!date || !words) {
      setFound(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      findOrders(api, date, words)
        .then((answered) => current && setFound({ words, orders: answered.orders }))
        .catch(() => current && setFound({ words, orders: [] }));
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [date, words]);
  return words && found ? found : null;
}

/** The orders found: each opens in the order panel, and selects its route when it is on one. */
export function SearchResults(props: {
  context: ConsoleContext;
  found: { words: string; orders: readonly FoundOrder[] } | null;
}) {
  const { context, found } = props;
  const { t } = context;
  if (!found) return '';
  return html`<section class="card" aria-labelledby="found-heading">
    <h2 id="found-heading">${t('searchResults')}</h2>
    <ul id="found" class="list" aria-live="polite">
      ${
        found.orders.length === 0
          ? html`<li class="meta">${t('noMatch', { query: found.words })}</li>`
          : found.orders.map((order) => {
              const place = order.dropoff ?? order.pickup;
              return html`<li data-order=${order.id}>
                <button
                  type="button"
                  class="link"
                  onClick=${() => {
                    context.openOrder(order.id);
                    if (order.route_id !== null) context.selectRoute(order.route_id);
                  }}
                >
                  ${order.order_ref}
                </button>
                ${' '}
                <span class="meta">
                  ${[place?.name, place?.line1].filter(Boolean).join(' · ')}
                  ${order.route_id !== null ? ` · ${t('routeLabel', { number: context.routeNumber(order.route_id) })}` : ''}
                </span>
              </li>`;
            })
      }
    </ul>
  </section>`;
}
