import type { Generated } from 'kysely';
import type { AccountKind } from '../../platform/catalog/operation.ts';

export type TokenKind = 'login' | 'personal' | 'agent' | 'app';

export const VEHICLE_TYPES = ['bicycle', 'cargo_bike', 'scooter', 'car', 'van', 'truck'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const REGISTRATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export interface AccountsTables {
  businesses: {
    id: Generated<number>;
    code: string;
    name: string;
    time_zone: string;
    created_at: Date;
  };
  business_modules: {
    business_id: number;
    module: string;
    enabled: boolean;
    updated_at: Date;
  };
  platform_modules: {
    module: string;
    available: boolean;
    updated_at: Date;
  };
  /** Opt-in families: turned on by the business itself, revocable by the platform admin. */
  business_families: {
    business_id: number;
    family: string;
    enabled: boolean;
    revoked: boolean;
    updated_at: Date;
  };
  contractor_companies: {
    id: Generated<number>;
    name: string;
    created_at: Date;
  };
  contractor_engagements: {
    contractor_company_id: number;
    business_id: number;
    created_at: Date;
  };
  users: {
    id: Generated<number>;
    kind: AccountKind;
    business_id: number | null;
    contractor_company_id: number | null;
    email: string;
    name: string;
    password_hash: string | null;
    disabled: Generated<boolean>;
    created_at: Date;
  };
  driver_registrations: {
    id: Generated<number>;
    business_id: number;
    user_id: number;
    phone: string | null;
    vehicle_type: VehicleType | null;
    status: RegistrationStatus;
    created_at: Date;
    decided_by: number | null;
    decided_at: Date | null;
    reason: string | null;
  };
  access_tokens: {
    id: Generated<number>;
    user_id: number;
    token_hash: Buffer;
    kind: TokenKind;
    name: string | null;
    profile: string | null;
    /** null grants every scope. */
    scopes: string[] | null;
    created_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
    /** App sessions: the one business (client) the token acts in. */
    business_scope_id: number | null;
  };
}
