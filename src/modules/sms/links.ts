import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.ts';
import type { SmsTables } from './tables.ts';

/** Bytes of the HMAC a link carries: 128 bits, short enough for a text message. */
const SIGNATURE_BYTES = 16;

/**
 * The signatures of confirmation links: HMAC-SHA256 of the business and subscriber under the
 * service's key (made once by migration 0052, read by every instance). A signature confirms that
 * one subscriber only; it has no expiry because confirming is all it can do.
 */
export class SmsLinkSigner {
  private key: Promise<Buffer> | undefined;

  async sign(db: Queryable, businessId: number, subscriberId: number): Promise<string> {
    return createHmac('sha256', await this.secret(db))
      .update(`tms-sms-confirm:v1:${businessId}:${subscriberId}`)
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }

  async verify(db: Queryable, businessId: number, subscriberId: number, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(db, businessId, subscriberId), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private secret(db: Queryable): Promise<Buffer> {
    this.key ??= (db as Queryable<SmsTables>)
      .selectFrom('sms_link_keys')
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
