import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.ts';
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
 * The signatures of a booking's links (see it, its calendar file, cancel, change, accept an offer):
 * HMAC-SHA256 of the reference under the service's key, which the migration made and every instance
 * reads. A signature proves the link came from us: no account is needed to use it.
 */
export class LinkSigner {
  private key: Promise<Buffer> | undefined;

  async sign(db: Queryable<ReservationsTables>, reference: string): Promise<string> {
    return createHmac('sha256', await this.secret(db))
      .update(`tms-reservation:v1:${reference}`)
      .digest('base64url');
  }

  async verify(db: Queryable<ReservationsTables>, reference: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(db, reference), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private secret(db: Queryable<ReservationsTables>): Promise<Buffer> {
    this.key ??= db
      .selectFrom('reservation_link_keys')
      .select('secret')
      .executeTakeFirstOrThrow()
      .then((row) => row.secret)
      .catch((error) => {
        this.key = undefined;
        throw error;
      });
    return this.key;
  }
}
