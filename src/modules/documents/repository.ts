import type { Queryable } from '../../platform/db/database.ts';
import type { DocumentsTables } from './tables.ts';

export type DocumentRow = Omit<DocumentsTables['documents'], 'id'>;

/** Records a signing key's public half the first time it signs (later calls change nothing). */
export async function recordKey(
  db: Queryable<DocumentsTables>,
  keyId: string,
  publicKey: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('document_signing_keys')
    .values({ key_id: keyId, public_key: publicKey, first_used_at: now })
    .onConflict((oc) => oc.column('key_id').doNothing())
    .execute();
}

/** Inserts a document, or returns the one already recorded for the same bytes, business, kind and reference. */
export async function insertDocument(
  db: Queryable<DocumentsTables>,
  row: DocumentRow,
): Promise<{ id: number; issued_at: Date }> {
  const inserted = await db
    .insertInto('documents')
    .values(row)
    .onConflict((oc) => oc.columns(['sha256', 'business_id', 'kind', 'reference']).doNothing())
    .returning(['id', 'issued_at'])
    .executeTakeFirst();
  if (inserted) return inserted;
  return db
    .selectFrom('documents')
    .select(['id', 'issued_at'])
    .where('sha256', '=', row.sha256)
    .where('business_id', '=', row.business_id)
    .where('kind', '=', row.kind)
    .where('reference', '=', row.reference)
    .executeTakeFirstOrThrow();
}

/** The first document issued with these bytes, with the public key that signed it. */
export function firstBySha256(db: Queryable<DocumentsTables>, sha256: string) {
  return db
    .selectFrom('documents')
    .innerJoin('document_signing_keys', 'document_signing_keys.key_id', 'documents.key_id')
    .select([
      'documents.kind',
      'documents.reference',
      'documents.sha256',
      'documents.issued_at',
      'documents.key_id',
      'documents.signature',
      'document_signing_keys.public_key',
    ])
    .where('documents.sha256', '=', sha256)
    .orderBy('documents.issued_at')
    .orderBy('documents.id')
    .limit(1)
    .executeTakeFirst();
}

export function keys(db: Queryable<DocumentsTables>) {
  return db
    .selectFrom('document_signing_keys')
    .select(['key_id', 'public_key', 'first_used_at'])
    .orderBy('first_used_at')
    .orderBy('key_id')
    .execute();
}
