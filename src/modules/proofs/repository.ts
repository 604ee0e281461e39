import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { ProofsTables } from './tables.ts';

export type ProofRow = ProofsTables['proof_files'];
export type StoredProof = Omit<ProofRow, 'id'> & { id: number };

/** Records an upload; null when the uploader already sent one with the same client_id. */
export async function insertProof(
  db: Queryable<ProofsTables>,
  row: Insertable<ProofRow>,
): Promise<StoredProof | null> {
  const inserted = await db
    .insertInto('proof_files')
    .values(row)
    .onConflict((oc) => oc.columns(['business_id', 'uploaded_by', 'client_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? null;
}

/** The uploader's upload with this client_id, in this business. */
export function byClientId(
  db: Queryable<ProofsTables>,
  businessId: number,
  uploadedBy: number,
  clientId: string,
): Promise<StoredProof | undefined> {
  return db
    .selectFrom('proof_files')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('uploaded_by', '=', uploadedBy)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** Which of these ids are proof files of the order, with their kinds. */
export function kindsOf(
  db: Queryable<ProofsTables>,
  businessId: number,
  orderId: number,
  ids: readonly number[],
): Promise<Array<{ id: number; kind: ProofRow['kind'] }>> {
  return db
    .selectFrom('proof_files')
    .select(['id', 'kind'])
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Where a proof's bytes are, by id alone: only for a link whose signature the service checked,
 * which it made for that id.
 */
export function storedFile(
  db: Queryable<ProofsTables>,
  id: number,
): Promise<{ storage_key: string; content_type: string } | undefined> {
  return db
    .selectFrom('proof_files')
    .select(['storage_key', 'content_type'])
    .where('id', '=', id)
    .executeTakeFirst();
}
