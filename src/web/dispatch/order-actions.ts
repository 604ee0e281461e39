import { ApiError, answer } from '../shared/api.ts';
import { Dialog } from '../shared/dialog.ts';
import { html, useState } from '../shared/ui.ts';
import { AddressFields, type AddressValues, addressInput, NO_ADDRESS } from './address-fields.ts';
import type { SectionProps } from './order-section.ts';

type Open = 'cancel' | 'reroute' | 'window' | 'location' | null;

/**
 * Which buttons a status shows is visibility only, so a person is not offered what cannot be: the
 * server decides every action, and its refusal is shown in its own words. The ended statuses are
 * those cancel_order names as beyond cancelling.
 */
const ENDED = ['DELIVERED', 'RETURNED', 'CANCELLED'];

/** Hold, release, cancel, reroute, its window, and its place on the map, each through its operation. */
export function OrderActions(props: SectionProps) {
  const { context, order } = props;
  const { t, api } = context;
  const [open, setOpen] = useState<Open>(null);
  const path = { params: { path: { order_id: order.id } } };

  /** Runs an action: its outcome said in the status line, a refusal in the API's words, then a fresh read. */
  const run = async (call: () => Promise<unknown>, done: string | (() => string)): Promise<boolean> => {
    context.say(t('working'));
    try {
      await call();
      context.say(typeof done === 'string' ? done : done());
      return true;
    } catch (error) {
      context.say(t('refused', { message: error instanceof ApiError ? error.message : String(error) }));
      return false;
    } finally {
      props.reread();
    }
  };
  const close = () => setOpen(null);
  const ended = ENDED.includes(order.status);
  const ref = order.order_ref;
  return html`<div id="order-actions" class="actions" role="group" aria-label=${t('orderActions')}>
      ${
        !ended && order.status !== 'HOLD'
          ? html`<button
              type="button"
              class="small"
              onClick=${() =>
                run(
                  () => answer(api.POST('/v1/client/orders/{order_id}/hold', path)),
                  t('orderHeld', { order: ref }),
                )}
            >
              ${t('hold')}
            </button>`
          : ''
      }
      ${
        order.status === 'HOLD'
          ? html`<button
              type="button"
              class="small"
              onClick=${() =>
                run(
                  () => answer(api.POST('/v1/client/orders/{order_id}/release', path)),
                  t('orderReleased', { order: ref }),
                )}
            >
              ${t('release')}
            </button>`
          : ''
      }
      ${
        props.missing.length > 0
          ? html`<button type="button" class="small" onClick=${() => setOpen('location')}>${t('placeOnMap')}</button>`
          : ''
      }
      ${
        !ended
          ? html`<button type="button" class="small secondary" onClick=${() => setOpen('window')}>
                ${t('changeWindow')}
              </button>
              <button type="button" class="small secondary" onClick=${() => setOpen('reroute')}>${t('reroute')}</button>
              <button type="button" class="small secondary" onClick=${() => setOpen('cancel')}>
                ${t('cancelOrder')}
              </button>`
          : ''
      }
    </div>
    ${
      open === 'cancel'
        ? html`<${Dialog} title=${t('cancelTitle', { order: ref })} closeLabel=${t('keepOrder')} onClose=${close}>
            <p>${t('cancelWarning')}</p>
            <p class="actions">
              <button
                type="button"
                id="confirm-cancel"
                onClick=${async () => {
                  close();
                  await run(
                    () => answer(api.POST('/v1/client/orders/{order_id}/cancel', path)),
                    t('orderCancelled', { order: ref }),
                  );
                }}
              >
                ${t('cancelOrder')}
              </button>
            </p>
          <//>`
        : ''
    }
    ${open === 'reroute' ? html`<${RerouteDialog} ...${props} run=${run} onClose=${close} />` : ''}
    ${open === 'window' ? html`<${WindowDialog} ...${props} run=${run} onClose=${close} />` : ''}
    ${open === 'location' ? html`<${LocationDialog} ...${props} run=${run} onClose=${close} />` : ''}`;
}

type DialogProps = SectionProps & {
  run: (call: () => Promise<unknown>, done: string | (() => string)) => Promise<boolean>;
  onClose: () => void;
};

/** A new drop-off: reroute_to_address cancels the order and books a copy there, its parcels moved. */
function RerouteDialog(props: DialogProps) {
  const { context, order } = props;
  const { t, api } = context;
  const place = order.dropoff;
  const [values, setValues] = useState<AddressValues>({
    ...NO_ADDRESS,
    name: place?.name ?? '',
    phone: place?.phone ?? '',
    country: place?.country ?? '',
  });
  const submit = async (event: Event) => {
    event.preventDefault();
    props.onClose();
    let made = '';
    await props.run(
      async () => {
        const rerouted = await answer(
          api.POST('/v1/client/orders/{order_id}/reroute', {
            params: { path: { order_id: order.id } },
            body: { dropoff: addressInput(values) },
          }),
        );
        made = rerouted.order.order_ref;
        // The copy is the order now: the panel follows it.
        context.openOrder(rerouted.order.id);
      },
      () => t('orderRerouted', { order: made }),
    );
  };
  return html`<${Dialog} title=${t('rerouteTitle', { order: order.order_ref })} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" onSubmit=${submit}>
      <p class="meta">${t('rerouteHint')}</p>
      <${AddressFields} context=${context} prefix="reroute" values=${values} onChange=${setValues} />
      <button type="submit">${t('reroute')}</button>
    </form>
  <//>`;
}

/** The order's window on its day, through update_time_window_by_refs (which answers per reference). */
function WindowDialog(props: DialogProps) {
  const { context, order } = props;
  const { t, api } = context;
  const [start, setStart] = useState(order.time_window?.start ?? '');
  const [end, setEnd] = useState(order.time_window?.end ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    props.onClose();
    await props.run(
      async () => {
        const changed = await answer(
          api.POST('/v1/client/orders/time-window', {
            body: { order_refs: [order.order_ref], time_window: { start, end } },
          }),
        );
        const refusal = changed.errors[0];
        if (refusal) throw new ApiError(422, 'NOT_CHANGED', refusal.message, undefined);
      },
      t('windowChanged', { order: order.order_ref }),
    );
  };
  const time = (id: string, label: string, value: string, set: (value: string) => void) => html`
    <label for=${id}>${label}</label>
    <input id=${id} type="time" required value=${value} onInput=${(event: Event) => set((event.target as HTMLInputElement).value)} />`;
  return html`<${Dialog} title=${t('windowTitle', { order: order.order_ref })} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" onSubmit=${submit}>
      ${time('window-start', t('windowFrom'), start, setStart)}
      ${time('window-end', t('windowTo'), end, setEnd)}
      <button type="submit">${t('save')}</button>
    </form>
  <//>`;
}

/**
 * Where an order that cannot be placed goes: a click on the map (the dialog steps aside while the
 * map waits for it; Escape gives up), or its latitude and longitude typed; then set_order_location.
 */
function LocationDialog(props: DialogProps) {
  const { context, order } = props;
  const { t, api } = context;
  const [lat, setLat] = useState('');
  const [lng, setLng] = useState('');
  const [picking, setPicking] = useState(false);
  const pick = async () => {
    setPicking(true);
    const point = await context.pickPoint();
    setPicking(false);
    if (!point) return;
    setLat(point.lat.toFixed(6));
    setLng(point.lng.toFixed(6));
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    props.onClose();
    await props.run(
      () =>
        answer(
          api.PUT('/v1/client/orders/{order_id}/location', {
            params: { path: { order_id: order.id } },
            body: { lat: Number(lat), lng: Number(lng) },
          }),
        ),
      t('locationSet', { order: order.order_ref }),
    );
  };
  if (picking) return '';
  const field = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    limit: number,
  ) => html`
    <label for=${id}>${label}</label>
    <input
      id=${id}
      type="number"
      step="any"
      min=${-limit}
      max=${limit}
      required
      inputmode="decimal"
      value=${value}
      onInput=${(event: Event) => set((event.target as HTMLInputElement).value)}
    />`;
  return html`<${Dialog} title=${t('locationTitle', { order: order.order_ref })} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" onSubmit=${submit}>
      <p class="meta">${t('locationHint')}</p>
      <button type="button" class="secondary" id="pick-on-map" onClick=${pick}>${t('pickOnMap')}</button>
      ${field('location-lat', t('latitude'), lat, setLat, 90)}
      ${field('location-lng', t('longitude'), lng, setLng, 180)}
      <button type="submit">${t('setLocation')}</button>
    </form>
  <//>`;
}
