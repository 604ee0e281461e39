import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.ts';
import { LinkSignatures } from '../../platform/link-signatures.ts';
import type { ReservationsTables } from './tables.ts';

/** A confirmation code as people type it: six digits. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** A booking's public reference: 16 random characters, unguessable. */
export function newReference(): string {
  return randomBytes(12).toString('base64url');
}

/** Codes are kept as a salted HMAC: a database reader learns none. */
export function hashCode(code: string): string {
  const salt = randomBytes(12).toString('base64url');
  return `${salt}$${createHmac('sha256', salt).update(code).digest('base64url')}`;
}

export function codeMatches(code: string, stored: string): boolean {
  const [salt, digest] = stored.split('$') as [string, string];
  const given = Buffer.from(createHmac('sha256', salt).update(code).digest('base64url'));
  const expected = Buffer.from(digest);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The signatures of a booking's links (see it, its calendar file, cancel, change, accept an offer),
 * under the key the reservations migration made.
 */
export class LinkSigner {
  private readonly signatures = new LinkSignatures(
    async (db) =>
      (
        await (db as Queryable<ReservationsTables>)
          .selectFrom('reservation_link_keys')
          .select('secret')
          .executeTakeFirstOrThrow()
      ).secret,
  );

  sign(db: Queryable<ReservationsTables>, reference: string): Promise<string> {
    return this.signatures.sign(db, `tms-reservation:v1:${reference}`);
  }

  verify(db: Queryable<ReservationsTables>, reference: string, signature: string): Promise<boolean> {
    return this.signatures.verify(db, `tms-reservation:v1:${reference}`, signature);
  }
}
