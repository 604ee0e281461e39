/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, for tests of
 * ID-token verification: the tokens it hands out are minted by the provider itself, signed with
 * the key it publishes at its `jwks_uri`, so a verifier under test fetches keys and checks
 * signature, issuer, audience and expiry exactly as it would against a production identity
 * provider.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Account, type Adapter, type AdapterPayload } from 'oidc-provider';

/** The claims `idToken()` may put in a token, beyond `sub`, `iss`, `aud`, `iat` and `exp`. */
const SCOPE = 'openid email profile';

/** How long an issued ID token lives, in seconds (the provider's `ttl.IdToken`). */
const ID_TOKEN_TTL_SECONDS = 3600;

/** A running provider, and the way to get ID tokens out of it. */
export interface OidcProviderHandle {
  /** The provider's Issuer Identifier (`iss` of its tokens), e.g. http://127.0.0.1:<port>, no trailing slash. */
  issuer: string;
  /** Where the provider publishes its signing keys, as its discovery document announces it. */
  jwksUri: string;
  /** A real ID token from the provider for `clientId` (its aud), about a user with these claims. */
  idToken(input: {
    clientId: string;
    sub: string;
    email?: string;
    emailVerified?: boolean;
    name?: string;
  }): Promise<string>;
  /** Stops the HTTP server and drops its connections, so the test process can exit. */
  close(): Promise<void>;
}

type UserClaims = Record<string, unknown> & { sub: string };

/**
 * A storage adapter kept in this provider instance's memory. oidc-provider's built-in one is
 * shared by every provider in the process and warns on each start; nothing here outlives a test.
 */
function memoryAdapter(): new (name: string) => Adapter {
  const store = new Map<string, AdapterPayload>();
  return class MemoryAdapter implements Adapter {
    readonly #name: string;

    constructor(name: string) {
      this.#name = name;
    }

    #key(id: string): string {
      return `${this.#name}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload): Promise<void> {
      store.set(this.#key(id), payload);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return store.get(this.#key(id));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return [...store.values()].find((payload) => payload.userCode === userCode);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return [...store.values()].find((payload) => payload.uid === uid);
    }

    async consume(id: string): Promise<void> {
      const payload = store.get(this.#key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.#key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

/**
 * Starts a provider on 127.0.0.1 (random port, plain HTTP) with one confidential client per
 * entry of `clientIds`, and waits until its discovery document answers.
 */
export async function startOidcProvider(options: { clientIds: string[] }): Promise<OidcProviderHandle> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };

  // The issuer has to name the port, so the server listens before the provider exists.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
    return closing;
  };

  try {
    // Who `idToken()` was last asked about, by sub: the provider's accounts.
    const users = new Map<string, UserClaims>();
    const findAccount = async (_ctx: unknown, sub: string): Promise<Account | undefined> => {
      const claims = users.get(sub);
      return claims && { accountId: sub, claims: () => ({ ...claims }) };
    };

    const provider = new Provider(issuer, {
      adapter: memoryAdapter(),
      clients: options.clientIds.map((clientId) => ({
        client_id: clientId,
        client_secret: randomBytes(16).toString('base64url'),
        redirect_uris: ['http://127.0.0.1/cb'],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      })),
      jwks: { keys: [signingKey] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Put the scope's claims in the ID token itself, not only at the userinfo endpoint.
      conformIdTokenClaims: false,
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      // No browser flows are driven here; the dev login pages would only print warnings.
      features: { devInteractions: { enabled: false } },
      findAccount,
      ttl: { IdToken: ID_TOKEN_TTL_SECONDS },
    });
    handle = provider.callback();

    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!discovery.ok) throw new Error(`OIDC discovery answered ${discovery.status}`);
    const metadata = (await discovery.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') {
      throw new Error(`unexpected OIDC discovery document: ${JSON.stringify(metadata)}`);
    }

    return {
      issuer,
      jwksUri: metadata.jwks_uri,
      close,
      async idToken({ clientId, sub, email, emailVerified, name }) {
        const client = await provider.Client.find(clientId);
        if (!client) throw new Error(`${clientId} is not a client of this OIDC provider`);
        const user: UserClaims = { sub };
        if (email !== undefined) user.email = email;
        if (emailVerified !== undefined) user.email_verified = emailVerified;
        if (name !== undefined) user.name = name;
        users.set(sub, user);

        // What the token endpoint does after an authorization-code exchange: the account's
        // claims for the granted scope, masked and signed by the provider's IdToken model.
        const account = await findAccount(undefined, sub);
        const claims = await account!.claims('id_token', SCOPE, {}, []);
        const token = new provider.IdToken(claims, { client });
        token.scope = SCOPE;
        return token.issue({ use: 'idtoken' });
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
