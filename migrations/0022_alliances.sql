-- Alliances: named groups of businesses (clients) that share tracking and order data, each
-- member granting the others explicit permissions. A dissolved alliance is deleted with its
-- memberships (the operation audit keeps who did it); so is a membership that ends (declined,
-- left, removed): nothing stays behind that could still grant anything.
CREATE TABLE alliances (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name              text NOT NULL,
  owner_business_id bigint NOT NULL REFERENCES businesses (id),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX alliances_owner ON alliances (owner_business_id);

-- One row per business invited to or member of an alliance. The grants are what this member
-- lets the alliance's other active members do with its data; all false until it says otherwise.
CREATE TABLE alliance_members (
  alliance_id        bigint NOT NULL REFERENCES alliances (id) ON DELETE CASCADE,
  business_id        bigint NOT NULL REFERENCES businesses (id),
  state              text NOT NULL CHECK (state IN ('invited', 'active')),
  invited_by_user_id bigint REFERENCES users (id),
  invited_at         timestamptz NOT NULL,
  joined_at          timestamptz,
  track_packages     boolean NOT NULL DEFAULT false,
  see_orders         boolean NOT NULL DEFAULT false,
  hand_over_orders   boolean NOT NULL DEFAULT false,
  updated_at         timestamptz NOT NULL,
  PRIMARY KEY (alliance_id, business_id),
  -- Only an active member grants anything: an invitation cannot carry a grant.
  CHECK (state = 'active' OR NOT (track_packages OR see_orders OR hand_over_orders))
);
-- Every cross-business read asks "does this business grant that one ...": from the reader's side.
CREATE INDEX alliance_members_business ON alliance_members (business_id, state);
