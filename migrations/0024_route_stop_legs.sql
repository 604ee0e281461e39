-- A route stop is one leg of an order: a P2P order is two stops of one route, its pickup before
-- its delivery; a pickup order's stop is a pickup, a delivery order's a delivery.
ALTER TABLE route_stops ADD COLUMN leg text NOT NULL DEFAULT 'delivery' CHECK (leg IN ('pickup', 'delivery'));
UPDATE route_stops s SET leg = 'pickup' FROM orders o WHERE o.id = s.order_id AND o.type = 'P';
ALTER TABLE route_stops ALTER COLUMN leg DROP DEFAULT;
CREATE UNIQUE INDEX route_stops_order_leg ON route_stops (route_id, order_id, leg);
