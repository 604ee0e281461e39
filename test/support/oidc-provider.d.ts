/**
 * The slice of `oidc-provider` (which ships no types) that test/support/oidc.ts uses, so the
 * harness typechecks without `any`. Only what the harness touches is declared.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { JWK } from 'jose';

  /** One stored artifact, as the provider hands it to an adapter. */
  export type AdapterPayload = Record<string, unknown>;

  /** Storage for the provider's stateful artifacts (sessions, grants, codes...). */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris?: string[];
    response_types?: string[];
    grant_types?: string[];
  }

  /** What `findAccount` resolves to: the account's claims for a given use and scope. */
  export interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: Record<string, unknown>,
      rejected: string[],
    ): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface Configuration {
    adapter?: new (name: string) => Adapter;
    clients?: ClientMetadata[];
    jwks?: { keys: JWK[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    ttl?: Record<string, number>;
  }

  /** A registered client, as the provider's Client model. */
  export interface Client {
    readonly clientId: string;
  }

  /** The provider's ID token model: the same one its token endpoint issues ID tokens with. */
  export interface IdToken {
    scope?: string;
    issue(options: { use: 'idtoken'; expiresAt?: number }): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    readonly Client: { find(id: string): Promise<Client | undefined> };
    readonly IdToken: new (
      claims: Record<string, unknown>,
      options: { client: Client },
    ) => IdToken;
  }
}
