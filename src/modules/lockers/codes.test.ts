import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CODE_DIGITS,
  codeMatches,
  codeRef,
  credentialMatches,
  hashCode,
  hashCredential,
  newCode,
  newDeviceCredential,
} from './codes.ts';
import { DEVICE_CREDENTIAL_PREFIX } from './protocol.ts';

describe('locker codes', () => {
  it('are eight digits, leading zeros kept, and not the same twice in a row', () => {
    const codes = Array.from({ length: 200 }, newCode);
    assert.equal(CODE_DIGITS, 8);
    for (const code of codes) assert.match(code, /^\d{8}$/);
    assert.ok(new Set(codes).size > 190, 'codes are drawn at random');
    // Spread over the whole range: some start with a low digit, some with a high one.
    assert.ok(codes.some((code) => code < '20000000') && codes.some((code) => code >= '80000000'));
  });

  it('are kept as a salted HMAC that only the same code matches', () => {
    const stored = hashCode('01234567');
    const [salt, digest] = stored.split('$');
    assert.equal(salt!.length, 22, 'a 16-byte salt in base64url');
    assert.equal(digest!.length, 43, 'an HMAC-SHA-256 in base64url');
    assert.ok(!stored.includes('01234567'));
    assert.notEqual(hashCode('01234567'), stored, 'a new salt each time');
    assert.equal(codeMatches('01234567', stored), true);
    assert.equal(codeMatches('01234568', stored), false);
    assert.equal(codeMatches('', stored), false);
  });

  it('match nothing when nothing, or something malformed, is stored', () => {
    const stored = hashCode('01234567');
    const [salt, digest] = stored.split('$') as [string, string];
    assert.equal(codeMatches('01234567', null), false);
    assert.equal(codeMatches('01234567', ''), false);
    assert.equal(codeMatches('01234567', salt), false, 'no separator, no digest');
    assert.equal(codeMatches('01234567', `$${digest}`), false);
    assert.equal(codeMatches('01234567', `${salt}$`), false);
    assert.equal(codeMatches('01234567', `${salt}$${digest.slice(0, 20)}`), false, 'a cut digest');
    assert.equal(codeMatches('01234567', `${salt}x$${digest}`), false, 'another salt');
  });

  it('are named in the ledger by their kind and twelve characters of the digest, never the code', () => {
    const stored = hashCode('76543210');
    const digest = stored.split('$')[1]!;
    assert.equal(codeRef('pickup', stored), `pickup:${digest.slice(0, 12)}`);
    assert.equal(codeRef('drop', stored), `drop:${digest.slice(0, 12)}`);
  });
});

describe('device credentials', () => {
  it('name their device, carry 32 random bytes, and are kept as a SHA-256 only they match', () => {
    const credential = newDeviceCredential(42);
    assert.match(credential, new RegExp(`^${DEVICE_CREDENTIAL_PREFIX}42_[A-Za-z0-9_-]{43}$`));
    assert.notEqual(newDeviceCredential(42), credential);
    const stored = hashCredential(credential);
    assert.match(stored, /^[0-9a-f]{64}$/);
    assert.equal(credentialMatches(credential, stored), true);
    assert.equal(credentialMatches(`${credential}x`, stored), false);
    assert.equal(credentialMatches(credential, stored.slice(0, 62)), false, 'a cut hash');
    assert.equal(credentialMatches(credential, ''), false);
  });
});
