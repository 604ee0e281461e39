-- A route's own depot, where it leaves from and comes back to (docs/dispatch.md, "Routes"): fixed
-- when the route is built, from its driver's fleet shift of the day when the shift names a depot,
-- else from the driver's profile, so the board, maps and plan edits place the route where it
-- was planned from even after the shift or the profile changes. A change of driver moves it to
-- the new driver's. Null for a route that has none: an instant rider's one-order route leaves
-- from where the rider is.
ALTER TABLE routes ADD COLUMN depot_id bigint;
ALTER TABLE routes ADD CONSTRAINT routes_depot_id_fkey
  FOREIGN KEY (business_id, depot_id) REFERENCES depots (business_id, id);

-- Routes built before: their driver's profile depot, where the board and maps placed them until
-- now. A route open on a route board has no driver to take one from: it gets its depot when
-- claimed.
UPDATE routes r SET depot_id = p.depot_id
  FROM driver_profiles p
  WHERE p.business_id = r.business_id AND p.user_id = r.driver_user_id;
