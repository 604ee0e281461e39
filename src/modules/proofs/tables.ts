import type { Generated } from 'kysely';

export interface ProofsTables {
  proof_files: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    kind: 'signature' | 'photo';
    /** Where the bytes are in the file storage: random, never shown to anyone. */
    storage_key: string;
    content_type: string;
    size_bytes: number;
    /** Lowercase hex SHA-256 of the bytes. */
    sha256: string;
    width: number;
    height: number;
    uploaded_by: number;
    /** The uploader's own id of the upload: the same one again answers the first upload. */
    client_id: string | null;
    created_at: Date;
  };
}
