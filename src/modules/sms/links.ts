import type { Queryable } from '../../platform/db/database.ts';
import { LinkSignatures } from '../../platform/link-signatures.ts';
import type { SmsTables } from './tables.ts';

/** Bytes of the HMAC a link carries: 128 bits, short enough for a text message. */
const SIGNATURE_BYTES = 16;

/**
 * The signatures of confirmation links, under the key migration 0052 made. A signature confirms
 * that one subscriber only; it has no expiry because confirming is all it can do.
 */
export class SmsLinkSigner {
  private readonly signatures = new LinkSignatures(
    async (db) =>
      (
        await (db as Queryable<SmsTables>)
          .selectFrom('sms_link_keys')
          .select('secret')
          .executeTakeFirstOrThrow()
      ).secret,
    SIGNATURE_BYTES,
  );

  sign(db: Queryable, businessId: number, subscriberId: number): Promise<string> {
    return this.signatures.sign(db, subjectOf(businessId, subscriberId));
  }

  verify(db: Queryable, businessId: number, subscriberId: number, signature: string): Promise<boolean> {
    return this.signatures.verify(db, subjectOf(businessId, subscriberId), signature);
  }
}

function subjectOf(businessId: number, subscriberId: number): string {
  return `tms-sms-confirm:v1:${businessId}:${subscriberId}`;
}
