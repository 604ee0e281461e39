-- Saved addresses: a business's own and its customers' address books, searched with typos
-- forgiven (trigram word similarity over one lower-cased text of the address, scored within the
-- book the business index narrows to: an address book holds thousands of rows, not millions).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE saved_addresses (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  -- null: the business's own book; else the book of this customer account of the business.
  customer_user_id bigint REFERENCES users (id),
  label            text NOT NULL,
  contact_name     text,
  phone            text,
  line1            text NOT NULL,
  line2            text,
  postal_code      text,
  city             text,
  country          text,
  lat              double precision,
  lng              double precision,
  delivery_notes   text,
  search_text      text GENERATED ALWAYS AS (
    lower(label || ' ' || coalesce(contact_name, '') || ' ' || line1 || ' ' || coalesce(line2, '') || ' ' ||
          coalesce(postal_code, '') || ' ' || coalesce(city, '') || ' ' || coalesce(country, ''))
  ) STORED,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX saved_addresses_book ON saved_addresses (business_id, customer_user_id, id DESC);
