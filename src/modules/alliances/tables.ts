import type { Generated } from 'kysely';

/** What a member lets the alliance's other active members do with its data. */
export const GRANTS = ['track_packages', 'see_orders', 'hand_over_orders'] as const;
export type Grant = (typeof GRANTS)[number];
export type Grants = Record<Grant, boolean>;

export const MEMBER_STATES = ['invited', 'active'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export interface AlliancesTables {
  alliances: {
    id: Generated<number>;
    name: string;
    owner_business_id: number;
    created_at: Date;
    updated_at: Date;
  };
  alliance_members: {
    alliance_id: number;
    business_id: number;
    state: MemberState;
    invited_by_user_id: number | null;
    invited_at: Date;
    joined_at: Date | null;
    track_packages: Generated<boolean>;
    see_orders: Generated<boolean>;
    hand_over_orders: Generated<boolean>;
    updated_at: Date;
  };
}
