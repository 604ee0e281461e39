import type { Generated } from 'kysely';

export interface DocumentsTables {
  documents: {
    id: Generated<number>;
    business_id: number;
    kind: string;
    reference: string;
    /** Lowercase hex SHA-256 of the PDF's bytes. */
    sha256: string;
    issued_at: Date;
    key_id: string;
    /** Ed25519 signature of the canonical statement (see canonicalStatement). */
    signature: Buffer;
  };
  document_signing_keys: {
    key_id: string;
    /** SubjectPublicKeyInfo PEM. */
    public_key: string;
    first_used_at: Date;
  };
}
