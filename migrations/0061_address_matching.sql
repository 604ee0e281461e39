-- The built-in geocoder (docs/addresses.md, "Geocoding") matches an address against the
-- business's own places by trigram word similarity. Scored entry by entry, a 10,000-entry address
-- book took about half a second an address, and a 5,000-row dataset import ran out of its time.
-- Through these indexes, `words <% text` (word similarity at least
-- pg_trgm.word_similarity_threshold, which the lookup sets to the confidence the geocoder needs)
-- reads only the entries that hold most of the words' trigrams.
--
-- Without fastupdate: a new entry goes into the index at once instead of into a pending list that
-- every lookup reads through until a vacuum merges it (an address book imported just before a
-- dataset import made each lookup ten times slower). Writes pay a little instead, about 0.3 ms an
-- entry.
CREATE INDEX saved_addresses_words ON saved_addresses USING gin (search_text gin_trgm_ops)
  WITH (fastupdate = off);
CREATE INDEX points_of_interest_words ON points_of_interest USING gin (search_text gin_trgm_ops)
  WITH (fastupdate = off);
