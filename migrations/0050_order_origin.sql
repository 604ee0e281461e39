-- Who handed an order to the business when it did not come from the business's own people or API:
-- `third_party:<connection id>` for an order a delivery provider handed over. Set once, at
-- creation. Status listeners read it from the order itself, so an order that is no provider's
-- costs the third-party module no statement at each change.
ALTER TABLE orders ADD COLUMN origin text;
