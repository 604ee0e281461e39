import { ApiError, answer, type Schemas } from '../shared/api.ts';
import { Dialog } from '../shared/dialog.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import { AddressFields, type AddressValues, addressInput, NO_ADDRESS } from './address-fields.ts';
import type { ConsoleContext } from './context.ts';
import type { ConsoleKey } from './texts/index.ts';

type Match = Awaited<ReturnType<typeof lookUp>>['matches'][number];

function lookUp(context: ConsoleContext, words: string) {
  return answer(
    context.api.GET('/v1/client/addresses/search', { params: { query: { q: words, limit: 8 } } }),
  );
}

/** A known address: a saved one, a place of the business, or a match of the look-up. */
interface Known {
  key: string;
  label: string;
  values: AddressValues;
}

const text = (value: string | null | undefined) => value ?? '';
const known = (
  key: string,
  label: string,
  address: Pick<Schemas['SavedAddress'], 'line1' | 'city' | 'postal_code' | 'country'> & {
    name?: string | null;
    phone?: string | null;
    lat?: number | null;
    lng?: number | null;
  },
): Known => ({
  key,
  label,
  values: {
    name: text(address.name),
    phone: text(address.phone),
    line1: address.line1,
    city: text(address.city),
    postal_code: text(address.postal_code),
    country: text(address.country),
    ...(address.lat != null && address.lng != null ? { lat: address.lat, lng: address.lng } : {}),
  },
});

/**
 * A new order for the board's day (create_order): the recipient and address typed, or filled from
 * the address book, the business's places, or a look-up of both; an optional window. The live
 * board lists it among the orders not on a route by itself.
 */
export function NewOrderDialog(props: { context: ConsoleContext; date: string; onClose: () => void }) {
  const { context, date } = props;
  const { t, api } = context;
  const [values, setValues] = useState<AddressValues>(NO_ADDRESS);
  const [saved, setSaved] = useState<Known[]>([]);
  const [words, setWords] = useState('');
  const [matches, setMatches] = useState<Match[] | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);

  // The business's book and places, for the picker; either list may be refused to this person.
  useEffect(() => {
    void Promise.all([
      answer(api.GET('/v1/client/addresses', { params: { query: { per_page: 200 } } }))
        .then((found) => found.addresses.map((address) => known(`a${address.id}`, address.label, address)))
        .catch(() => []),
      answer(api.GET('/v1/client/points-of-interest', { params: { query: { per_page: 200 } } }))
        .then((found) =>
          found.points.map((point) => known(`p${point.id}`, t('placeLabel', { name: point.name }), point)),
        )
        .catch(() => []),
    ]).then((lists) => setSaved(lists.flat()));
  }, []);
  useEffect(() => {
    const typed = words.trim();
    if (typed.length < 2) {
      setMatches(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      lookUp(context, typed)
        .then((found) => current && setMatches(found.matches))
        .catch(() => current && setMatches([]));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [words]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setRefusal(null);
    try {
      const made = await answer(
        api.POST('/v1/client/orderCreate', {
          body: {
            orders: [
              {
                scheduled_date: date,
                dropoff: addressInput(values),
                ...(start && end ? { time_window: { start, end } } : {}),
              },
            ],
          },
        }),
      );
      props.onClose();
      // An address the service could not place is still an order: its warning says what to do.
      const warning = made.warnings[0]?.message;
      const created = t('orderCreated', { order: made.orders[0]?.order_ref ?? '' });
      context.say(warning ? `${created} ${warning}` : created);
      if (made.orders[0]) context.openOrder(made.orders[0].id);
    } catch (error) {
      // Shown in the dialog, whose fields stay as typed to be corrected.
      setRefusal(error instanceof ApiError ? error.message : String(error));
    }
  };
  const time = (id: string, label: string, value: string, set: (value: string) => void) => html`
    <label for=${id}>${label}</label>
    <input id=${id} type="time" value=${value} onInput=${(event: Event) => set((event.target as HTMLInputElement).value)} />`;
  return html`<${Dialog} title=${t('newOrderTitle', { date })} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" id="new-order" onSubmit=${submit}>
      ${
        saved.length > 0
          ? html`<label for="new-order-saved">${t('savedAddresses')}</label>
              <select
                id="new-order-saved"
                onChange=${(event: Event) => {
                  const chosen = saved.find(
                    (entry) => entry.key === (event.target as HTMLSelectElement).value,
                  );
                  if (chosen) setValues(chosen.values);
                }}
              >
                <option value="">${t('chooseSaved')}</option>
                ${saved.map((entry) => html`<option value=${entry.key}>${entry.label}</option>`)}
              </select>`
          : ''
      }
      <label for="new-order-find">${t('findAddress')}</label>
      <input
        id="new-order-find"
        type="search"
        maxlength="200"
        aria-describedby="new-order-find-hint"
        value=${words}
        onInput=${(event: Event) => setWords((event.target as HTMLInputElement).value)}
      />
      <p id="new-order-find-hint" class="meta">${t('findAddressHint')}</p>
      ${
        matches
          ? html`<ul id="new-order-matches" class="list" aria-live="polite">
              ${
                matches.length === 0
                  ? html`<li class="meta">${t('noAddressFound')}</li>`
                  : matches.map(
                      (match, at) => html`<li>
                        <button
                          type="button"
                          class="link"
                          onClick=${() => {
                            setValues(known(`m${at}`, match.address.label, match.address).values);
                            setMatches(null);
                          }}
                        >
                          ${match.address.label}
                        </button>
                        ${' '}
                        <span class="meta">
                          ${[
                            match.address.line1,
                            match.address.city,
                            t(`source_${match.source}` as ConsoleKey),
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </span>
                      </li>`,
                    )
              }
            </ul>`
          : ''
      }
      <${AddressFields} context=${context} prefix="new-order" values=${values} onChange=${setValues} />
      <fieldset class="stack">
        <legend>${t('windowOptional')}</legend>
        ${time('new-order-start', t('windowFrom'), start, setStart)}
        ${time('new-order-end', t('windowTo'), end, setEnd)}
      </fieldset>
      ${refusal ? html`<p role="alert" class="notice alert">${t('refused', { message: refusal })}</p>` : ''}
      <button type="submit">${t('createOrder')}</button>
    </form>
  <//>`;
}
