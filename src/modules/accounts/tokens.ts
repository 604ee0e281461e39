import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'tms_';

/** An opaque bearer token: 256 random bits, recognisable by its prefix in logs and secret scanners. */
export function generateToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this digest; a high-entropy secret needs no slow hash. */
export function digestToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function looksLikeToken(value: string): boolean {
  return value.startsWith(PREFIX) && value.length <= 200;
}
