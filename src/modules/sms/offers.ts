import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.ts';
import type { SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;

/** Letters and digits no one confuses when reading a code off a phone (no 0/O, 1/I/L). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 8 characters of 31: about 8.5e11 codes, so guessing one of a campaign's is hopeless. */
const LENGTH = 8;

export function newOfferCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** Codes are kept hashed, as every code is; typed codes are read case- and space-insensitively. */
export function hashOfferCode(code: string): string {
  return createHash('sha256').update(code.replace(/\s+/g, '').toUpperCase()).digest('hex');
}

/**
 * Issues a recipient's code for a campaign in the caller's transaction (the one recording the
 * message that carries it). The same recipient asking again gets a new code that replaces the
 * first: only the latest message's code is good.
 */
export async function issueOfferCode(
  db: Db,
  row: { businessId: number; campaignId: number; subscriberId: number; expiresAt: Date; now: Date },
): Promise<string> {
  const code = newOfferCode();
  const values = { code_hash: hashOfferCode(code), expires_at: row.expiresAt, created_at: row.now };
  await db
    .insertInto('sms_offer_codes')
    .values({
      business_id: row.businessId,
      campaign_id: row.campaignId,
      subscriber_id: row.subscriberId,
      ...values,
    })
    .onConflict((conflict) =>
      conflict.columns(['business_id', 'campaign_id', 'subscriber_id']).doUpdateSet(values),
    )
    .execute();
  return code;
}
