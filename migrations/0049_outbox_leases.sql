-- The messages in hand (leased, not done): what a claim counts per business to keep each lane to
-- its few slots. Without it that count read every undone row, messages due days ahead included
-- (a locker's pickup deadlines), so claims slowed as those piled up.
CREATE INDEX outbox_in_hand ON outbox (leased_until, business_id)
  WHERE done_at IS NULL AND leased_until IS NOT NULL;
