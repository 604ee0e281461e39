import type { Schemas } from '../shared/api.ts';
import { html } from '../shared/ui.ts';
import type { ConsoleContext } from './context.ts';

/** An address as the forms hold it: every field a string, as typed; coordinates when picked. */
export interface AddressValues {
  name: string;
  phone: string;
  line1: string;
  city: string;
  postal_code: string;
  country: string;
  lat?: number;
  lng?: number;
}

export const NO_ADDRESS: AddressValues = {
  name: '',
  phone: '',
  line1: '',
  city: '',
  postal_code: '',
  country: '',
};

const FIELDS = [
  { field: 'name', key: 'recipientName', autocomplete: 'name', type: 'text' },
  { field: 'phone', key: 'phone', autocomplete: 'tel', type: 'tel' },
  { field: 'line1', key: 'streetLine', autocomplete: 'address-line1', type: 'text' },
  { field: 'postal_code', key: 'postalCode', autocomplete: 'postal-code', type: 'text' },
  { field: 'city', key: 'city', autocomplete: 'address-level2', type: 'text' },
  { field: 'country', key: 'countryCode', autocomplete: 'country', type: 'text' },
] as const;

/**
 * The recipient's name, phone and address, each field labelled; `prefix` keeps the ids apart. A
 * field typed anew drops the coordinates a picked address brought: they were that address's.
 */
export function AddressFields(props: {
  context: ConsoleContext;
  prefix: string;
  values: AddressValues;
  onChange: (values: AddressValues) => void;
}) {
  const { t } = props.context;
  return FIELDS.map(
    ({ field, key, autocomplete, type }) => html`
      <label for=${`${props.prefix}-${field}`}>${t(key)}</label>
      <input
        id=${`${props.prefix}-${field}`}
        type=${type}
        autocomplete=${autocomplete}
        required=${field === 'line1'}
        value=${props.values[field]}
        onInput=${(event: Event) => {
          const { lat: _lat, lng: _lng, ...typed } = props.values;
          props.onChange({ ...typed, [field]: (event.target as HTMLInputElement).value });
        }}
      />`,
  );
}

/** The address as the API takes it (AddressInput): empty fields left out, the country in capitals. */
export function addressInput(values: AddressValues): Schemas['AddressInput'] {
  const text = (value: string) => value.trim() || undefined;
  return {
    line1: values.line1.trim(),
    name: text(values.name),
    phone: text(values.phone),
    city: text(values.city),
    postal_code: text(values.postal_code),
    country: text(values.country.toUpperCase()),
    ...(values.lat !== undefined && values.lng !== undefined ? { lat: values.lat, lng: values.lng } : {}),
  };
}
