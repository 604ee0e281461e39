-- A rider driving a route under way is busy for instant offers, unless the business lets such
-- riders be offered too (`offer_riders_on_route`); and each offer keeps why it was made to its
-- rider (nearest and free, or nearest on a route under way; its place in the wave, its distance),
-- which the rider and the business read with the offer (docs/riders.md, "Why this rider").
ALTER TABLE rider_settings ADD COLUMN offer_riders_on_route boolean NOT NULL DEFAULT false;

-- Null for the offers made before reasons were kept.
ALTER TABLE instant_offers ADD COLUMN reason jsonb;
