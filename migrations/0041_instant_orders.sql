-- An instant order is offered to the nearest online riders as soon as it is created (the riders
-- module); every other order is planned from the pool as before.
ALTER TABLE orders ADD COLUMN instant boolean NOT NULL DEFAULT false;
