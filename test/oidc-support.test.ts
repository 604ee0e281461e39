/**
 * The OIDC test harness (test/support/oidc.ts) runs a real provider whose ID tokens verify
 * against its published keys, with the claims asked for, and only for their own audience.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { type OidcProviderHandle, startOidcProvider } from './support/oidc.ts';

let provider: OidcProviderHandle;

before(async () => {
  provider = await startOidcProvider({ clientIds: ['tms-web', 'other-app'] });
});

after(async () => {
  await provider.close();
});

test('the discovery document names the issuer and a jwks_uri that serves signing keys', async () => {
  assert.match(provider.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
  const discovery = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
  assert.equal(discovery.status, 200);
  const metadata = (await discovery.json()) as { issuer: string; jwks_uri: string };
  assert.equal(metadata.issuer, provider.issuer);
  assert.equal(metadata.jwks_uri, provider.jwksUri);

  const jwks = await fetch(provider.jwksUri);
  assert.equal(jwks.status, 200);
  const { keys } = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
  assert.ok(keys.length > 0);
  for (const key of keys) {
    assert.equal(typeof key.kid, 'string');
    assert.equal(key.d, undefined, 'no private key material is published');
  }
});

test('an issued ID token verifies against the JWKS and carries the claims asked for', async () => {
  const token = await provider.idToken({
    clientId: 'tms-web',
    sub: 'user-42',
    email: 'ada@example.com',
    emailVerified: true,
    name: 'Ada Lovelace',
  });

  const jwks = createRemoteJWKSet(new URL(provider.jwksUri));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer: provider.issuer,
    audience: 'tms-web',
  });
  assert.equal(protectedHeader.alg, 'RS256');
  assert.equal(typeof protectedHeader.kid, 'string');
  assert.equal(payload.sub, 'user-42');
  assert.equal(payload.email, 'ada@example.com');
  assert.equal(payload.email_verified, true);
  assert.equal(payload.name, 'Ada Lovelace');
  assert.ok(typeof payload.exp === 'number' && payload.exp > Date.now() / 1000);
});

test('a token for another client fails the audience check', async () => {
  const token = await provider.idToken({ clientId: 'other-app', sub: 'user-42', email: 'ada@example.com' });
  const jwks = createRemoteJWKSet(new URL(provider.jwksUri));
  await assert.rejects(
    jwtVerify(token, jwks, { issuer: provider.issuer, audience: 'tms-web' }),
    (error: unknown) => error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud',
  );
  const { payload } = await jwtVerify(token, jwks, { issuer: provider.issuer, audience: 'other-app' });
  assert.equal(payload.aud, 'other-app');
  assert.equal(payload.name, undefined, 'only the claims asked for');
});

test('an unknown client gets no token', async () => {
  await assert.rejects(provider.idToken({ clientId: 'stranger', sub: 'user-42' }), /not a client/);
});
