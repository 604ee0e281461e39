-- Imports save their rows in chunks, each committed as it is done (docs/datasets.md, "Imports"): a
-- run cut short keeps what it saved. A record an import wrote keeps which import (a digest of its
-- file or list) and which row of it, so importing the same file again saves only the rows no
-- earlier run saved, and two runs of one import never save a row twice.
ALTER TABLE dataset_records
  ADD COLUMN import_key text,
  ADD COLUMN import_row integer,
  ADD CHECK ((import_key IS NULL) = (import_row IS NULL));
CREATE UNIQUE INDEX dataset_records_import_rows ON dataset_records (business_id, dataset_id, import_key, import_row)
  WHERE import_key IS NOT NULL;
