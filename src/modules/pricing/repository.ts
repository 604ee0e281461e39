import type { Queryable } from '../../platform/db/database.ts';
import type { PricingTables } from './tables.ts';

export async function hiddenFamilies(
  db: Queryable<PricingTables>,
  businessId: number,
  customerId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('price_visibility')
    .select('family')
    .where('business_id', '=', businessId)
    .where('customer_user_id', '=', customerId)
    .where('hidden', '=', true)
    .execute();
  return rows.map((row) => row.family);
}

export async function setHidden(
  db: Queryable<PricingTables>,
  values: {
    business_id: number;
    customer_user_id: number;
    family: string;
    hidden: boolean;
    updated_at: Date;
  },
): Promise<void> {
  await db
    .insertInto('price_visibility')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'customer_user_id', 'family'])
        .doUpdateSet({ hidden: values.hidden, updated_at: values.updated_at }),
    )
    .execute();
}
