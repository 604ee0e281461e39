-- A deduplication key is written in the statement that stores its event, with the same business,
-- and the event row already references businesses: the key's own reference checked the same
-- business a second time for every event, about a fifth of PostgreSQL's execution of an ingest's
-- insert (bench/README.md, "Tracking"). The key's business_id stays, for sharding with the history.
ALTER TABLE tracking_event_keys DROP CONSTRAINT tracking_event_keys_business_id_fkey;
