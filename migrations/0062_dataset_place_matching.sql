-- Placed dataset records are places the built-in geocoder matches addresses against too
-- (migration 0061 has the address book's indexes, and why). An import writes records and matches
-- its next rows against them in the same run: without fastupdate, each is in the index at once.
CREATE INDEX dataset_records_placed_words ON dataset_records USING gin (lower(address_text) gin_trgm_ops)
  WITH (fastupdate = off)
  WHERE lat IS NOT NULL AND address_text IS NOT NULL;
