import { isDeepStrictEqual } from 'node:util';
import type { OperationContext, OutsideWorld } from '../../platform/catalog/operation.ts';
import { callerOf } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { formatLocalDateTime } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import { bootstrapData } from './bootstrap.ts';
import { type AssignmentConfig, assignmentConfigSchema, DEFAULT_CONFIG, type Platform } from './config.ts';
import {
  IdTokenRefused,
  type IdTokenVerifier,
  PRESETS,
  type Preset,
  ProviderUnreachable,
} from './identity.ts';
import * as repo from './repository.ts';
import type { AppsTables } from './tables.ts';

/** A partial configuration: objects merge field by field, anything else replaces; null removes a key. */
export type ConfigPatch = { [key: string]: unknown };

export type SignInRefusal =
  | 'method_disabled'
  | 'role_not_allowed'
  | 'other_client'
  | 'account_disabled'
  | 'pending_approval'
  | 'email_taken';

/**
 * Platform apps: the apps a platform admin publishes, their configuration per client, the public
 * bootstrap an app starts from, and native sign-in with an identity provider's ID token.
 */
export class AppsService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly verifier: IdTokenVerifier,
  ) {}

  // ----- identity providers (platform admin) -----

  async saveIdentityProvider(
    ctx: OperationContext,
    input: { code: string; preset?: Preset; name?: string; issuer?: string },
  ) {
    const source = input.preset
      ? {
          ...PRESETS[input.preset],
          issuerAliases: [...PRESETS[input.preset].issuerAliases],
          preset: input.preset,
        }
      : await this.discovered(input.issuer!, ctx.outside);
    const now = this.clock.now();
    const row = {
      code: input.code,
      name: input.name ?? source.name,
      issuer: source.issuer,
      issuer_aliases: source.issuerAliases,
      jwks_uri: source.jwksUri,
      preset: source.preset,
      created_at: now,
      updated_at: now,
    };
    // The output schema keeps the public fields of the row.
    return { result: true as const, provider: await repo.saveProvider(ctx.db, row) };
  }

  /** An OpenID Connect issuer as its discovery document describes it, named after its host. */
  private async discovered(issuer: string, outside: OutsideWorld) {
    const found = await this.reach(() => this.verifier.discover(issuer, outside), issuer);
    return { ...found, name: new URL(found.issuer).host, issuerAliases: [] as string[], preset: null };
  }

  async identityProviders(ctx: OperationContext) {
    return { result: true as const, providers: await repo.providers(ctx.db) };
  }

  // ----- apps and their assignment to clients -----

  async saveApp(ctx: OperationContext, input: Omit<AppsTables['apps'], 'id' | 'created_at' | 'updated_at'>) {
    const now = this.clock.now();
    const app = await repo.saveApp(ctx.db, {
      ...input,
      allowed_roles: [...new Set(input.allowed_roles)],
      created_at: now,
      updated_at: now,
    });
    return { result: true as const, app };
  }

  async apps(ctx: OperationContext) {
    return { result: true as const, apps: await repo.apps(ctx.db) };
  }

  /**
   * Creates or changes the assignment of an app to a client. Every change that alters what an
   * app would read bumps configuration_version; saving the same configuration again does not.
   */
  async saveAssignment(
    ctx: OperationContext,
    input: { app_code: string; client_code: string; enabled?: boolean; config?: ConfigPatch },
  ) {
    const app = await repo.appByCode(ctx.db, input.app_code);
    const business = await this.accounts.findBusiness(ctx.db, input.client_code);
    if (!app || !business) {
      throw new AppError(app ? 'BUSINESS_NOT_FOUND' : 'APP_NOT_FOUND', {
        params: { app: input.app_code, client: input.client_code },
      });
    }
    const current = await repo.assignmentForUpdate(ctx.db, app.id, business.id);
    const merged = merge(current?.config ?? DEFAULT_CONFIG, input.config ?? {});
    const config = assignmentConfigSchema.parse(merged);
    await this.requireProviders(ctx.db, config);
    const enabled = input.enabled ?? current?.enabled ?? true;
    const now = this.clock.now();
    if (!current) {
      await repo.insertAssignment(ctx.db, {
        app_id: app.id,
        business_id: business.id,
        enabled,
        configuration_version: 1,
        config,
        created_at: now,
        updated_at: now,
      });
    } else if (enabled !== current.enabled || !isDeepStrictEqual(config, current.config)) {
      await repo.updateAssignment(ctx.db, current.id, {
        enabled,
        config,
        configuration_version: current.configuration_version + 1,
        updated_at: now,
      });
    }
    return this.assignment(ctx, input.app_code, input.client_code);
  }

  /** One assignment with its whole configuration: any for platform admins, their own client's for client admins. */
  async assignment(ctx: OperationContext, appCode: string, clientCode: string) {
    const found = await this.context(ctx.db, appCode, clientCode);
    const caller = callerOf(ctx);
    if (!found || (caller.kind !== 'platform_admin' && found.business_id !== caller.businessId)) {
      throw new AppError('APP_NOT_FOUND', { params: { app: appCode, client: clientCode } });
    }
    return {
      result: true as const,
      assignment: {
        app_code: found.app_code,
        client_code: found.client_code,
        enabled: found.enabled,
        configuration_version: found.configuration_version,
        config: found.config,
        updated_at: found.updated_at.toISOString(),
      },
    };
  }

  /** Every assignment for platform admins; a client admin's own client's. */
  async assignments(ctx: OperationContext) {
    const caller = callerOf(ctx);
    const rows = await repo.assignments(
      ctx.db,
      caller.kind === 'platform_admin' ? undefined : (caller.businessId ?? -1),
    );
    const clientCodes = await this.accounts.businessCodesOf(
      ctx.db,
      rows.map((row) => row.business_id),
    );
    const assignments = rows
      .map(({ business_id, ...row }) => ({ ...row, client_code: clientCodes.get(business_id) ?? '' }))
      .sort((a, b) => compare(a.app_code, b.app_code) || compare(a.client_code, b.client_code));
    return { result: true as const, assignments };
  }

  // ----- what an app reads and does, without an account -----

  /** The public configuration an app starts from. The client code selects it; it grants nothing. */
  async bootstrap(
    ctx: OperationContext,
    input: { app_code: string; client_code: string; platform?: Platform; app_version?: string },
  ) {
    const found = await this.availableContext(ctx.db, input.app_code, input.client_code);
    return {
      result: true as const,
      data: bootstrapData({
        app: {
          code: found.app_code,
          name: found.app_name,
          type: found.app_type,
          schema_version: found.schema_version,
        },
        client: { code: found.client_code, name: found.client_name },
        configurationVersion: found.configuration_version,
        config: found.config,
        platform: input.platform,
        appVersion: input.app_version,
      }),
    };
  }

  /**
   * Native sign-in: the ID token is verified against the provider's keys with the app's backend
   * audience for that provider; the identity's one global binding gives the account (linked or
   * registered as docs/apps.md says); the account must belong to this client and be of a role
   * the app allows. Answers an app session: a token that acts in this client only.
   */
  async signIn(
    ctx: OperationContext,
    input: {
      app_code: string;
      client_code: string;
      idp: string;
      id_token: string;
      device_id: string;
      device_platform: Platform;
      app_version?: string | null;
    },
  ) {
    await this.accounts.countSignInAttempt(ctx);
    const found = await this.availableContext(ctx.db, input.app_code, input.client_code);
    const config = found.config;
    const audience = config.authentication.providers[input.idp]?.server_client_id;
    const provider = await repo.provider(ctx.db, input.idp);
    if (!config.authentication.methods[input.idp] || !audience || !provider) refuse('method_disabled');

    const claims = await this.reach(async () => {
      try {
        return await this.verifier.verify(
          input.id_token,
          provider!,
          audience!,
          this.clock.now(),
          ctx.outside,
        );
      } catch (error) {
        if (error instanceof IdTokenRefused) {
          throw new AppError('ID_TOKEN_INVALID', { details: { problem: error.problem } });
        }
        throw error;
      }
    }, provider!.issuer);

    const now = this.clock.now();
    const userId = await this.userOf(ctx.db, {
      issuer: provider!.issuer,
      subject: claims.sub,
      providerCode: provider!.code,
      email: verifiedEmail(claims),
      name: typeof claims.name === 'string' ? claims.name : undefined,
      businessId: found.business_id,
      allowedRoles: found.allowed_roles,
      registration: config.registration,
      now,
    });
    const user = (await this.accounts.userById(ctx.db, userId))!;
    if (user.disabled) refuse('account_disabled');
    if (!(found.allowed_roles as readonly string[]).includes(user.kind)) refuse('role_not_allowed');
    if (!(await this.accounts.belongsTo(ctx.db, user, found.business_id))) refuse('other_client');

    await repo.touchBinding(ctx.db, provider!.issuer, claims.sub, now);
    await repo.recordDevice(ctx.db, {
      business_id: found.business_id,
      assignment_id: found.id,
      user_id: user.id,
      device_id: input.device_id,
      platform: input.device_platform,
      app_version: input.app_version ?? null,
      first_seen_at: now,
      last_seen_at: now,
    });
    const issued = await this.accounts.issueToken(ctx.db, {
      userId: user.id,
      kind: 'app',
      name: `${found.app_code} on ${input.device_platform}`,
      businessScopeId: found.business_id,
    });
    return {
      result: true as const,
      access_token: issued.token,
      token_type: 'Bearer' as const,
      expires_at: formatLocalDateTime(issued.expiresAt, found.time_zone),
      expires_timestamp: Math.floor(issued.expiresAt.getTime() / 1000),
      user: { id: user.id, name: user.name, email: user.email },
      app_context: {
        app_code: found.app_code,
        client_code: found.client_code,
        client_name: found.config.display_name ?? found.client_name,
        configuration_version: found.configuration_version,
      },
    };
  }

  /**
   * The account of an identity: its binding; else the account its verified email names, when
   * that account is of this client; else, when the client registers new accounts, a new
   * customer of the client (waiting for approval when the client approves each one).
   */
  private async userOf(
    db: Queryable,
    identity: {
      issuer: string;
      subject: string;
      providerCode: string;
      email: string | undefined;
      name: string | undefined;
      businessId: number;
      allowedRoles: readonly string[];
      registration: AssignmentConfig['registration'];
      now: Date;
    },
  ): Promise<number> {
    const bound = await repo.binding(db, identity.issuer, identity.subject);
    if (bound) return bound.user_id;
    if (!identity.email) throw new AppError('IDENTITY_NOT_REGISTERED');
    const bind = (userId: number) =>
      repo.bind(db, {
        issuer: identity.issuer,
        subject: identity.subject,
        user_id: userId,
        provider_code: identity.providerCode,
        created_at: identity.now,
        last_used_at: identity.now,
      });

    const existing = await this.accounts.findUserByEmail(db, identity.email);
    if (existing) {
      if (!(await this.accounts.belongsTo(db, existing, identity.businessId))) {
        if (!identity.registration.enabled) throw new AppError('IDENTITY_NOT_REGISTERED');
        refuse('email_taken');
      }
      await bind(existing.id);
      return existing.id;
    }

    if (!identity.registration.enabled) throw new AppError('IDENTITY_NOT_REGISTERED');
    if (!identity.allowedRoles.includes('customer')) refuse('role_not_allowed');
    const userId = await this.accounts.createUser(db, {
      kind: 'customer',
      email: identity.email,
      name: identity.name?.trim().slice(0, 200) || identity.email.split('@')[0]!,
      password: null,
      businessId: identity.businessId,
      disabled: identity.registration.requires_approval,
    });
    await bind(userId);
    if (identity.registration.requires_approval) {
      // The registration stands; the business approves it by enabling the account.
      throw new AppError('APP_SIGN_IN_REFUSED', { details: { reason: 'pending_approval' }, commit: true });
    }
    return userId;
  }

  /** The assignment of an app to a client, both by their public codes, with the client's name and zone. */
  private async context(db: Queryable, appCode: string, clientCode: string) {
    const business = await this.accounts.findBusiness(db, clientCode);
    const found = business && (await repo.context(db, appCode, business.id));
    if (!business || !found) return undefined;
    return {
      ...found,
      client_code: business.code,
      client_name: business.name,
      time_zone: business.time_zone,
    };
  }

  /** The assignment of the public codes, if the app and the assignment are both on. */
  private async availableContext(db: Queryable, appCode: string, clientCode: string) {
    const found = await this.context(db, appCode, clientCode);
    const params = { app: appCode, client: clientCode };
    if (!found) throw new AppError('APP_NOT_FOUND', { params });
    if (!found.app_enabled || !found.enabled) throw new AppError('APP_UNAVAILABLE', { params });
    return found;
  }

  /** Every identity provider a configuration turns on must exist. */
  private async requireProviders(db: Queryable, config: AssignmentConfig): Promise<void> {
    const named = new Set([
      ...Object.keys(config.authentication.methods).filter((method) => method !== 'email'),
      ...Object.keys(config.authentication.providers),
    ]);
    for (const code of named) {
      if (!(await repo.provider(db, code))) {
        throw new AppError('IDENTITY_PROVIDER_NOT_FOUND', { params: { idp: code } });
      }
    }
  }

  /** Runs a call that reads from an identity provider, reporting an unreachable one in the error shape. */
  private async reach<T>(call: () => Promise<T>, issuer: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ProviderUnreachable) {
        throw new AppError('IDENTITY_PROVIDER_UNREACHABLE', {
          params: { issuer },
          details: { reason: error.message },
        });
      }
      throw error;
    }
  }
}

function refuse(reason: SignInRefusal): never {
  throw new AppError('APP_SIGN_IN_REFUSED', { details: { reason } });
}

/** The token's email, if the provider vouches for it (Apple writes email_verified as a string). */
function verifiedEmail(claims: Record<string, unknown>): string | undefined {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified && typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `patch` over `base`: objects merge key by key, null removes a key, anything else replaces. */
function merge(base: unknown, patch: ConfigPatch): Record<string, unknown> {
  const result: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null && key !== 'display_name') delete result[key];
    else if (isPlainObject(value)) result[key] = merge(result[key], value);
    else result[key] = value;
  }
  return result;
}

/** Code order as the database sorted it: by code point, not by locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
