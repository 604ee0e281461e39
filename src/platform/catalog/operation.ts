import type { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import type { Language } from '../i18n/index.ts';

export const ACCOUNT_KINDS = [
  'platform_admin',
  'client_admin',
  'employee',
  'contractor',
  'customer',
  'driver',
] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** The kinds that work for a business (its admins and employees): who most operations are for. */
export const STAFF = ['client_admin', 'employee'] as const satisfies readonly AccountKind[];

/** Who is calling, as established from their bearer token. */
export interface Caller {
  userId: number;
  kind: AccountKind;
  /** The business the account belongs to; null for platform admins and contractors. */
  businessId: number | null;
  /** For contractors: the contractor company the account works for. */
  contractorCompanyId: number | null;
  tokenId: number;
  /** Scopes the token grants; 'all' for an unrestricted token. */
  scopes: ReadonlySet<string> | 'all';
  /** App sessions: the only business the token may act in. */
  clientScope?: number;
  /** The token was issued to an agent: no human stands in front of its calls (see Operation.confirm). */
  agent?: true;
}

/** The surface a call came through. */
export type Door = 'rest' | 'graphql' | 'mcp' | 'cli' | 'system' | 'page';

export interface OperationContext {
  /** Pool for queries; the operation's transaction for mutations. */
  db: Queryable;
  caller: Caller | null;
  lang: Language;
  clock: Clock;
  requestId: string;
  door: Door;
  /** Network address of the caller, when it came over the network. */
  ip: string | undefined;
  /** The one way out to the world beyond the database (payments, outbound HTTP): see OutsideWorld. */
  outside: OutsideWorld;
  /** What the answer says about itself to doors that speak HTTP caching. */
  answer: AnswerMeta;
  /** The tracking provider authenticated by its key, on operations with provider access. */
  provider: ProviderCaller | null;
  /** The business the call acts in, as the operation's access declares it; null when the caller has none. */
  business: number | null;
  /** The media type the door negotiated among the operation's `representations`; none: its JSON answer. */
  representation: string | undefined;
  /** How far the work is, 0 to 100, when it runs as a job (see Operation.job); none: nobody waits on it. */
  progress?: (percent: number) => void;
}

export interface AnswerMeta {
  /** The version of the data the answer was built from (see Operation.version). */
  version?: string;
  /** A dry run: nothing was kept. Doors whose answers cannot say so in the body say it aside (GraphQL extensions). */
  dryRun?: boolean;
  /** What the dry run did not do outside the database. */
  skippedEffects?: OutsideEffect[];
  /** The call was accepted as a job (see Operation.job): the answer is the job, found again here. */
  accepted?: { location: string };
}

/** Something done to the world beyond the service's database, which no rollback can undo. */
export interface OutsideEffect {
  /** What kind of effect: `payment`, `http`, ... */
  kind: string;
  /** What it does, for whoever reads a dry run's answer ("charge 12.50 EUR to the card"). */
  description: string;
}

/**
 * The executor's gate for outside effects. A dry run rolls the database back, and this gate makes
 * the rest of the promise true: under a dry run the effect is not performed, its preview stands in
 * for its result, and the answer lists it under `skipped_effects`.
 */
export interface OutsideWorld {
  perform<T>(effect: OutsideEffect, run: () => Promise<T>, preview: () => T): Promise<T>;
}

/** The gate for code that runs outside any dry run (the demo seed, background work): everything happens. */
export const PERFORM_EVERYTHING: OutsideWorld = { perform: (_effect, run) => run() };

/** A tracking provider, authenticated by its own key (never a user token). */
export interface ProviderCaller {
  id: number;
  businessId: number;
  name: string;
}

/**
 * A bare document with its own media type, for callers that asked for one through Accept; the
 * REST door sends it as is. Output schemas do not apply to it: the handler built it from data
 * that already passed the module's own rules.
 */
export class Representation {
  constructor(
    readonly mediaType: string,
    readonly body: unknown,
    /** Response headers of this answer's own (how long a browser may keep a short-lived file, ...). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export type Access =
  | { public: true }
  /** Tracking providers with their key (X-OTEP-Provider-Key); user tokens do not count. */
  | { public?: false; provider: true }
  | {
      public?: false;
      provider?: false;
      /** Account kinds allowed to call; 'any' for every signed-in account. */
      kinds: readonly AccountKind[] | 'any';
      /** Every scope the token must grant; every mutation names at least one (the catalog checks). */
      scopes?: readonly string[];
      /**
       * The operation acts on the calling token itself and nothing else (logout): it needs no
       * scope, so even the narrowest token can end its own session.
       */
      ownSession?: true;
      /**
       * The operation only runs other operations as its caller (a GraphQL document), each with
       * every check of its own (Executor.runWithin): it needs no scope of its own.
       */
      delegates?: true;
      /**
       * Whose objects the call acts on; the executor resolves it into `ctx.business` before the
       * handler runs. `own` (the default): the caller's own business. `acting`: staff act in their
       * own, a contractor in the one its `business_id` input names, which its company must work
       * for (it may leave it out when it works for one only).
       */
      business?: 'own' | 'acting';
      /**
       * Reads only, with `business: 'acting'`: staff of another business may act in the one the
       * `business_id` input names when that business grants theirs `grant` (an alliance, asked
       * through `AlliedAccess` at every call). The caller must be of `kinds` and its token grant
       * `scopes` besides the operation's own; otherwise, or without the grant, the call is
       * refused (CLIENT_NOT_ACCESSIBLE), alike whether the business exists or not.
       */
      allied?: { grant: string; kinds: readonly AccountKind[]; scopes: readonly string[] };
      /**
       * An input field naming a customer account: a customer of another business, or no customer
       * at all, is refused (CUSTOMER_NOT_FOUND) before the handler runs.
       */
      customer?: string;
    };

export type Risk = 'low' | 'medium' | 'high';

/** The operation as a tool of the agent servers (MCP): on which of them, under which name, told how. */
export interface ToolBinding {
  /** Its name on the user server (`/mcp`), when it is one of that server's tools. */
  user?: string;
  /** Its name on the developer server (`/mcp/developer`), when it is one of that server's tools. */
  developer?: string;
  /** For the agent: what the tool does, when to use it, what to call first. */
  guide: string;
  /** Calling it again with the same arguments changes nothing more (the idempotentHint). */
  idempotent?: boolean;
  /** Tool arguments named otherwise than the input fields they fill (argument -> field). */
  arguments?: Readonly<Record<string, string>>;
}
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An operation's REST route; the path is relative to /api and may hold :params that are input fields. */
export interface RestBinding {
  method: HttpMethod;
  path: string;
  /**
   * The door sends an ETag and answers 304 to a matching If-None-Match: a tag of the operation's
   * `version` when it declares one (no answer is built for a 304), else of the JSON answer.
   */
  etag?: boolean;
  /** A public answer shared caches may keep: `Cache-Control: public, max-age, stale-while-revalidate`. */
  cache?: { maxAgeSeconds: number; staleWhileRevalidateSeconds: number };
  /** How the body becomes input when it is not a JSON object of input fields. */
  body?: RestBody;
  /**
   * Request headers that are input fields (header name in lower case -> field): a signature
   * a provider sends beside the body it signs.
   */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A request body that is a document rather than named fields. Without one, a body is a JSON
 * object whose members are input fields, alongside the query and path parameters.
 */
export interface RestBody {
  /** The whole JSON body is this input field, whatever JSON value it is (a timeline to check). */
  field?: string;
  /** JSON media types taken besides application/json (application/ld+json for JSON-LD documents). */
  jsonTypes?: readonly string[];
  /**
   * A body in one of these media types is taken as it is, as a Buffer in `field` (a PDF to
   * verify); `typeField`, when named, gets the media type it came as (an image of several types).
   */
  bytes?: { field: string; mediaTypes: readonly string[]; typeField?: string };
  /** A body limit in bytes of the route's own, above the service's (documents). */
  limitBytes?: number;
  /** The refusal of any other media type, where the operation words it better than UNSUPPORTED_MEDIA_TYPE. */
  unsupported?: ErrorCode;
}

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case and unique; also the agent tool name where one is exposed. */
  name: string;
  summary: string;
  description?: string;
  /** Endpoint family, as the interface names them (User, Tracking, ...). */
  tag: string;
  /** Queries read; mutations run in a transaction (rolled back on dry-run) and are audited. */
  kind: 'query' | 'mutation';
  risk: Risk;
  /**
   * Heavy work (route building, bulk creation, ingest): a business runs only a few at once, so
   * one business's batch cannot take every worker from the others.
   */
  expensive?: true;
  /**
   * A high-risk action a caller with no human in front of it must confirm: the executor refuses
   * (CONFIRMATION_REQUIRED) a call through the agent door, or with an agent token, that does not
   * state it (the tool's confirm=true, the X-Confirm: 1 header over REST and GraphQL). A dry run
   * needs none: it changes nothing.
   */
  confirm?: boolean;
  /**
   * How a mutation meets the database, when not as one transaction around the handler and its
   * audit row. `telemetry`: a device's stream of reports (a position every few seconds), written
   * with single statements on the pool and no audit row: the reports are their own record, and
   * a transaction and an audit row would double the statements of the busiest call there is.
   * `stepwise`: the handler waits on the world outside between its writes (a model's answer), so
   * it holds no transaction while it waits: it opens short ones itself (platform/db
   * `inTransaction`), and the audit row is written when it ends. A dry run of either still runs
   * in one transaction, rolled back.
   */
  writes?: 'telemetry' | 'stepwise';
  /**
   * A query whose answer may be a little behind the latest writes (docs/read-replicas.md):
   * with DATABASE_READ_URL its handler reads from the replica while that one is within its lag
   * bound, unless the caller wrote within it; the primary otherwise. Never for a read whose
   * answer decides a write (a check before a change).
   */
  reads?: 'replica';
  access: Access;
  input: I;
  output: O;
  /**
   * The optional module (feature switch) the operation belongs to: while the module is off for the
   * caller's business the executor refuses the call, before it looks at the input. Needs account access.
   */
  feature?: string;
  /**
   * The operation sets up the business's data for its feature (an opt-in family's "migration"):
   * it runs while the feature is on but not set up yet, when every other operation is refused.
   */
  featureSetup?: true;
  /**
   * Media types the operation can also answer in, as a bare document (a `Representation`) instead
   * of its JSON answer: a door that negotiates (REST, by Accept) passes the caller's choice in
   * `ctx.representation`.
   */
  representations?: readonly string[];
  /** The operation as an agent tool; none: agents cannot call it. */
  tool?: ToolBinding;
  /** Refusals this operation documents beyond the ones every operation may give. */
  errors?: readonly ErrorCode[];
  rest?: RestBinding;
  /**
   * A cheap version of what the answer is built from, changing whenever the answer would for the
   * same input (null: nothing to answer, the handler will say why). The handler reports the same
   * version in `ctx.answer.version`. Lets a door answer "not modified" without building anything.
   */
  version?(ctx: OperationContext, input: z.output<I>): Promise<string | null>;
  /**
   * Anonymous answers (and their versions) kept in memory until a write on any instance
   * invalidates one of `tags` (platform/cache): a hot public read reaches no database. `variant`
   * names what else shapes the answer that the input does not (the period its links are signed in).
   */
  publicCache?: { tags(input: z.output<I>): string[]; variant?(): string };
  /**
   * GraphQL field name (camelCase), on Query for queries and on Mutation for mutations; the
   * GraphQL door exposes only operations that have one.
   */
  graphql?: string;
  /**
   * The order family a whole answer is about, when its objects do not say (label rates, ...):
   * price hiding hides all of its prices for customers who may not see that family's.
   */
  priceFamily?: string;
  /**
   * The call may run as a job (docs/jobs.md): accepted at once with the job resource, run by a
   * worker as its caller, its answer kept on the job. Only doors that can answer "accepted" offer it.
   */
  job?: JobBinding<z.output<I>>;
  handler(ctx: OperationContext, input: z.output<I>): Promise<z.input<O> | Representation>;
}

export interface JobBinding<Input> {
  /** Calls that run as a job even when the caller did not ask for one (Prefer: respond-async). */
  when(input: Input): boolean;
  /** The longest one run may take, in seconds: a worker holding the job longer is taken for dead. */
  budgetSeconds(input: Input): number;
}

/** Declares an operation with its handler typed from its schemas. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(
  operation: Operation<I, O>,
): Operation {
  return operation as unknown as Operation;
}

/** The caller of an operation whose access is not public. */
export function callerOf(ctx: OperationContext): Caller {
  if (!ctx.caller) throw new AppError('UNAUTHENTICATED');
  return ctx.caller;
}

/** The provider calling an operation with provider access. */
export function providerOf(ctx: OperationContext): ProviderCaller {
  if (!ctx.provider) throw new AppError('PROVIDER_CREDENTIAL_REQUIRED');
  return ctx.provider;
}

/**
 * The business the call acts in (see Access.business), for operations on business-owned rows;
 * FORBIDDEN for accounts without one. The service's own background work (door `system`: a
 * device's answer, a deadline) acts in a business with no caller.
 */
export function businessOf(ctx: OperationContext): number {
  if (ctx.door !== 'system') callerOf(ctx);
  if (ctx.business === null) throw new AppError('FORBIDDEN');
  return ctx.business;
}
