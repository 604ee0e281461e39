import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { OcrTables } from './tables.ts';

type LabelOrderRow = OcrTables['label_orders'];

/** Records an order made from a label; null when the business already has one with this client_id. */
export async function insertLabelOrder(
  db: Queryable<OcrTables>,
  row: Insertable<LabelOrderRow>,
): Promise<{ id: number } | null> {
  const inserted = await db
    .insertInto('label_orders')
    .values(row)
    .onConflict((oc) => oc.columns(['business_id', 'client_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ?? null;
}

/** The order the business made from a label under this client_id, if any. */
export function orderOfClientId(
  db: Queryable<OcrTables>,
  businessId: number,
  clientId: string,
): Promise<{ order_id: number; tracking_numbers: string[] } | undefined> {
  return db
    .selectFrom('label_orders')
    .select(['order_id', 'tracking_numbers'])
    .where('business_id', '=', businessId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** The business's orders made from labels that carried one of these tracking numbers. */
export function labelOrdersByTrackingNumbers(
  db: Queryable<OcrTables>,
  businessId: number,
  numbers: string[],
): Promise<Array<{ order_id: number; tracking_numbers: string[] }>> {
  if (numbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('label_orders')
    .select(['order_id', 'tracking_numbers'])
    .where('business_id', '=', businessId)
    .where(sql<boolean>`tracking_numbers && ${sql.val(numbers)}::text[]`)
    .orderBy('id')
    .limit(50)
    .execute();
}

export function settingsOf(db: Queryable<OcrTables>, businessId: number) {
  return db
    .selectFrom('label_reading_settings')
    .select(['keep_label_images_days', 'updated_at'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveSettings(
  db: Queryable<OcrTables>,
  businessId: number,
  keepLabelImagesDays: number,
  at: Date,
): Promise<void> {
  await db
    .insertInto('label_reading_settings')
    .values({ business_id: businessId, keep_label_images_days: keepLabelImagesDays, updated_at: at })
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({ keep_label_images_days: keepLabelImagesDays, updated_at: at }),
    )
    .execute();
}

export async function insertImage(
  db: Queryable<OcrTables>,
  row: Insertable<OcrTables['label_images']>,
): Promise<number> {
  const { id } = await db.insertInto('label_images').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function imageRow(db: Queryable<OcrTables>, businessId: number, id: number) {
  return db
    .selectFrom('label_images')
    .select(['id', 'storage_key'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteImage(db: Queryable<OcrTables>, businessId: number, id: number): Promise<void> {
  await db.deleteFrom('label_images').where('business_id', '=', businessId).where('id', '=', id).execute();
}
