import { type ApiError, answer } from '../shared/api.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import { OrderChat } from './chat.ts';
import type { ConsoleContext } from './context.ts';
import { OrderActions } from './order-actions.ts';
import { OrderHistory, ProofOfDelivery } from './order-history.ts';
import type { OrderDetail, SectionProps } from './order-section.ts';
import type { ConsoleKey } from './texts/index.ts';

/**
 * The panel's sections, top to bottom. A part that shows more of the order (its chat, ...) adds
 * its component here; each reads what it needs by itself from the order it is handed.
 */
const SECTIONS = [OrderFacts, OrderParcels, ProofOfDelivery, OrderActions, OrderHistory];

function readOrder(context: ConsoleContext, orderId: number) {
  return answer(context.api.GET('/v1/client/orders/{order_id}', { params: { path: { order_id: orderId } } }));
}

/** Whether the API lists the order among those that cannot be placed on the map, and which legs. */
async function missingLegs(context: ConsoleContext, order: OrderDetail): Promise<string[]> {
  // An order whose addresses all have coordinates lacks none: no need to ask.
  const places = [order.dropoff, order.pickup].filter((place) => place !== null);
  if (!order.scheduled_date || places.every((place) => place.lat != null && place.lng != null)) return [];
  const found = await answer(
    context.api.GET('/v1/client/orders/needs-location', {
      params: { query: { scheduled_date: order.scheduled_date, per_page: 200 } },
    }),
  );
  return found.orders.find((entry) => entry.order.id === order.id)?.missing ?? [];
}

/** The order chosen on the map, in a list or a search: what it is, and what can be done with it. */
export function OrderPanel(props: { context: ConsoleContext; orderId: number | null }) {
  const { context, orderId } = props;
  const { t } = context;
  const [shown, setShown] = useState<{ order: OrderDetail; missing: string[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  const version = context.live.board?.version;
  useEffect(() => {
    if (orderId === null) return;
    let current = true;
    readOrder(context, orderId)
      .then(async (found) => {
        const missing = await missingLegs(context, found.order).catch(() => []);
        if (!current) return;
        setShown({ order: found.order, missing });
        setFailure(null);
      })
      .catch((error: ApiError) => {
        if (!current) return;
        setShown(null);
        setFailure(error.message);
      });
    return () => {
      current = false;
    };
  }, [orderId, version, reads]);
  const order = shown?.order.id === orderId ? shown.order : null;
  const reread = () => setReads((count) => count + 1);
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
                  ${SECTIONS.map(
                    (Section) =>
                      html`<${Section}
                        context=${context}
                        order=${order}
                        missing=${shown!.missing}
                        reread=${reread}
                      />`,
                  )}`
      }
    </div>
    <${OrderChat} context=${context} orderId=${orderId} />
  </section>`;
}

/** Status, recipient and contact, address and window (the business's local times, as the API gives them). */
function OrderFacts(props: SectionProps) {
  const { context, order } = props;
  const { t } = context;
  const place = order.dropoff ?? order.pickup;
  return html`<dl id="order-facts">
    <dt>${t('status')}</dt>
    <dd data-status=${order.status}>${t(`orderStatus_${order.status}` as ConsoleKey)}</dd>
    ${place?.name ? html`<dt>${t('recipient')}</dt><dd>${place.name}</dd>` : ''}
    ${place?.phone ? html`<dt>${t('phone')}</dt><dd><a href=${`tel:${place.phone}`}>${place.phone}</a></dd>` : ''}
    ${
      place
        ? html`<dt>${t('address')}</dt>
            <dd>${[place.line1, place.line2, place.postal_code, place.city].filter(Boolean).join(', ')}</dd>`
        : ''
    }
    ${order.scheduled_date ? html`<dt>${t('scheduledDay')}</dt><dd>${order.scheduled_date}</dd>` : ''}
    ${
      order.time_window
        ? html`<dt>${t('window')}</dt>
            <dd id="order-window">${order.time_window.start}–${order.time_window.end}</dd>`
        : ''
    }
    ${props.missing.length > 0 ? html`<dt>${t('location')}</dt><dd role="note">${t('locationMissing')}</dd>` : ''}
  </dl>`;
}

/** The order's parcels, each by its tracking number, with its weight and what it holds. */
function OrderParcels(props: SectionProps) {
  const { context, order } = props;
  const { t } = context;
  if (order.packages.length === 0) return '';
  return html`<h4>${t('parcels', { count: order.packages.length })}</h4>
    <ul id="order-parcels" class="list">
      ${order.packages.map(
        (parcel) => html`<li>
          <code>${parcel.tracking_number}</code>
          ${parcel.weight_grams !== null ? ` · ${t('weightKg', { kg: parcel.weight_grams / 1000 })}` : ''}
          ${parcel.description ? ` · ${parcel.description}` : ''}
        </li>`,
      )}
    </ul>`;
}
