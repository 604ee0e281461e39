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

-- Points of interest: the business's own places (depots, hubs, lockers, customer sites), with
-- their opening hours, found by the same search as the address book.
CREATE TABLE points_of_interest (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id   bigint NOT NULL REFERENCES businesses (id),
  name          text NOT NULL,
  category      text NOT NULL CHECK (category IN ('depot', 'hub', 'locker', 'customer_site', 'other')),
  line1         text NOT NULL,
  postal_code   text,
  city          text,
  country       text,
  lat           double precision NOT NULL,
  lng           double precision NOT NULL,
  opening_hours jsonb NOT NULL,
  notes         text,
  search_text   text GENERATED ALWAYS AS (
    lower(name || ' ' || category || ' ' || line1 || ' ' || coalesce(postal_code, '') || ' ' ||
          coalesce(city, '') || ' ' || coalesce(country, ''))
  ) STORED,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX points_of_interest_business ON points_of_interest (business_id, id DESC);
