import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginLimits } from '../../config.ts';
import { type CacheInvalidation, TaggedCache } from '../../platform/cache/invalidation.ts';
import type { Authenticator, FeatureGate } from '../../platform/catalog/executor.ts';
import {
  type AccountKind,
  businessOf,
  type Caller,
  callerOf,
  type OperationContext,
} from '../../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime, isValidTimeZone } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, featureDisabled } from '../../platform/errors.ts';
import { rateLimited } from '../../platform/limits.ts';
import { idParam } from '../../platform/schemas.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { DEFAULT_AGENT_PROFILE, isProfile, PROFILES, SCOPES } from './profiles.ts';
import * as repo from './repository.ts';
import type { TokenKind } from './tables.ts';
import { digestToken, generateToken, looksLikeToken } from './tokens.ts';

/** Modules a business can have switched on; each starts off. */
export const BUSINESS_MODULES = ['contractor_assignment'] as const;
export type BusinessModule = (typeof BUSINESS_MODULES)[number];

/**
 * Opt-in families: a business turns one on for itself, the platform admin may revoke it. Each
 * starts off. Their operations name the family as their `feature`, like a module's.
 */
export const OPT_IN_FAMILIES = ['order_chat', 'operations_agent', 'sms_marketing'] as const;
export type OptInFamily = (typeof OPT_IN_FAMILIES)[number];
export type FamilyState = 'on' | 'off' | 'revoked' | 'not_migrated';

/**
 * Whether a business's data is set up for a family (its "migration"): told by the module that
 * owns the family's data, which the accounts module cannot read. A family without one needs none.
 */
export type FamilySetupCheck = (db: Queryable, businessId: number) => Promise<boolean>;

export interface AccountsSettings {
  tokenTtlHours: number;
  login: LoginLimits;
}

export interface NewUser {
  kind: AccountKind;
  email: string;
  name: string;
  password: string | null;
  businessId?: number | null;
  contractorCompanyId?: number | null;
  /** Registered but waiting for a business's approval. */
  disabled?: boolean;
}

export interface IssuedToken {
  token: string;
  tokenId: number;
  expiresAt: Date;
}

const UNIQUE_VIOLATION = '23505';

/** Past this many businesses' time zones kept, the kept ones are dropped and read again. */
const KEPT_TIME_ZONES = 10_000;
/** Live tokens whose callers each instance keeps in memory, the least recently used dropped first. */
const KEPT_SIGN_INS = 10_000;

/** The cache tag of a token: a sign-out invalidates it on every instance. */
const tokenTag = (tokenId: number) => `token:${tokenId}`;

/** Businesses, users of every account kind, sign-in and bearer tokens. */
export class AccountsService {
  private readonly attemptsByAddress: RateLimiterMemory;
  private readonly failuresByEmail: RateLimiterMemory;
  /** Businesses' time zones, fixed at creation (see timeZoneOf). */
  private readonly timeZones = new Map<number, string>();
  /**
   * The callers of live tokens, by token digest, so a request does not read its token again: a
   * token's caller never changes, and its end (sign-out) reaches every instance's copy at commit.
   */
  private signIns?: {
    cache: TaggedCache<{ caller: Caller; expiresAt: number }>;
    invalidation: CacheInvalidation;
  };

  constructor(
    private readonly clock: Clock,
    private readonly settings: AccountsSettings,
  ) {
    this.attemptsByAddress = new RateLimiterMemory({
      keyPrefix: 'login-address',
      points: settings.login.attemptsPerAddressPerMinute,
      duration: 60,
    });
    this.failuresByEmail = new RateLimiterMemory({
      keyPrefix: 'login-email',
      points: settings.login.failuresPerEmailPer15Minutes,
      duration: 15 * 60,
    });
  }

  // ----- sign-in -----

  async login(ctx: OperationContext, input: { email: string; password: string }) {
    const email = input.email.toLowerCase();
    await this.countSignInAttempt(ctx);
    const failures = await this.failuresByEmail.get(email);
    if (failures && failures.consumedPoints >= this.settings.login.failuresPerEmailPer15Minutes) {
      throw rateLimited(failures.msBeforeNext);
    }

    const user = await repo.findUserByEmail(ctx.db, email);
    const valid = user?.password_hash
      ? await verifyPassword(input.password, user.password_hash)
      : await verifyAgainstDecoy(input.password);
    if (!user || !valid) {
      await this.limit(() => this.failuresByEmail.consume(email));
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (user.disabled) {
      // A driver who signed up waits for the business to approve the account: say so.
      const registration = await repo.registrationStatusOf(ctx.db, user.id);
      throw new AppError(
        registration?.status === 'pending' ? 'ACCOUNT_PENDING_APPROVAL' : 'ACCOUNT_DISABLED',
      );
    }
    await this.failuresByEmail.delete(email);

    const issued = await this.issueToken(ctx.db, { userId: user.id, kind: 'login' });
    return {
      result: true as const,
      access_token: issued.token,
      token_type: 'Bearer' as const,
      expires_at: formatLocalDateTime(issued.expiresAt, await this.timeZoneOf(ctx.db, user.business_id)),
      expires_timestamp: Math.floor(issued.expiresAt.getTime() / 1000),
    };
  }

  /** Counts a sign-in attempt of any kind against the caller's address (429 past the limit). */
  async countSignInAttempt(ctx: OperationContext): Promise<void> {
    await this.limit(() => this.attemptsByAddress.consume(ctx.ip ?? 'unknown'));
  }

  /** Keeps the callers of live tokens in memory, forgotten on every instance when one ends. */
  keepSignIns(invalidation: CacheInvalidation): void {
    this.signIns = { cache: new TaggedCache(invalidation, KEPT_SIGN_INS), invalidation };
  }

  async logout(ctx: OperationContext) {
    const caller = callerOf(ctx);
    await repo.revokeToken(ctx.db, caller.tokenId, caller.userId, this.clock.now());
    await this.signIns?.invalidation.invalidate(ctx.db, [tokenTag(caller.tokenId)]);
    return { result: true as const };
  }

  readonly authenticate: Authenticator = async (db, bearer, now) => {
    if (!looksLikeToken(bearer)) return null;
    const digest = digestToken(bearer);
    const cache = this.signIns?.cache;
    const key = digest.toString('base64url');
    const kept = cache?.get(key);
    if (kept && kept.expiresAt > now.getTime()) return kept.caller;
    const mark = cache?.mark() ?? 0;
    const row = await repo.findLiveToken(db, { hash: digest }, now);
    const caller = callerOfToken(row);
    if (caller && row)
      cache?.set(key, [tokenTag(caller.tokenId)], { caller, expiresAt: row.expires_at.getTime() }, mark);
    return caller;
  };

  /**
   * The person a login token signed in (email and password, the `login` operation), by the token
   * or its id: for a page that keeps its own session over that sign-in (the approvals page). Null
   * when the token is revoked, expired, of a disabled account, or anything but a person's sign-in
   * (an agent's, a personal or an app token).
   */
  async signedInPerson(db: Queryable, token: { token: string } | { tokenId: number }, now: Date) {
    if ('token' in token && !looksLikeToken(token.token)) return null;
    const row = await repo.findLiveToken(
      db,
      'token' in token ? { hash: digestToken(token.token) } : { id: token.tokenId },
      now,
    );
    return row?.token_kind === 'login' ? callerOfToken(row) : null;
  }

  /**
   * The caller a token signs in, by the token's id, as it stands now (a job run as the one who
   * started it): null when the token is revoked or expired, or its account disabled.
   */
  async callerOfTokenId(db: Queryable, tokenId: number, now: Date): Promise<Caller | null> {
    return callerOfToken(await repo.findLiveToken(db, { id: tokenId }, now));
  }

  /** The signed-in account: who it is, where it belongs, and what its token allows. */
  async me(ctx: OperationContext) {
    const caller = callerOf(ctx);
    const user = await repo.findUserById(ctx.db, caller.userId);
    const token = await repo.findTokenOfUser(ctx.db, caller.tokenId, caller.userId);
    if (!user || !token) throw new AppError('UNAUTHENTICATED');
    const business =
      user.business_id === null ? undefined : await repo.findBusinessById(ctx.db, user.business_id);
    const company =
      user.contractor_company_id === null
        ? undefined
        : await repo.findContractorCompany(ctx.db, user.contractor_company_id);
    return {
      result: true as const,
      user: { id: user.id, name: user.name, email: user.email, kind: user.kind },
      business: business
        ? {
            id: business.id,
            code: business.code,
            name: business.name,
            time_zone: business.time_zone,
            modules: await this.moduleSwitches(ctx.db, business.id),
          }
        : null,
      contractor_company: company
        ? {
            id: company.id,
            name: company.name,
            businesses: (await repo.engagedBusinesses(ctx.db, company.id)).filter(
              (b) => caller.clientScope === undefined || b.id === caller.clientScope,
            ),
          }
        : null,
      token: {
        kind: token.kind,
        client_id: token.business_scope_id,
        profile: token.profile,
        scopes: token.scopes ?? ['*'],
        expires_timestamp: Math.floor(token.expires_at.getTime() / 1000),
      },
    };
  }

  // ----- tokens -----

  /**
   * Issues a bearer token. Agent tokens default to the ops-readonly profile; explicit scopes
   * override the profile. Login and personal tokens without either grant everything.
   */
  async issueToken(
    db: Queryable,
    request: {
      userId: number;
      kind: TokenKind;
      profile?: string;
      scopes?: string[];
      ttlHours?: number;
      name?: string;
      /** Binds the token to one business (app sessions). */
      businessScopeId?: number;
    },
  ): Promise<IssuedToken> {
    const profile =
      request.profile ?? (request.kind === 'agent' && !request.scopes ? DEFAULT_AGENT_PROFILE : null);
    if (profile !== null && !isProfile(profile)) throw new Error(`Unknown profile ${profile}`);
    const unknown = (request.scopes ?? []).filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0)
      throw new Error(`Unknown scopes ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
    const profileScopes = profile === null ? 'all' : PROFILES[profile]!;
    const scopes = request.scopes ?? (profileScopes === 'all' ? null : [...profileScopes]);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (request.ttlHours ?? this.settings.tokenTtlHours) * 3_600_000);
    const token = generateToken();
    const tokenId = await repo.insertToken(db, {
      userId: request.userId,
      tokenHash: digestToken(token),
      kind: request.kind,
      name: request.name ?? null,
      profile,
      scopes,
      businessScopeId: request.businessScopeId ?? null,
      now,
      expiresAt,
    });
    return { token, tokenId, expiresAt };
  }

  // ----- administration (CLI, demo data, later the platform admin's operations) -----

  async createBusiness(
    db: Queryable,
    input: { code: string; name: string; timeZone?: string },
  ): Promise<number> {
    const timeZone = input.timeZone ?? 'UTC';
    if (!isValidTimeZone(timeZone)) throw new Error(`Unknown time zone ${timeZone}`);
    return uniquely('BUSINESS_CODE_TAKEN', () =>
      repo.insertBusiness(db, { code: input.code, name: input.name, timeZone, now: this.clock.now() }),
    );
  }

  async businessExists(db: Queryable, id: number): Promise<boolean> {
    return (await repo.findBusinessById(db, id)) !== undefined;
  }

  async businessByCode(db: Queryable, code: string) {
    const business = await this.findBusiness(db, code);
    if (!business) throw new AppError('BUSINESS_NOT_FOUND');
    return business;
  }

  findBusiness(db: Queryable, code: string) {
    return repo.findBusinessByCode(db, code);
  }

  /** Businesses' public codes by id, in one query. */
  async businessCodesOf(db: Queryable, ids: Iterable<number>): Promise<Map<number, string>> {
    const rows = await repo.businessCodes(db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row.code]));
  }

  /** Businesses' public code and name by id, in one query (alliance members, ...). */
  async businessesOf(
    db: Queryable,
    ids: Iterable<number>,
  ): Promise<Map<number, { code: string; name: string }>> {
    const rows = await repo.businessSummaries(db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, { code: row.code, name: row.name }]));
  }

  countBusinesses(db: Queryable): Promise<number> {
    return repo.countBusinesses(db);
  }

  createContractorCompany(db: Queryable, input: { name: string; businessIds: number[] }): Promise<number> {
    return repo.insertContractorCompany(db, { ...input, now: this.clock.now() });
  }

  async createUser(db: Queryable, user: NewUser): Promise<number> {
    const passwordHash = user.password === null ? null : await hashPassword(user.password);
    return this.insertUser(db, user, passwordHash);
  }

  /** A password's stored form, for `createUsers`. */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  /**
   * Accounts that share one password (the demo's, which its README gives to all), hashed once by
   * `hashPassword`: each scrypt hash costs a good part of a second of CPU. Ids in the order given.
   */
  async createUsers(db: Queryable, users: ReadonlyArray<Omit<NewUser, 'password'>>, passwordHash: string) {
    const ids: number[] = [];
    for (const user of users) ids.push(await this.insertUser(db, user, passwordHash));
    return ids;
  }

  private insertUser(db: Queryable, user: Omit<NewUser, 'password'>, passwordHash: string | null) {
    return uniquely('EMAIL_TAKEN', () =>
      repo.insertUser(db, {
        kind: user.kind,
        email: user.email.toLowerCase(),
        name: user.name,
        password_hash: passwordHash,
        business_id: user.businessId ?? null,
        contractor_company_id: user.contractorCompanyId ?? null,
        ...(user.disabled ? { disabled: true } : {}),
        created_at: this.clock.now(),
      }),
    );
  }

  findUserByEmail(db: Queryable, email: string) {
    return repo.findUserByEmail(db, email.toLowerCase());
  }

  userById(db: Queryable, id: number) {
    return repo.findUserById(db, id);
  }

  /** Users' names by id, in one query, for answers that show who did something. */
  async namesOf(db: Queryable, ids: Iterable<number>): Promise<Map<number, string>> {
    const rows = await repo.userNames(db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** A business's accounts of one kind (its drivers, ...), optionally only these ids, by id. */
  usersOfKind(db: Queryable, businessId: number, kind: AccountKind, ids?: readonly number[]) {
    return repo.usersOfKind(db, businessId, kind, ids);
  }

  async userByEmail(db: Queryable, email: string) {
    const user = await this.findUserByEmail(db, email);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return user;
  }

  /**
   * The business a call acts in: the caller's own, or for a contractor the business it names
   * (`requested`), which its company must work for; a contractor working for one business may
   * leave it out.
   */
  async actingBusiness(db: Queryable, caller: Caller, requested?: number): Promise<number> {
    if (caller.businessId !== null) return caller.businessId;
    if (caller.contractorCompanyId === null) throw new AppError('FORBIDDEN');
    const engaged = (await repo.engagedBusinesses(db, caller.contractorCompanyId)).map((b) => b.id);
    if (caller.clientScope !== undefined) {
      // An app session acts in the client it was opened for, and only while the company works for it.
      if (!engaged.includes(caller.clientScope) || (requested ?? caller.clientScope) !== caller.clientScope) {
        throw new AppError('FORBIDDEN');
      }
      return caller.clientScope;
    }
    if (requested !== undefined) {
      if (!engaged.includes(requested)) throw new AppError('FORBIDDEN');
      return requested;
    }
    if (engaged.length !== 1) throw new AppError('BUSINESS_REQUIRED');
    return engaged[0]!;
  }

  /** An enabled contractor account, with its company. */
  async contractorAccount(db: Queryable, userId: number) {
    const user = await repo.findUserById(db, userId);
    if (user?.kind !== 'contractor' || user.disabled || user.contractor_company_id === null) return undefined;
    return { id: user.id, name: user.name, contractorCompanyId: user.contractor_company_id };
  }

  /** Whether the contractor company works for the business. */
  async isEngaged(db: Queryable, contractorCompanyId: number, businessId: number): Promise<boolean> {
    return (await repo.engagedBusinesses(db, contractorCompanyId)).some((b) => b.id === businessId);
  }

  /** Whether the account works in the business: one of its own, or of a contractor company working for it. */
  async belongsTo(
    db: Queryable,
    user: { business_id: number | null; contractor_company_id: number | null },
    businessId: number,
  ): Promise<boolean> {
    if (user.business_id !== null) return user.business_id === businessId;
    return user.contractor_company_id !== null && this.isEngaged(db, user.contractor_company_id, businessId);
  }

  /** Whether the user is a customer account of the business. */
  async isCustomerOf(db: Queryable, userId: number, businessId: number): Promise<boolean> {
    return (await repo.findUserInBusiness(db, userId, businessId))?.kind === 'customer';
  }

  /** Refuses (CUSTOMER_NOT_FOUND) a user who is not a customer account of the business. */
  async requireCustomerOf(db: Queryable, userId: number, businessId: number): Promise<void> {
    if (!(await this.isCustomerOf(db, userId, businessId))) {
      throw new AppError('CUSTOMER_NOT_FOUND', { params: { customer_id: userId } });
    }
  }

  // ----- module switches -----

  /** Whether the platform offers a module, and whether the business has it on. */
  /** Which optional modules the system offers now (the platform admin's switches). */
  async systemModules(db: Queryable): Promise<Record<BusinessModule, boolean>> {
    const entries = await Promise.all(
      BUSINESS_MODULES.map(async (module) => [module, await repo.isModuleAvailable(db, module)] as const),
    );
    return Object.fromEntries(entries) as Record<BusinessModule, boolean>;
  }

  async moduleState(db: Queryable, businessId: number, module: BusinessModule) {
    return {
      available: await repo.isModuleAvailable(db, module),
      enabled: (await repo.enabledModules(db, businessId)).includes(module),
    };
  }

  /**
   * The switch of an operation's module, checked by the executor before the input: a call to a
   * module that is off is refused whatever it holds. The module is that of the business the
   * caller acts in (for a contractor, the one `business_id` names when it is an id, as
   * actingBusiness picks it). A read of a module the platform does not offer answers 503 (not
   * yet available on the system); any other call to a module that is not on, 403.
   */
  readonly requireFeature: FeatureGate = async (db, { feature, caller, use, input, setup }) => {
    const named = idParam.safeParse(
      typeof input === 'object' && input ? Reflect.get(input, 'business_id') : undefined,
    );
    const family = OPT_IN_FAMILIES.find((known) => known === feature);
    const module = BUSINESS_MODULES.find((known) => known === feature);
    if (!family && !module) {
      throw new Error(
        `No switch ${feature}: the switches are ${[...BUSINESS_MODULES, ...OPT_IN_FAMILIES].join(', ')}`,
      );
    }
    const businessId = await this.actingBusiness(db, caller, named.success ? named.data : undefined);
    if (family) {
      const state = await this.familyState(db, businessId, family);
      // The operation that sets the family's data up is the one call a not-migrated family takes.
      if (state === 'on' || (state === 'not_migrated' && setup)) return;
      if (family === 'sms_marketing') {
        throw new AppError('SMS_MARKETING_DISABLED', { details: { feature: family, reason: state } });
      }
      throw featureDisabled(family, state);
    }
    const state = await this.moduleState(db, businessId, module!);
    if (!state.available && use === 'read') throw new AppError('MODULE_UNAVAILABLE');
    if (!state.available || !state.enabled) throw new AppError('MODULE_DISABLED');
  };

  // ----- opt-in families -----

  private readonly familySetups = new Map<OptInFamily, FamilySetupCheck>();

  /** The module owning a family's data says how to tell that a business is set up for it. */
  setUpCheck(family: OptInFamily, check: FamilySetupCheck): void {
    this.familySetups.set(family, check);
  }

  /**
   * A family's state in a business: revoked by the platform admin (whatever the business says),
   * off, on but its data not set up yet (not migrated), or on.
   */
  async familyState(db: Queryable, businessId: number, family: OptInFamily): Promise<FamilyState> {
    const row = await repo.familySwitch(db, businessId, family);
    if (row.revoked) return 'revoked';
    if (!row.enabled) return 'off';
    const check = this.familySetups.get(family);
    if (check && !(await check(db, businessId))) return 'not_migrated';
    return 'on';
  }

  private async familyStatus(db: Queryable, businessId: number, family: OptInFamily) {
    const row = await repo.familySwitch(db, businessId, family);
    return {
      family,
      enabled: row.enabled,
      revoked: row.revoked,
      state: await this.familyState(db, businessId, family),
    };
  }

  private async familyAnswer(db: Queryable, businessId: number, family: OptInFamily) {
    return {
      result: true as const,
      business_id: businessId,
      ...(await this.familyStatus(db, businessId, family)),
    };
  }

  /** Every family's state in the caller's business. */
  async families(ctx: OperationContext) {
    const businessId = businessOf(ctx);
    const families = await Promise.all(
      OPT_IN_FAMILIES.map((family) => this.familyStatus(ctx.db, businessId, family)),
    );
    return { result: true as const, business_id: businessId, families };
  }

  /** A business turns a family on or off for itself (a revocation still stands over it). */
  async setFamily(ctx: OperationContext, family: OptInFamily, enabled: boolean) {
    const businessId = businessOf(ctx);
    await repo.setFamilySwitch(ctx.db, businessId, family, { enabled }, this.clock.now());
    return this.familyAnswer(ctx.db, businessId, family);
  }

  /** Platform admins: revoke a family for one business, or lift the revocation. */
  async setFamilyRevoked(ctx: OperationContext, businessId: number, family: OptInFamily, revoked: boolean) {
    if (!(await repo.findBusinessById(ctx.db, businessId))) {
      throw new AppError('BUSINESS_NOT_FOUND', { params: { business: businessId } });
    }
    await repo.setFamilySwitch(ctx.db, businessId, family, { revoked }, this.clock.now());
    return this.familyAnswer(ctx.db, businessId, family);
  }

  /** Platform admins: offer a module on this system, or withdraw it. */
  async setPlatformModule(ctx: OperationContext, module: BusinessModule, available: boolean) {
    await repo.setPlatformModule(ctx.db, module, available, this.clock.now());
    return { result: true as const, module, available };
  }

  /** Platform admins: turn a module on or off for one business. */
  async setBusinessModule(
    ctx: OperationContext,
    businessId: number,
    module: BusinessModule,
    enabled: boolean,
  ) {
    if (!(await repo.findBusinessById(ctx.db, businessId))) {
      throw new AppError('BUSINESS_NOT_FOUND', { params: { business: businessId } });
    }
    await repo.setBusinessModule(ctx.db, businessId, module, enabled, this.clock.now());
    return {
      result: true as const,
      business_id: businessId,
      ...(await this.moduleState(ctx.db, businessId, module)),
      module,
    };
  }

  private async moduleSwitches(db: Queryable, businessId: number): Promise<Record<BusinessModule, boolean>> {
    const enabled = await repo.enabledModules(db, businessId);
    return Object.fromEntries(BUSINESS_MODULES.map((module) => [module, enabled.includes(module)])) as Record<
      BusinessModule,
      boolean
    >;
  }

  /**
   * A business's time zone. It is set when the business is created and never changes (nothing
   * updates it), so it is kept once read: every status change's rollup asks for it.
   */
  /** An instant as the business's wall clock reads it: `YYYY-MM-DD HH:MM:SS` in its time zone. */
  async localDateTimeOf(db: Queryable, businessId: number, at: Date): Promise<string> {
    return formatLocalDateTime(at, await this.timeZoneOf(db, businessId));
  }

  async timeZoneOf(db: Queryable, businessId: number | null): Promise<string> {
    if (businessId === null) return 'UTC';
    const known = this.timeZones.get(businessId);
    if (known) return known;
    const business = await repo.findBusinessById(db, businessId);
    if (!business) return 'UTC';
    if (this.timeZones.size >= KEPT_TIME_ZONES) this.timeZones.clear();
    this.timeZones.set(businessId, business.time_zone);
    return business.time_zone;
  }

  private limit(step: () => Promise<unknown>): Promise<void> {
    return limited(step);
  }
}

/** Runs a limiter step; a refusal becomes a 429 with Retry-After. */
export async function limited(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) throw rateLimited(refusal.msBeforeNext);
    throw refusal;
  }
}

async function uniquely<T>(
  code: 'EMAIL_TAKEN' | 'BUSINESS_CODE_TAKEN',
  insert: () => Promise<T>,
): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new AppError(code);
    throw error;
  }
}

/** The caller a live token makes, or null. */
function callerOfToken(row: Awaited<ReturnType<typeof repo.findLiveToken>>): Caller | null {
  if (!row) return null;
  const scope = row.business_scope_id;
  // An app session of a business the account has since left is no session at all.
  if (scope !== null && row.business_id !== null && scope !== row.business_id) return null;
  return {
    userId: row.user_id,
    kind: row.kind,
    businessId: row.business_id,
    contractorCompanyId: row.contractor_company_id,
    tokenId: row.token_id,
    scopes: row.scopes === null ? 'all' : new Set(row.scopes),
    ...(scope === null ? {} : { clientScope: scope }),
    ...(row.token_kind === 'agent' ? { agent: true as const } : {}),
  };
}
