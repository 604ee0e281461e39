-- Dispatch now removes an order's stops when the order leaves its route. Stops left behind
-- before that (an order released or held, then planned again) would show it on two routes.
DELETE FROM route_stops s USING orders o WHERE o.id = s.order_id AND o.route_id IS DISTINCT FROM s.route_id;
