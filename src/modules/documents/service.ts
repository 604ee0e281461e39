import { createHash, sign, verify } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { parseSigningKey, readOrCreateKeyFile, type SigningKey } from './keys.ts';
import * as repo from './repository.ts';

/** The largest PDF POST /api/v1/documents/verify takes (10 MiB). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** A document kind: lowercase, short, no colon (it is a field of the signed statement). */
const KIND = /^[a-z][a-z0-9_-]{0,31}$/;
const MAX_REFERENCE_LENGTH = 200;

export interface IssueInput {
  businessId: number;
  /** What the document is: 'label', ... */
  kind: 'label' | string;
  /** What it is about, as printed on it: a tracking number for a label. */
  reference: string;
  bytes: Buffer;
}

export interface IssuedDocument {
  id: number;
  sha256: string;
  issuedAt: Date;
}

/** The answer to "did the service issue these bytes, unchanged?". */
export interface Verification {
  /** A document with exactly this SHA-256 was issued. */
  issued: boolean;
  /** The bytes are the ones issued. By hash alone this is the same as `issued`. */
  intact: boolean;
  sha256: string;
  kind?: string;
  issuedAt?: Date;
  reference?: string;
  keyId?: string;
  signature?: Buffer;
  /** The stored record's signature checks out with the public key that made it. */
  signatureValid?: boolean;
}

export interface PublicKey {
  keyId: string;
  publicKeyPem: string;
}

/**
 * The statement a document's signature covers. The SHA-256 and the instant have fixed lengths
 * and the kind has no colon, so the reference, last, may hold anything.
 */
export function canonicalStatement(document: {
  sha256: string;
  kind: string;
  issuedAt: Date;
  reference: string;
}): string {
  const { sha256, kind, issuedAt, reference } = document;
  return `tms-document:v1:${sha256}:${kind}:${issuedAt.toISOString()}:${reference}`;
}

/** Lowercase hex SHA-256: the fingerprint documents are recorded and looked up by. */
export function fingerprint(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface DocumentsSettings {
  /** DOCUMENT_SIGNING_KEY: a PKCS#8 PEM or a base64 32-byte seed; absent means a key kept in dataDir. */
  signingKey: string | undefined;
  dataDir: string;
}

/**
 * Documents: the fingerprint of every PDF the service issues, signed by a server key, and the
 * public check of a PDF against them.
 */
export class DocumentsService {
  private readonly configuredKey: SigningKey | undefined;
  private keptKey: Promise<SigningKey> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly settings: DocumentsSettings,
  ) {
    // A bad configured key stops the start, not the first label.
    this.configuredKey = settings.signingKey ? configuredKey(settings.signingKey) : undefined;
  }

  /** The key that signs now: the configured one, or the one kept in the data directory. */
  async signingKey(): Promise<SigningKey> {
    if (this.configuredKey) return this.configuredKey;
    this.keptKey ??= readOrCreateKeyFile(this.settings.dataDir).catch((error) => {
      this.keptKey = undefined;
      throw error;
    });
    return this.keptKey;
  }

  /**
   * Records an issued PDF: its SHA-256, kind, reference, business and time, signed by the server
   * key. The same bytes issued again for the same business, kind and reference (a label rendered
   * again) return the first record.
   */
  async issue(db: Queryable, input: IssueInput): Promise<IssuedDocument> {
    if (!KIND.test(input.kind)) throw new Error(`Bad document kind ${JSON.stringify(input.kind)}`);
    if (input.reference.length === 0 || input.reference.length > MAX_REFERENCE_LENGTH) {
      throw new Error(`A document reference has 1 to ${MAX_REFERENCE_LENGTH} characters`);
    }
    const key = await this.signingKey();
    const sha256 = fingerprint(input.bytes);
    const issuedAt = this.clock.now();
    const statement = canonicalStatement({ sha256, kind: input.kind, issuedAt, reference: input.reference });
    await repo.recordKey(db, key.keyId, key.publicKeyPem, issuedAt);
    const recorded = await repo.insertDocument(db, {
      business_id: input.businessId,
      kind: input.kind,
      reference: input.reference,
      sha256,
      issued_at: issuedAt,
      key_id: key.keyId,
      signature: sign(null, Buffer.from(statement), key.privateKey),
    });
    return { id: recorded.id, sha256, issuedAt: recorded.issued_at };
  }

  /**
   * Whether these bytes (or this SHA-256) were issued: found means issued and intact, with the
   * record's signature checked again; anything else, a changed byte included, is unknown.
   */
  async verify(db: Queryable, input: { pdf?: Buffer; sha256?: string }): Promise<Verification> {
    const sha256 = input.pdf ? fingerprint(input.pdf) : (input.sha256 ?? '').toLowerCase();
    const found = await repo.firstBySha256(db, sha256);
    if (!found) return { issued: false, intact: false, sha256 };
    const statement = canonicalStatement({
      sha256: found.sha256,
      kind: found.kind,
      issuedAt: found.issued_at,
      reference: found.reference,
    });
    return {
      issued: true,
      intact: true,
      sha256,
      kind: found.kind,
      issuedAt: found.issued_at,
      reference: found.reference,
      keyId: found.key_id,
      signature: found.signature,
      signatureValid: checkSignature(statement, found.public_key, found.signature),
    };
  }

  /** The key signing now, and every key that ever signed a recorded document. */
  async publicKeys(
    db: Queryable,
  ): Promise<{ current: PublicKey; keys: Array<PublicKey & { firstUsedAt: Date }> }> {
    const current = await this.signingKey();
    return {
      current: { keyId: current.keyId, publicKeyPem: current.publicKeyPem },
      keys: (await repo.keys(db)).map((key) => ({
        keyId: key.key_id,
        publicKeyPem: key.public_key,
        firstUsedAt: key.first_used_at,
      })),
    };
  }
}

function configuredKey(text: string): SigningKey {
  try {
    return parseSigningKey(text);
  } catch (error) {
    throw new Error(`DOCUMENT_SIGNING_KEY ${(error as Error).message}`, { cause: error });
  }
}

function checkSignature(statement: string, publicKeyPem: string, signature: Buffer): boolean {
  try {
    return verify(null, Buffer.from(statement), publicKeyPem, signature);
  } catch {
    return false;
  }
}
