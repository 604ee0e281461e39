-- A scan names a package by its tracking number: the warehouse finds (and locks) its row by the
-- number in one look-up, without asking the orders module first.
CREATE INDEX warehouse_packages_number ON warehouse_packages (business_id, tracking_number);

-- The inventory's pages, newest received first: a page is read off the index, not sorted out of
-- the whole warehouse.
CREATE INDEX warehouse_packages_received ON warehouse_packages (warehouse_id, received_at DESC, package_id DESC);

-- A stock scan (a SKU quantity received or put away) carries the scanning device's id for it:
-- the same scan sent twice (a retry after a lost answer) moves the stock once.
ALTER TABLE warehouse_movements ADD COLUMN scan_id text;
CREATE UNIQUE INDEX warehouse_movements_scan ON warehouse_movements (warehouse_id, scan_id)
  WHERE scan_id IS NOT NULL;
