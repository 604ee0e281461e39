import { type Selectable, sql } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { ShippingTables } from './tables.ts';

export type StoredCarrier = Selectable<ShippingTables['shipping_carriers']>;
export type LabelRow = Omit<ShippingTables['shipping_labels'], 'id'>;

/** jsonb parameters go as JSON text; pg would turn a JS array into a PostgreSQL array. */

export function carriersOf(
  db: Queryable<ShippingTables>,
  businessId: number,
  options: { activeOnly?: boolean } = {},
) {
  let query = db
    .selectFrom('shipping_carriers')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('code');
  if (options.activeOnly) query = query.where('active', '=', true);
  return query.execute() as Promise<StoredCarrier[]>;
}

/** Creates the carrier, or replaces its name, card and state and bumps its version. */
export async function upsertCarrier(
  db: Queryable<ShippingTables>,
  values: Pick<StoredCarrier, 'business_id' | 'code' | 'name' | 'kind' | 'rate_card' | 'active'> & {
    now: Date;
  },
): Promise<StoredCarrier> {
  const { now, ...carrier } = values;
  return (await db
    .insertInto('shipping_carriers')
    .values({ ...carrier, rate_card: jsonb(carrier.rate_card), created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['business_id', 'code']).doUpdateSet({
        name: carrier.name,
        kind: carrier.kind,
        rate_card: jsonb(carrier.rate_card),
        active: carrier.active,
        version: sql`shipping_carriers.version + 1`,
        updated_at: now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()) as StoredCarrier;
}

export async function insertLabel(db: Queryable<ShippingTables>, row: LabelRow): Promise<number> {
  return (
    await db
      .insertInto('shipping_labels')
      .values({ ...row, surcharges: jsonb(row.surcharges) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export function labelByTrackingNumber(
  db: Queryable<ShippingTables>,
  businessId: number,
  trackingNumber: string,
) {
  return db
    .selectFrom('shipping_labels')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('tracking_number', '=', trackingNumber)
    .executeTakeFirst();
}

/** The business's labels with one of these tracking numbers (what a read label may match). */
export function labelsByTrackingNumbers(
  db: Queryable<ShippingTables>,
  businessId: number,
  numbers: string[],
) {
  if (numbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('shipping_labels')
    .select(['id', 'order_id', 'package_id', 'tracking_number', 'carrier_code', 'service_code', 'created_at'])
    .where('business_id', '=', businessId)
    .where('tracking_number', 'in', numbers)
    .orderBy('id')
    .limit(50)
    .execute();
}
