import type { Queryable } from '../../platform/db/database.ts';
import type { OrdersTables } from './tables.ts';

// The package rows an order being repacked changes (OrderIntake.repack).

/** Sizes and weight of one package, in place: its tracking number stays. */
export async function resizePackage(
  db: Queryable<OrdersTables>,
  businessId: number,
  id: number,
  values: Pick<
    OrdersTables['packages'],
    'weight_grams' | 'length_mm' | 'width_mm' | 'height_mm' | 'description'
  >,
): Promise<void> {
  await db
    .updateTable('packages')
    .set(values)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function deletePackages(db: Queryable<OrdersTables>, businessId: number, ids: number[]) {
  if (ids.length > 0)
    await db.deleteFrom('packages').where('business_id', '=', businessId).where('id', 'in', ids).execute();
}
