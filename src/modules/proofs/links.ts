import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Clock } from '../../platform/clock.ts';
import { readOrCreatePrivateFile } from '../../platform/private-file.ts';

/** How long a link to a proof image lives at most: 15 minutes. */
export const PROOF_LINK_LIFETIME_SECONDS = 15 * 60;
/**
 * Links are signed for a period: every link made within one 5-minute period carries the same
 * expiry (the period's start plus the lifetime), so an answer holding them stays the same bytes,
 * and a cached copy of it still opens for at least 10 minutes.
 */
const PERIOD_SECONDS = 5 * 60;

/** The file beside the data that keeps a generated secret when none is configured. */
export const SECRET_FILE = 'proof-link-secret';

/** A proof image's signed link, and when it stops opening. */
export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/** What another module (tracking) needs to show proofs: fresh signed links, and when they change. */
export interface ProofLinkSigner {
  /** A link to the proof file that opens until its expiry, for anyone holding it. */
  signedLink(proofId: number): Promise<SignedLink>;
  /** Changes whenever the links made now would differ from the ones made before (a cache key part). */
  linkPeriod(): string;
}

export interface ProofLinkSettings {
  /** PROOF_LINK_SECRET; absent: one generated once and kept in dataDir. */
  secret: string | undefined;
  dataDir: string;
  /** The service's public address: links are absolute. */
  baseUrl: string;
}

/**
 * Short-lived links to proof images: `/api/v1/proofs/{id}?expires={unix}&signature={hmac}`, the
 * HMAC-SHA256 of the id and the expiry under a server secret. Without the secret neither can be
 * changed nor made up, so an id alone opens nothing.
 */
export class ProofLinks implements ProofLinkSigner {
  private kept: Promise<Buffer> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly settings: ProofLinkSettings,
  ) {}

  async signedLink(proofId: number): Promise<SignedLink> {
    const expires = this.periodStart() + PROOF_LINK_LIFETIME_SECONDS;
    const signature = await this.sign(proofId, expires);
    return {
      url: `${this.settings.baseUrl}/api/v1/proofs/${proofId}?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  linkPeriod(): string {
    return String(this.periodStart() / PERIOD_SECONDS);
  }

  /**
   * The seconds a link of these parts still opens for, when its signature is ours and it has not
   * expired; null otherwise (the reasons are not told apart).
   */
  async secondsLeft(proofId: number, expires: number, signature: string): Promise<number | null> {
    const left = expires - Math.floor(this.clock.now().getTime() / 1000);
    if (!Number.isSafeInteger(expires) || left <= 0 || left > PROOF_LINK_LIFETIME_SECONDS) return null;
    const expected = Buffer.from(await this.sign(proofId, expires), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
  }

  private periodStart(): number {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return now - (now % PERIOD_SECONDS);
  }

  private async sign(proofId: number, expires: number): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(`tms-proof-link:v1:${proofId}:${expires}`)
      .digest('base64url');
  }

  private secret(): Promise<Buffer> {
    if (this.settings.secret) return Promise.resolve(Buffer.from(this.settings.secret, 'utf8'));
    this.kept ??= readOrCreateSecretFile(this.settings.dataDir).catch((error) => {
      this.kept = undefined;
      throw error;
    });
    return this.kept;
  }
}

/** The secret generated once and kept in `dataDir`. */
async function readOrCreateSecretFile(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SECRET_FILE);
  const secret = (await readOrCreatePrivateFile(file, () => `${randomBytes(32).toString('hex')}\n`)).trim();
  if (secret.length < 32) throw new Error(`The proof link secret in ${file} is shorter than 32 characters`);
  return Buffer.from(secret, 'utf8');
}
