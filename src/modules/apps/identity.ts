import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import type { OutsideWorld } from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';
import {
  OutboundFailed,
  OutboundRefused,
  type OutboundRules,
  safeDelivery,
} from '../../platform/http/outbound.ts';

/** Where Google and Apple publish who they are and their signing keys. */
export const PRESETS = {
  google: {
    name: 'Google',
    issuer: 'https://accounts.google.com',
    // Google's ID tokens name their issuer with or without the scheme.
    issuerAliases: ['accounts.google.com'],
    jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
  },
  apple: {
    name: 'Apple',
    issuer: 'https://appleid.apple.com',
    issuerAliases: [],
    jwksUri: 'https://appleid.apple.com/auth/keys',
  },
} as const;
export type Preset = keyof typeof PRESETS;

export interface IdentityProvider {
  code: string;
  issuer: string;
  issuer_aliases: string[];
  jwks_uri: string;
}

/** Why an ID token was refused; told to the caller (it helps an app developer, it helps no attacker). */
export type TokenProblem =
  | 'malformed'
  | 'signature'
  | 'unknown_key'
  | 'issuer'
  | 'audience'
  | 'expired'
  | 'claims';

export class IdTokenRefused extends Error {
  constructor(readonly problem: TokenProblem) {
    super(`ID token refused: ${problem}`);
  }
}

/** The provider's discovery document or keys could not be read (or the address is refused). */
export class ProviderUnreachable extends Error {}

const MAX_DOCUMENT_BYTES = 64 * 1024;
/** Keys are kept this long, then read again. */
const KEYS_TTL_MS = 10 * 60_000;
/** A token signed with a key we do not hold refreshes the keys, at most this often per provider. */
const REFRESH_COOLDOWN_MS = 30_000;

/**
 * Verifies identity-provider ID tokens: signature against the provider's published keys (JWKS,
 * fetched through the guarded outbound client and cached), issuer, audience and expiry.
 */
export class IdTokenVerifier {
  private readonly keys = new Map<
    string,
    { set: ReturnType<typeof createLocalJWKSet>; fetchedAt: number; uri: string }
  >();

  constructor(private readonly outbound: OutboundRules) {}

  /** The issuer and keys address of an OpenID Connect issuer, from its discovery document. */
  async discover(issuer: string, outside: OutsideWorld): Promise<{ issuer: string; jwksUri: string }> {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const document = await this.fetchJson(url, outside);
    const found = typeof document.issuer === 'string' ? document.issuer : undefined;
    const jwksUri = typeof document.jwks_uri === 'string' ? document.jwks_uri : undefined;
    if (!found || !jwksUri) throw new ProviderUnreachable(`${url} names no issuer or jwks_uri`);
    // OpenID Connect Discovery 1.0, 4.3: the document must name the issuer it was asked for.
    if (found.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
      throw new ProviderUnreachable(`${url} is the discovery document of ${found}, not of ${issuer}`);
    }
    return { issuer: found, jwksUri };
  }

  /**
   * The verified claims of `token`, or IdTokenRefused saying why not. A token refused on its form
   * alone never costs a fetch of the provider's keys, nor answers "provider unreachable".
   */
  async verify(
    token: string,
    provider: IdentityProvider,
    audience: string,
    now: Date,
    outside: OutsideWorld,
  ): Promise<JWTPayload & { sub: string }> {
    const issuers = [provider.issuer, ...provider.issuer_aliases];
    checkForm(token, issuers, audience, now);
    const attempt = async () => {
      const keys = await this.keysOf(provider, now, outside);
      return jwtVerify(token, keys, {
        issuer: issuers,
        audience,
        currentDate: now,
        requiredClaims: [...REQUIRED_CLAIMS],
        algorithms: [...ALGORITHMS],
      });
    };
    try {
      let verified: Awaited<ReturnType<typeof attempt>>;
      try {
        verified = await attempt();
      } catch (error) {
        // Providers rotate keys: a key we do not hold may be new. Read the keys again, not too often.
        if (!(error instanceof errors.JWKSNoMatchingKey) || !this.mayRefresh(provider, now)) throw error;
        this.keys.delete(provider.code);
        verified = await attempt();
      }
      return verified.payload as JWTPayload & { sub: string };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new IdTokenRefused(problemOf(error));
    }
  }

  private mayRefresh(provider: IdentityProvider, now: Date): boolean {
    const cached = this.keys.get(provider.code);
    return !cached || now.getTime() - cached.fetchedAt >= REFRESH_COOLDOWN_MS;
  }

  private async keysOf(provider: IdentityProvider, now: Date, outside: OutsideWorld) {
    const cached = this.keys.get(provider.code);
    if (cached && cached.uri === provider.jwks_uri && now.getTime() - cached.fetchedAt < KEYS_TTL_MS) {
      return cached.set;
    }
    const document = await this.fetchJson(provider.jwks_uri, outside);
    if (!Array.isArray(document.keys)) throw new ProviderUnreachable(`${provider.jwks_uri} holds no keys`);
    const set = createLocalJWKSet(document as unknown as JSONWebKeySet);
    this.keys.set(provider.code, { set, fetchedAt: now.getTime(), uri: provider.jwks_uri });
    return set;
  }

  /** A JSON document of the provider's; a dry run does not fetch, so it cannot go on without one. */
  private fetchJson(url: string, outside: OutsideWorld): Promise<Record<string, unknown>> {
    const effect = { kind: 'http', description: `GET ${url}` };
    return outside.perform(
      effect,
      () => this.fetchJsonNow(url),
      () => {
        throw new AppError('DRY_RUN_UNAVAILABLE', { params: { effect: effect.description } });
      },
    );
  }

  private async fetchJsonNow(url: string): Promise<Record<string, unknown>> {
    try {
      const answer = await safeDelivery(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeoutMs: this.outbound.timeoutMs,
        maxResponseBytes: MAX_DOCUMENT_BYTES,
        allow: this.outbound.allow,
      });
      if (answer.status !== 200 || answer.truncated) {
        throw new ProviderUnreachable(
          `${url} answered ${answer.status}${answer.truncated ? ' (too large)' : ''}`,
        );
      }
      const parsed: unknown = JSON.parse(answer.bodyExcerpt);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new ProviderUnreachable(`${url} is not a JSON object`);
      }
      return parsed as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ProviderUnreachable) throw error;
      if (
        error instanceof OutboundRefused ||
        error instanceof OutboundFailed ||
        error instanceof SyntaxError
      ) {
        throw new ProviderUnreachable(`${url}: ${error.message}`);
      }
      throw error;
    }
  }
}

/** Asymmetric signatures only: a provider's keys are public, so an HMAC "signed" with one proves nothing. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
const REQUIRED_CLAIMS = ['sub', 'exp', 'iat'] as const;

/**
 * What a token tells without its signature, checked as jwtVerify checks it: three decodable
 * parts, an algorithm we accept, the claims we need, the provider's issuer, our audience, not
 * expired. A token failing here cannot be valid whatever the provider's keys say.
 */
function checkForm(token: string, issuers: readonly string[], audience: string, now: Date): void {
  let claims: JWTPayload;
  try {
    if (token.split('.').length !== 3) throw new IdTokenRefused('malformed');
    const { alg } = decodeProtectedHeader(token);
    if (!ALGORITHMS.some((accepted) => accepted === alg)) throw new IdTokenRefused('malformed');
    claims = decodeJwt(token);
  } catch (error) {
    if (error instanceof IdTokenRefused) throw error;
    throw new IdTokenRefused('malformed');
  }
  const { sub, exp, iat, iss, aud } = claims;
  if (typeof sub !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
    throw new IdTokenRefused('claims');
  }
  if (typeof iss !== 'string' || !issuers.includes(iss)) throw new IdTokenRefused('issuer');
  if (!(Array.isArray(aud) ? aud : [aud]).includes(audience)) throw new IdTokenRefused('audience');
  if (exp <= Math.floor(now.getTime() / 1000)) throw new IdTokenRefused('expired');
}

function problemOf(error: unknown): TokenProblem {
  if (error instanceof ProviderUnreachable) throw error;
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'issuer';
    if (error.claim === 'aud') return 'audience';
    return 'claims';
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'unknown_key';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  return 'malformed';
}
