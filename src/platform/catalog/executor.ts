import { LRUCache } from 'lru-cache';
import type { CacheInvalidation } from '../cache/invalidation.ts';
import type { Clock } from '../clock.ts';
import type { Db, Queryable } from '../db/database.ts';
import { databaseRefusal, isConcurrencyFailure } from '../db/errors.ts';
import { underSavepoint } from '../db/savepoint.ts';
import { AppError, isAppError } from '../errors.ts';
import type { Language } from '../i18n/index.ts';
import { composedOfShared, isComposed, shareJson } from '../json.ts';
import type { RequestLimits } from '../limits.ts';
import { safeParseInSlices } from '../slices.ts';
import {
  type ConnectionScopes,
  hasScope,
  mayCall,
  narrowed,
  refusalOf,
  requireConfirmation,
  scopeRefusal,
} from './access.ts';
import { dryRunAnswer, skippingOutside } from './answers.ts';
import { recordAudit } from './audit.ts';
import { checkedInput } from './input-checks.ts';
import { acceptAsJob, JobAlreadyDone, type JobDesk, type JobRun } from './jobs.ts';
import { type KeptAnswer, KeptAnswers } from './kept-answers.ts';
import {
  type AccountKind,
  type AnswerMeta,
  type Caller,
  type Door,
  type Operation,
  type OperationContext,
  type OutsideEffect,
  type OutsideWorld,
  PERFORM_EVERYTHING,
  type ProviderCaller,
  Representation,
} from './operation.ts';
import type {
  AlliedAccess,
  Authenticator,
  BusinessAccess,
  FeatureGate,
  ProviderAuthenticator,
} from './ports.ts';
import type { ReadRouting } from './reads.ts';

export type { AlliedAccess, Authenticator, BusinessAccess, FeatureGate, ProviderAuthenticator };

/** What a door knows about one call. */
export interface Invocation {
  bearer: string | undefined;
  /**
   * The caller, when the door signed it in itself and keeps its own session over that sign-in
   * (the approvals page): the bearer is not read then.
   */
  signedIn?: Caller;
  /** A tracking provider's key (REST: the X-OTEP-Provider-Key header). */
  providerKey?: string;
  /** The media type the door negotiated for the answer (see Operation.representations). */
  representation?: string;
  door: Door;
  lang: Language;
  requestId: string;
  ip?: string;
  dryRun?: boolean;
  /**
   * What the connection allows beyond the token (agent doors: X-MCP-Profile, X-MCP-Scopes): it only
   * narrows what the token grants, never widens it. None: the token's own scopes.
   */
  scopes?: ConnectionScopes;
  /** The caller stated that it means this high-risk call (see Operation.confirm). */
  confirmed?: boolean;
  /**
   * The door can answer with a job (REST: 202 and Location): `preferred` when the caller asked for
   * one (Prefer: respond-async). None: the call always runs at once.
   */
  async?: 'allowed' | 'preferred';
  /** The call is a job's run, by a worker (see JobRun). */
  job?: JobRun;
  /** Filled by the operation for the door: the version its answer was built from, ... */
  answer?: AnswerMeta;
  /** The door already counted the request this call belongs to (Executor.admitRequest). */
  admission?: RequestAdmission;
  /**
   * The request in the door's own words, when they alone decide the input (a GET's path and
   * query, with the language and media type): an anonymous answer kept for them is found again
   * by them (Executor.keptAnswerOf).
   */
  requestWords?: string;
}

/**
 * A request a door counted against the caller's shares before any of it ran (GraphQL, MCP): the
 * first call it makes is paid for; any further call counts as a call of its own.
 */
export interface RequestAdmission {
  /** Who the request's token is, when it is a valid one. */
  caller: Caller | null;
  bearer: string | undefined;
  share: number | undefined;
  /** The call the request paid for has been made. */
  spent: boolean;
}

export type Outcome = 'ok' | 'rejected' | 'failed';

/**
 * A rule applied to every answer after its output contract, keyed on the caller (price hiding
 * for customers, ...): modules provide them, the executor applies them to every door alike.
 */
export type ResponsePolicy = (
  ctx: OperationContext,
  operation: Operation,
  result: unknown,
) => Promise<unknown>;

export interface ExecutorDeps {
  db: Db;
  clock: Clock;
  authenticate: Authenticator;
  authenticateProvider?: ProviderAuthenticator;
  requireFeature?: FeatureGate;
  businessAccess?: BusinessAccess;
  alliedAccess?: AlliedAccess;
  responsePolicies?: readonly ResponsePolicy[];
  /** Fair shares per token, business and address; none: unlimited (tools, tests of other things). */
  limits?: RequestLimits;
  observe?: (operation: string, outcome: Outcome, seconds: number) => void;
  /** Keeps anonymous answers of operations with `publicCache` until a write invalidates them. */
  cacheInvalidation?: CacheInvalidation;
  /** Sends queries declaring `reads: 'replica'` to a read replica; none: every read to `db`. */
  reads?: ReadRouting;
  /** Accepts calls as jobs (Operation.job); none: every call runs at once. */
  jobs?: JobDesk;
}

/** A call let in: who makes it, the business it acts in, its valid input. */
interface Admitted {
  caller: Caller | null;
  provider: ProviderCaller | null;
  /** Whose fair share of the service the call counts against. */
  share: number | undefined;
  business: number | null;
  representation: string | undefined;
  input: unknown;
}

/** How a mutation ended: its answer, or a refusal raised with `commit: true`. */
type Ending = { result: unknown } | { refusal: AppError };

/** Thrown inside a dry-run transaction to roll it back while keeping the outcome. */
class DryRunRollback {
  constructor(readonly ending: Ending) {}
}

/**
 * The one place where a call becomes an operation run: authentication, authorization by account
 * kind and scope, the operation's module switch, input validation, the transaction (rolled back
 * for a dry run), audit and the output contract. Doors translate their protocol to an Invocation
 * and call `execute`.
 */
export class Executor {
  /**
   * Answers of public versioned reads (a parcel's public timeline), by operation, input, language,
   * representation and version: an anonymous reader polling a number that did not change gets the
   * answer built for the last one, after one cheap version query. A version changes whenever the
   * answer would (Operation.version), so no entry is ever stale.
   */
  private readonly publicAnswers = new LRUCache<string, { answer: unknown }>({ max: 2_000 });
  /**
   * Version reads of public answers in flight: readers of the same number at the same moment share
   * one query (what it finds is at most that query's few milliseconds old, as any read's is).
   */
  private readonly versionsInFlight = new Map<string, Promise<string | null>>();
  /** Anonymous answers of operations with `publicCache`, kept until a write invalidates them. */
  private readonly keptAnswers: KeptAnswers | undefined;

  constructor(private readonly deps: ExecutorDeps) {
    this.keptAnswers = deps.cacheInvalidation && new KeptAnswers(deps.cacheInvalidation);
  }

  /**
   * The version of what the operation would answer (its `version`, after the same checks as a
   * call), or null when it declares none or has nothing to answer: a door compares it with what
   * the caller holds before building anything.
   */
  async version(operation: Operation, rawInput: unknown, invocation: Invocation): Promise<string | null> {
    if (!operation.version || operation.kind !== 'query') return null;
    const admitted = await this.admit(operation, rawInput, invocation);
    return this.reading(operation, admitted, (db) => {
      const ctx = this.contextFor(db, admitted, invocation, PERFORM_EVERYTHING);
      const kept = this.keptAnswerKey(operation, admitted, ctx);
      const version = kept === undefined ? undefined : this.keptAnswers!.get(kept)?.version;
      return version !== undefined ? Promise.resolve(version) : operation.version!(ctx, admitted.input);
    });
  }

  /** A query's reads, on the replica when the operation and the caller allow it (ExecutorDeps.reads). */
  private reading<T>(
    operation: Operation,
    admitted: Admitted,
    run: (db: Queryable) => Promise<T>,
  ): Promise<T> {
    return this.deps.reads ? this.deps.reads.read(operation, admitted, this.deps.db, run) : run(this.deps.db);
  }

  /**
   * The answer kept for an anonymous request the door named in the same words before
   * (Invocation.requestWords): no input to read or check again, no database. It counts against
   * the caller's address as any anonymous call does. None: the door calls `execute`.
   */
  async keptAnswerOf(operation: Operation, invocation: Invocation): Promise<KeptAnswer | undefined> {
    const words = invocation.requestWords;
    if (words === undefined || invocation.bearer || invocation.providerKey || invocation.signedIn) {
      return undefined;
    }
    const kept = this.keptAnswers?.forRequest(operation, words);
    if (!kept) return undefined;
    await this.deps.limits?.admitAddress(invocation.ip);
    this.deps.observe?.(operation.name, 'ok', 0);
    return kept;
  }

  /** Where an answer of this call is kept, if it may be: an anonymous call of a `publicCache` operation. */
  private keptAnswerKey(operation: Operation, admitted: Admitted, ctx: OperationContext): string | undefined {
    if (admitted.caller || admitted.provider) return undefined;
    return this.keptAnswers?.keyOf(operation, admitted.input, ctx);
  }

  /**
   * Counts a whole request against its token (or its address, without a valid one) and its
   * business, before anything of it is parsed or run: RATE_LIMITED past a share. A door whose
   * requests may run no operation at all (a GraphQL `__typename`, an MCP `tools/list`) calls it so
   * that every request counts, and hands the admission to the calls the request makes.
   */
  async admitRequest(invocation: Pick<Invocation, 'bearer' | 'ip' | 'scopes'>): Promise<RequestAdmission> {
    const limits = this.deps.limits;
    await limits?.admitToken(invocation.bearer);
    const caller = await this.callerOf(invocation.bearer, invocation.scopes);
    if (!caller) await limits?.admitAddress(invocation.ip);
    const share = caller?.clientScope ?? caller?.businessId ?? undefined;
    await limits?.admitBusiness(share);
    return { caller, bearer: invocation.bearer, share, spent: false };
  }

  /** Who a bearer token belongs to, or null: for doors that size what they allow by it. */
  async callerOf(bearer: string | undefined, connectionScopes?: ConnectionScopes): Promise<Caller | null> {
    const caller = bearer ? await this.deps.authenticate(this.deps.db, bearer, this.deps.clock.now()) : null;
    return caller && narrowed(caller, connectionScopes);
  }

  /**
   * Runs an operation inside another operation's transaction, as that operation's caller, with
   * every check a call gets (kind, scopes, module switch, input, business): an approved proposal
   * run by its approver. It runs under a savepoint: its refusal or failure undoes its own writes
   * only, and with `preview` it is always undone and performs nothing outside (a dry run).
   */
  async runWithin(
    outer: OperationContext,
    operation: Operation,
    rawInput: unknown,
    options: { preview?: boolean; confirmed?: boolean } = {},
  ): Promise<unknown> {
    const caller = outer.caller;
    const refusal = refusalOf(operation, caller, outer.door);
    if (refusal) throw refusal;
    // A high-risk call run from inside another keeps its own confirmation rule: an approval is one.
    if (!options.preview) {
      requireConfirmation(operation, caller, { door: outer.door, confirmed: options.confirmed });
    }
    await this.requireFeature(operation, caller, rawInput);
    const input = await this.validate(operation, rawInput, outer.lang);
    const business = caller ? await this.businessOfCall(operation, caller, input, outer.door) : null;
    const skipped: OutsideEffect[] = [];
    const outside = options.preview ? skippingOutside(skipped) : outer.outside;
    const ctx: OperationContext = { ...outer, business, outside, answer: {}, representation: undefined };
    try {
      const result = await underSavepoint(
        outer.db,
        async () => {
          const answer = await this.answerOf(ctx, operation, input);
          if (operation.kind === 'mutation') {
            await recordAudit(outer.db, {
              at: this.deps.clock.now(),
              operation: operation.name,
              door: outer.door,
              actorUserId: caller?.userId ?? null,
              businessId: business,
              requestId: outer.requestId,
            });
          }
          return answer;
        },
        { undo: options.preview },
      );
      return options.preview ? dryRunAnswer(result, skipped) : result;
    } catch (error) {
      throw isAppError(error) ? error : (databaseRefusal(error) ?? error);
    }
  }

  /** Whether this caller may call the operation at all (kind and scopes): what a door lists for it. */
  mayCall(operation: Operation, caller: Caller | null): boolean {
    return mayCall(operation, caller);
  }

  /** Why this caller may not call the operation at all (kind, scopes), as this door says it; none: it may. */
  refusal(operation: Operation, caller: Caller | null, door: Door): AppError | undefined {
    return refusalOf(operation, caller, door);
  }

  async execute(operation: Operation, rawInput: unknown, invocation: Invocation): Promise<unknown> {
    const started = performance.now();
    let outcome: Outcome = 'failed';
    try {
      const admitted = await this.admit(operation, rawInput, invocation);
      const accepted = await acceptAsJob(this.deps.jobs, operation, rawInput, admitted, invocation);
      if (accepted) {
        outcome = 'ok';
        return accepted.resource;
      }
      const run = () => this.run(operation, admitted, invocation);
      // Even a failed write may have written (a refusal that commits): its caller reads its own.
      const wrote = () =>
        operation.kind === 'mutation' && !invocation.dryRun && this.deps.reads?.wrote(admitted);
      // A job's run is held to the workers' own concurrency, not the callers' shares.
      const result = await (operation.expensive && this.deps.limits && !invocation.job
        ? this.deps.limits.expensive(admitted.share, run)
        : run()
      ).finally(wrote);
      outcome = 'ok';
      return result;
    } catch (error) {
      // What the database refused (a duplicate, a missing reference, a concurrent writer) is the
      // caller's to know in a documented code, on every door alike.
      const refusal = isAppError(error) ? error : (databaseRefusal(error) ?? error);
      if (isAppError(refusal) && refusal.status < 500) outcome = 'rejected';
      throw refusal;
    } finally {
      this.deps.observe?.(operation.name, outcome, (performance.now() - started) / 1000);
    }
  }

  /**
   * Everything before a run: the caller's shares counted, who calls and whether they may, the
   * feature switch, the input, the business the call acts in. A bearer token counts before it is
   * even looked up; a caller without a valid one (none, a forged one, a refused one) counts
   * against its address.
   */
  private async admit(operation: Operation, rawInput: unknown, invocation: Invocation): Promise<Admitted> {
    // The first call of a request the door counted is paid for, as long as it is the same caller's.
    const admission = invocation.admission;
    const paid =
      admission && !admission.spent && admission.bearer === invocation.bearer ? admission : undefined;
    if (paid) paid.spent = true;
    const limits = paid || invocation.job ? undefined : this.deps.limits;
    await limits?.admitToken(invocation.bearer);
    let provider: ProviderCaller | null;
    let caller: Caller | null;
    try {
      provider = await this.authorizeProvider(operation, invocation);
      caller = provider ? null : await this.authorize(operation, invocation);
    } catch (refusal) {
      await limits?.admitAddress(invocation.ip);
      throw refusal;
    }
    if (!caller && !provider) await limits?.admitAddress(invocation.ip);
    const share = caller?.clientScope ?? caller?.businessId ?? provider?.businessId;
    // A business the door did not count (a provider key's) counts now.
    await (paid && paid.share !== share ? this.deps.limits : limits)?.admitBusiness(share);
    await this.requireFeature(operation, caller, rawInput);
    requireConfirmation(operation, caller, invocation);
    const input = await this.validate(operation, rawInput, invocation.lang);
    const business = caller
      ? await this.businessOfCall(operation, caller, input, invocation.door)
      : (provider?.businessId ?? null);
    if (invocation.job && business !== invocation.job.business) throw new AppError('FORBIDDEN');
    // Only a media type the operation declares reaches it.
    const representation = operation.representations?.find((type) => type === invocation.representation);
    return { caller, provider, share, business, representation, input };
  }

  /** The business the call acts in, and the customer it names checked against it (Access.business, .customer). */
  private async businessOfCall(
    operation: Operation,
    caller: Caller,
    input: unknown,
    door: Door,
  ): Promise<number | null> {
    const access = 'kinds' in operation.access ? operation.access : undefined;
    const fields = (input ?? {}) as Record<string, unknown>;
    const requested = fields.business_id as number | undefined;
    if (
      access?.allied &&
      caller.businessId !== null &&
      requested !== undefined &&
      requested !== caller.businessId
    ) {
      return this.alliedBusiness(access.allied, caller, requested, door);
    }
    const business =
      access?.business === 'acting'
        ? await this.businessAccess().actingBusiness(this.deps.db, caller, requested)
        : caller.businessId;
    const customer = access?.customer === undefined ? undefined : fields[access.customer];
    if (typeof customer === 'number') {
      if (business === null) throw new AppError('FORBIDDEN');
      await this.businessAccess().requireCustomerOf(this.deps.db, customer, business);
    }
    return business;
  }

  /**
   * Staff reading another business's data (Access.allied): of the allowed kinds, with the scopes,
   * not an app session bound to its own client, and granted by that business at this moment.
   */
  private async alliedBusiness(
    allied: { grant: string; kinds: readonly AccountKind[]; scopes: readonly string[] },
    caller: Caller,
    requested: number,
    door: Door,
  ): Promise<number> {
    const missing = allied.scopes.filter((scope) => !hasScope(caller, scope));
    if (missing.length > 0) throw scopeRefusal(missing, door);
    const granted =
      allied.kinds.includes(caller.kind) &&
      caller.clientScope === undefined &&
      caller.businessId !== null &&
      (await this.deps.alliedAccess?.grants(this.deps.db, requested, caller.businessId, allied.grant)) ===
        true;
    if (!granted) throw new AppError('CLIENT_NOT_ACCESSIBLE');
    return requested;
  }

  private businessAccess(): BusinessAccess {
    if (!this.deps.businessAccess) throw new Error('No BusinessAccess is configured for this executor');
    return this.deps.businessAccess;
  }

  /** Operations with provider access take the provider's key, and only that. */
  private async authorizeProvider(
    operation: Operation,
    invocation: Invocation,
  ): Promise<ProviderCaller | null> {
    if (!('provider' in operation.access) || !operation.access.provider) return null;
    const provider =
      invocation.providerKey && this.deps.authenticateProvider
        ? await this.deps.authenticateProvider(this.deps.db, invocation.providerKey)
        : null;
    if (!provider) throw new AppError('PROVIDER_CREDENTIAL_REQUIRED');
    return provider;
  }

  private async authorize(operation: Operation, invocation: Invocation): Promise<Caller | null> {
    const caller = invocation.signedIn ?? (await this.callerOf(invocation.bearer, invocation.scopes));
    const refusal = refusalOf(operation, caller, invocation.door);
    if (refusal) throw refusal;
    return caller;
  }

  /** An operation of an optional module answers only while the module is on, whatever its input. */
  private async requireFeature(
    operation: Operation,
    caller: Caller | null,
    rawInput: unknown,
  ): Promise<void> {
    if (operation.feature === undefined) return;
    if (!caller || !this.deps.requireFeature) {
      throw new Error(
        `Operation ${operation.name} belongs to ${operation.feature}, which no gate checks here`,
      );
    }
    await this.deps.requireFeature(this.deps.db, {
      feature: operation.feature,
      caller,
      use: operation.kind === 'query' ? 'read' : 'write',
      input: rawInput,
      setup: operation.featureSetup === true,
    });
  }

  private validate(operation: Operation, rawInput: unknown, lang: Language): Promise<unknown> {
    return checkedInput(operation, rawInput, lang);
  }

  private async run(operation: Operation, admitted: Admitted, invocation: Invocation): Promise<unknown> {
    const skipped: OutsideEffect[] = [];
    let performed = 0;
    const outside: OutsideWorld = invocation.dryRun
      ? skippingOutside(skipped)
      : {
          perform: (_effect, run) => {
            performed++;
            return run();
          },
        };
    const context = (db: Queryable) => this.contextFor(db, admitted, invocation, outside);

    if (operation.kind === 'query')
      return this.reading(operation, admitted, (db) =>
        this.query(operation, admitted, invocation, context(db)),
      );
    if (operation.writes && !invocation.dryRun)
      return this.runOwnTransactions(operation, admitted, invocation, context);
    let ended: Ending;
    try {
      ended = await this.transact(operation, admitted, invocation, context);
    } catch (error) {
      // Two writers met on the same rows and PostgreSQL stopped this one: one more try usually
      // passes, unless the first did something outside the database that a second would repeat.
      if (!isConcurrencyFailure(error) || performed > 0) throw error;
      ended = await this.transact(operation, admitted, invocation, context);
    }
    if (invocation.dryRun && invocation.answer) {
      invocation.answer.dryRun = true;
      invocation.answer.skippedEffects = [...(invocation.answer.skippedEffects ?? []), ...skipped];
    }
    if ('refusal' in ended) throw ended.refusal;
    return invocation.dryRun ? dryRunAnswer(ended.result, skipped) : ended.result;
  }

  /** A query's answer: kept for anonymous callers where it may be, built otherwise. */
  private async query(
    operation: Operation,
    admitted: Admitted,
    invocation: Invocation,
    ctx: OperationContext,
  ): Promise<unknown> {
    const { input } = admitted;
    const build = () => this.answerOf(ctx, operation, input);
    const keptKey = this.keptAnswerKey(operation, admitted, ctx);
    if (keptKey !== undefined) {
      const kept = this.keptAnswers!.get(keptKey);
      if (invocation.requestWords !== undefined) {
        this.keptAnswers!.nameRequest(operation, invocation.requestWords, keptKey);
      }
      if (kept) {
        if (kept.version !== undefined) ctx.answer.version = kept.version;
        return kept.answer;
      }
      const mark = this.keptAnswers!.mark();
      const answer = await build();
      // Sent again and again unchanged: its JSON is written once.
      shareJson(answer instanceof Representation ? answer.body : answer);
      const tags = operation.publicCache!.tags(input);
      this.keptAnswers!.keep(keptKey, tags, { answer, version: ctx.answer.version }, mark);
      return answer;
    }
    // Only an anonymous caller's answer is everyone's: a signed-in one may be shaped by who asks.
    if (!operation.version || !operation.access.public || admitted.caller || admitted.provider)
      return build();
    // A version read on one server never stands for an answer built on the other (a replica behind).
    const primary = ctx.db === this.deps.db;
    const asked = JSON.stringify([operation.name, input, ctx.lang, ctx.representation ?? null, primary]);
    let reading = this.versionsInFlight.get(asked);
    if (!reading) {
      reading = operation.version(ctx, input).finally(() => this.versionsInFlight.delete(asked));
      this.versionsInFlight.set(asked, reading);
    }
    const version = await reading;
    if (version === null) return build();
    const key = `${asked}\n${version}`;
    const kept = this.publicAnswers.get(key);
    if (kept) {
      ctx.answer.version = version;
      return kept.answer;
    }
    const answer = await build();
    this.publicAnswers.set(key, { answer });
    return answer;
  }

  /** A mutation that opens its own transactions, if any (Operation.writes). */
  private async runOwnTransactions(
    operation: Operation,
    { caller, provider, input }: Admitted,
    invocation: Invocation,
    context: (db: Queryable) => OperationContext,
  ): Promise<unknown> {
    const result = await this.answerOf(context(this.deps.db), operation, input);
    if (operation.writes === 'stepwise') {
      await recordAudit(this.deps.db, {
        at: this.deps.clock.now(),
        operation: operation.name,
        door: invocation.door,
        actorUserId: caller?.userId ?? null,
        businessId: caller?.businessId ?? provider?.businessId ?? null,
        requestId: invocation.requestId,
      });
    }
    return result;
  }

  /** A mutation in its transaction, with its audit row; rolled back whole for a dry run. */
  private transact(
    operation: Operation,
    { caller, provider, input }: Admitted,
    invocation: Invocation,
    context: (db: Queryable) => OperationContext,
  ): Promise<Ending> {
    return this.deps.db
      .transaction()
      .execute(async (trx) => {
        const ctx = context(trx);
        if (invocation.job && !(await invocation.job.begin(trx))) throw new JobAlreadyDone();
        let ending: Ending;
        try {
          ending = { result: await this.answerOf(ctx, operation, input) };
        } catch (error) {
          // A refusal that keeps what the operation wrote commits like a result, then is thrown.
          if (!(error instanceof AppError && error.options.commit)) throw error;
          ending = { refusal: error };
        }
        await recordAudit(trx, {
          at: this.deps.clock.now(),
          operation: operation.name,
          door: invocation.door,
          actorUserId: caller?.userId ?? null,
          businessId: caller?.businessId ?? provider?.businessId ?? null,
          requestId: invocation.requestId,
        });
        await invocation.job?.finish(trx, ending);
        if (invocation.dryRun) throw new DryRunRollback(ending);
        return ending;
      })
      .catch((error: unknown) => {
        if (error instanceof DryRunRollback) return error.ending;
        throw error;
      });
  }

  private contextFor(
    db: Queryable,
    { caller, provider, business, representation }: Admitted,
    invocation: Invocation,
    outside: OutsideWorld,
  ): OperationContext {
    return {
      db,
      caller,
      provider,
      business,
      representation,
      lang: invocation.lang,
      clock: this.deps.clock,
      requestId: invocation.requestId,
      door: invocation.door,
      ip: invocation.ip,
      outside,
      answer: invocation.answer ?? {},
      progress: invocation.job?.progress,
    };
  }

  /** The handler's answer, through the output contract and the response policies. */
  private async answerOf(ctx: OperationContext, operation: Operation, input: unknown): Promise<unknown> {
    return this.respond(
      ctx,
      operation,
      await this.checkOutput(operation, await operation.handler(ctx, input)),
    );
  }

  private async respond(ctx: OperationContext, operation: Operation, result: unknown): Promise<unknown> {
    if (result instanceof Representation) return result;
    let answer = result;
    for (const policy of this.deps.responsePolicies ?? []) answer = await policy(ctx, operation, answer);
    return answer;
  }

  /** The output schema is an allowlist: fields it does not name never leave the service. */
  private async checkOutput(operation: Operation, result: unknown): Promise<unknown> {
    if (result instanceof Representation) return result;
    // In slices: the report of a 5,000-row import must not hold every other request meanwhile.
    const parsed = await safeParseInSlices(operation.output, result);
    // An answer made of shared parts stays one through its contract (which copies the outer object).
    if (parsed.success) return isComposed(result) ? composedOfShared(parsed.data) : parsed.data;
    throw new Error(`Operation ${operation.name} broke its output contract: ${parsed.error.message}`);
  }
}

export { validationFailed } from './answers.ts';
