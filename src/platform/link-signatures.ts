import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db/database.ts';

/**
 * Signatures of public links (a booking's page, a subscription's confirmation): HMAC-SHA256 of
 * what the link names under a key a migration made once in the owning module's table, read by
 * every instance. A signature proves the link came from the service; no account is needed.
 */
export class LinkSignatures {
  private key: Promise<Buffer> | undefined;

  constructor(
    /** Reads the module's key row. */
    private readonly readKey: (db: Queryable) => Promise<Buffer>,
    /** Bytes of the HMAC kept: all 32, or fewer where the link must be short (a text message). */
    private readonly bytes = 32,
  ) {}

  async sign(db: Queryable, text: string): Promise<string> {
    return createHmac('sha256', await this.secret(db))
      .update(text)
      .digest()
      .subarray(0, this.bytes)
      .toString('base64url');
  }

  async verify(db: Queryable, text: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(db, text), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private secret(db: Queryable): Promise<Buffer> {
    this.key ??= this.readKey(db).catch((error) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
