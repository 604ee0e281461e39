import type { Generated } from 'kysely';
import type { AppRole, AppType, AssignmentConfig, Platform } from './config.ts';
import type { Preset } from './identity.ts';

export interface AppsTables {
  identity_providers: {
    code: string;
    name: string;
    issuer: string;
    issuer_aliases: string[];
    jwks_uri: string;
    preset: Preset | null;
    created_at: Date;
    updated_at: Date;
  };
  identity_bindings: {
    issuer: string;
    subject: string;
    user_id: number;
    provider_code: string;
    created_at: Date;
    last_used_at: Date;
  };
  apps: {
    id: Generated<number>;
    code: string;
    name: string;
    type: AppType;
    schema_version: number;
    enabled: boolean;
    allowed_roles: AppRole[];
    created_at: Date;
    updated_at: Date;
  };
  app_assignments: {
    id: Generated<number>;
    app_id: number;
    business_id: number;
    enabled: boolean;
    configuration_version: number;
    config: AssignmentConfig;
    created_at: Date;
    updated_at: Date;
  };
  app_devices: {
    business_id: number;
    assignment_id: number;
    user_id: number;
    device_id: string;
    platform: Platform;
    app_version: string | null;
    first_seen_at: Date;
    last_seen_at: Date;
  };
}
