-- A route published on a fleet's route board waits there without a driver until one claims it
-- (docs/route-board.md): its driver, and its orders' (already nullable), are null meanwhile.
ALTER TABLE routes ALTER COLUMN driver_user_id DROP NOT NULL;
