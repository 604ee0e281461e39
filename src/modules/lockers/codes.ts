import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { DEVICE_CREDENTIAL_PREFIX } from './protocol.ts';

/** Digits of a drop or pickup code: one in a hundred million to guess, with five tries per booking. */
export const CODE_DIGITS = 8;

/** A one-time code people type at a device or in the app. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** What is stored of a code: a random salt and the code's HMAC-SHA-256 under it. */
export function hashCode(code: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `${salt}$${createHmac('sha256', salt).update(code).digest('base64url')}`;
}

export function codeMatches(code: string, stored: string | null): boolean {
  if (!stored) return false;
  const [salt, digest] = stored.split('$');
  if (!salt || !digest) return false;
  const given = createHmac('sha256', salt).update(code).digest();
  const kept = Buffer.from(digest, 'base64url');
  return kept.length === given.length && timingSafeEqual(kept, given);
}

/** How the ledger names the code that was used: its kind and a piece of its stored hash, never the code. */
export function codeRef(kind: 'drop' | 'pickup', stored: string): string {
  return `${kind}:${stored.slice(stored.indexOf('$') + 1, stored.indexOf('$') + 13)}`;
}

/** A new device credential: shown once; only its hash is kept. */
export function newDeviceCredential(deviceId: number): string {
  return `${DEVICE_CREDENTIAL_PREFIX}${deviceId}_${randomBytes(32).toString('base64url')}`;
}

export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

export function credentialMatches(credential: string, stored: string): boolean {
  const given = Buffer.from(hashCredential(credential), 'hex');
  const kept = Buffer.from(stored, 'hex');
  return kept.length === given.length && timingSafeEqual(kept, given);
}
