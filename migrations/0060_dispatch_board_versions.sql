-- The dispatch board's version, counted per business (docs/dispatch-board.md, "Versioning"): the
-- number of board changes the business's writers committed. A writer only appends a row to
-- dispatch_board_changes, so writers of one business never wait on each other for it; whoever finds
-- the business's counter free folds the committed rows into it, in the same transaction, so the
-- counter plus the rows left is the same number before and after a fold.

CREATE TABLE dispatch_board_versions (
  business_id bigint PRIMARY KEY REFERENCES businesses (id),
  folded      bigint NOT NULL DEFAULT 0
);

CREATE TABLE dispatch_board_changes (
  business_id bigint NOT NULL REFERENCES businesses (id),
  id          bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (business_id, id)
);
