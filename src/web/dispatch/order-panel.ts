import { type ApiError, answer } from '../shared/api.ts';
import { timeOfDay } from '../shared/texts.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import { OrderChat } from './chat.ts';
import type { ConsoleContext } from './context.ts';

type OrderDetail = Awaited<ReturnType<typeof readOrder>>['order'];

function readOrder(context: ConsoleContext, orderId: number) {
  return answer(context.api.GET('/v1/client/orders/{order_id}', { params: { path: { order_id: orderId } } }));
}

/** The order chosen on the map or in a list: its status, recipient, address and window. */
export function OrderPanel(props: { context: ConsoleContext; orderId: number | null }) {
  const { context, orderId } = props;
  const { t } = context;
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const version = context.live.board?.version;
  useEffect(() => {
    if (orderId === null) return;
    let current = true;
    readOrder(context, orderId)
      .then((found) => {
        if (!current) return;
        setOrder(found.order);
        setFailure(null);
      })
      .catch((error: ApiError) => {
        if (!current) return;
        setOrder(null);
        setFailure(error.message);
      });
    return () => {
      current = false;
    };
  }, [orderId, version]);
  const place = order ? (order.dropoff ?? order.pickup) : null;
  return html`<section class="card" aria-labelledby="order-heading">
    <h2 id="order-heading">${t('order')}</h2>
    <div id="order" aria-live="polite">
      ${
        orderId === null
          ? html`<p class="meta">${t('chooseStop')}</p>`
          : failure
            ? html`<p class="meta">${t('notFound')}</p>`
            : !order
              ? html`<p class="meta">${t('loading')}</p>`
              : html`<h3>${order.order_ref}</h3>
                  <dl>
                    <dt>${t('status')}</dt>
                    <dd>${order.status}</dd>
                    ${place ? html`<dt>${t('recipient')}</dt><dd>${place.name}</dd>` : ''}
                    ${
                      place
                        ? html`<dt>${t('address')}</dt>
                            <dd>${[place.line1, place.postal_code, place.city].filter(Boolean).join(', ')}</dd>`
                        : ''
                    }
                    ${
                      order.time_window
                        ? html`<dt>${t('window')}</dt>
                            <dd>
                              ${timeOfDay(order.time_window.start, context.data.lang)}–${timeOfDay(order.time_window.end, context.data.lang)}
                            </dd>`
                        : ''
                    }
                  </dl>`
      }
    </div>
    <${OrderChat} context=${context} orderId=${orderId} />
  </section>`;
}
