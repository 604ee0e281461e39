-- A delivery stop the business sends to a parcel locker instead of the door (docs/lockers.md,
-- "Routed orders"): when a locker compartment is reserved for an order on a route, its delivery
-- stop either becomes a drop at the locker site or leaves the route, as the business sets.
ALTER TABLE dispatch_settings
  ADD COLUMN locker_reservation text NOT NULL DEFAULT 'drop_at_locker'
    CHECK (locker_reservation IN ('drop_at_locker', 'take_off_route'));

-- The stop's kind, and for a locker drop the site it goes to (its id, the booking's id, its name
-- and address with coordinates): the route is timed to it, and the driver is shown it, while the
-- order keeps its customer's address.
ALTER TABLE route_stops
  ADD COLUMN kind text NOT NULL DEFAULT 'door' CHECK (kind IN ('door', 'locker')),
  ADD COLUMN locker jsonb,
  ADD CONSTRAINT route_stops_locker_place CHECK ((kind = 'locker') = (locker IS NOT NULL));
