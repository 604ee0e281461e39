-- The tracking history and the operation audit only grow: both become range-partitioned by month
-- (docs/history.md), so old months can be detached and archived without touching the live ones.
-- Each table is rebuilt under its own name with every row, id, index, constraint, identity
-- position and grant of the table it replaces; the service creates the months ahead from then on.

-- Monthly partitions named <table>_YYYY_MM (UTC months), from `first_month` through `last_month`.
CREATE FUNCTION pg_temp.create_month_partitions(parent text, first_month timestamp, last_month timestamp)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  month timestamp := date_trunc('month', first_month);
BEGIN
  WHILE month <= last_month LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
      parent || '_' || to_char(month, 'YYYY_MM'), parent,
      to_char(month, 'YYYY-MM-DD') || ' 00:00:00+00',
      to_char(month + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
    month := month + interval '1 month';
  END LOOP;
END $$;

-- The months holding rows of the old table, the current month and the three after it.
CREATE FUNCTION pg_temp.partition_like(parent text, old_table regclass, time_column text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  month timestamp;
  now_month timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
BEGIN
  FOR month IN EXECUTE format(
    'SELECT DISTINCT date_trunc(''month'', %I AT TIME ZONE ''UTC'') FROM %s', time_column, old_table)
  LOOP
    IF month < now_month OR month > now_month + interval '3 months' THEN
      PERFORM pg_temp.create_month_partitions(parent, month, month);
    END IF;
  END LOOP;
  PERFORM pg_temp.create_month_partitions(parent, now_month, now_month + interval '3 months');
  EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', parent || '_default', parent);
END $$;

-- The owner and grants of the old table, given to the new one.
CREATE FUNCTION pg_temp.copy_access(old_table regclass, new_table regclass)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  entry record;
  old_owner name := (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = old_table);
BEGIN
  IF old_owner <> (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = new_table) THEN
    EXECUTE format('ALTER TABLE %s OWNER TO %I', new_table, old_owner);
  END IF;
  FOR entry IN
    SELECT acl.privilege_type, acl.is_grantable,
      CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END AS grantee
    FROM pg_class, aclexplode(relacl) AS acl
    WHERE pg_class.oid = old_table AND acl.grantee <> pg_class.relowner
  LOOP
    EXECUTE format('GRANT %s ON %s TO %s%s', entry.privilege_type, new_table, entry.grantee,
      CASE WHEN entry.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
  END LOOP;
END $$;

-- The tables replaced wait in a schema of their own, with their indexes, constraints and identity
-- sequences: the new ones take the same names (constraint names are unique by schema).
CREATE SCHEMA history_before_partitioning;
ALTER TABLE tracking_events SET SCHEMA history_before_partitioning;
ALTER TABLE operation_audit SET SCHEMA history_before_partitioning;

-- Tracking events, partitioned by recorded_at: the service's own clock, so months fill in order
-- (a provider's occurred_at can be anything).
CREATE TABLE tracking_events (
  id              bigint GENERATED ALWAYS AS IDENTITY,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  tracking_number text NOT NULL,
  package_id      bigint,
  event_id        text NOT NULL,
  otep_version    text NOT NULL,
  occurred_at     timestamptz NOT NULL,
  occurred_offset text NOT NULL,
  recorded_at     timestamptz NOT NULL,
  status_code     text NOT NULL,
  source_type     text NOT NULL,
  details         jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (business_id, id, recorded_at)
) PARTITION BY RANGE (recorded_at);
CREATE INDEX tracking_events_timeline ON tracking_events (tracking_number, occurred_at, recorded_at, id);

-- The deduplication key of events, unique across every month (a partitioned table's unique
-- constraints must include recorded_at, which a repeated event does not share): an event is
-- stored only when its key is new. Kept when months are detached, so an old event sent again is
-- still refused. business_id is in the key so the table is distributed by business with the
-- history (docs/scaling.md); a tracking number is one business's (packages' numbers are unique
-- across businesses), so the key is as strict as one on (tracking_number, event_id).
CREATE TABLE tracking_event_keys (
  tracking_number text NOT NULL,
  event_id        text NOT NULL,
  business_id     bigint NOT NULL REFERENCES businesses (id),
  PRIMARY KEY (tracking_number, event_id, business_id)
);

SELECT pg_temp.partition_like('tracking_events', 'history_before_partitioning.tracking_events', 'recorded_at');
INSERT INTO tracking_events (id, business_id, tracking_number, package_id, event_id, otep_version,
    occurred_at, occurred_offset, recorded_at, status_code, source_type, details)
  OVERRIDING SYSTEM VALUE
  SELECT id, business_id, tracking_number, package_id, event_id, otep_version,
    occurred_at, occurred_offset, recorded_at, status_code, source_type, details
  FROM history_before_partitioning.tracking_events;
INSERT INTO tracking_event_keys (tracking_number, event_id, business_id)
  SELECT tracking_number, event_id, business_id FROM history_before_partitioning.tracking_events;
-- Ids continue where the old identity stood (not from the highest row: ids handed out are never reused).
SELECT setval('tracking_events_id_seq', last_value, is_called) FROM history_before_partitioning.tracking_events_id_seq;
SELECT pg_temp.copy_access('history_before_partitioning.tracking_events', 'tracking_events');

-- The operation audit, partitioned by its time. Platform-level entries have no business, so the
-- audit is not distributed by business: it stays whole on the coordinating database.
CREATE TABLE operation_audit (
  id            bigint GENERATED ALWAYS AS IDENTITY,
  at            timestamptz NOT NULL,
  operation     text NOT NULL,
  door          text NOT NULL,
  actor_user_id bigint,
  business_id   bigint,
  request_id    text,
  PRIMARY KEY (id, at)
) PARTITION BY RANGE (at);
CREATE INDEX operation_audit_business_at ON operation_audit (business_id, at);

SELECT pg_temp.partition_like('operation_audit', 'history_before_partitioning.operation_audit', 'at');
INSERT INTO operation_audit (id, at, operation, door, actor_user_id, business_id, request_id)
  OVERRIDING SYSTEM VALUE
  SELECT id, at, operation, door, actor_user_id, business_id, request_id FROM history_before_partitioning.operation_audit;
SELECT setval('operation_audit_id_seq', last_value, is_called) FROM history_before_partitioning.operation_audit_id_seq;
SELECT pg_temp.copy_access('history_before_partitioning.operation_audit', 'operation_audit');
-- Without CASCADE: a foreign key still pointing at an old table stops the migration here.
DROP TABLE history_before_partitioning.tracking_events, history_before_partitioning.operation_audit;
DROP SCHEMA history_before_partitioning;
