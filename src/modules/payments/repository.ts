import { type Selectable, sql } from 'kysely';
import { pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { PaymentsTables } from './tables.ts';

export async function insertPayment(
  db: Queryable<PaymentsTables>,
  values: Omit<PaymentsTables['payments'], 'id'>,
): Promise<number> {
  return (await db.insertInto('payments').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** Held until the transaction ends: payments of one order are made one at a time. */
export async function lockPaymentsOf(db: Queryable<PaymentsTables>, orderId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('payments'), ${orderId}::int)`.execute(db);
}

export function succeededPaymentOf(db: Queryable<PaymentsTables>, businessId: number, orderId: number) {
  return db
    .selectFrom('payments')
    .select('id')
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
}

export async function insertCredit(
  db: Queryable<PaymentsTables>,
  values: Omit<PaymentsTables['credit_ledger'], 'id'>,
): Promise<number> {
  return (await db.insertInto('credit_ledger').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** Locks the customer's ledger rows so two payments cannot spend the same credit. */
export async function creditBalance(
  db: Queryable<PaymentsTables>,
  businessId: number,
  customerId: number,
  currency: string,
) {
  await sql`SELECT pg_advisory_xact_lock(${businessId}::int, ${customerId}::int)`.execute(db);
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('balance'))
    .where('business_id', '=', businessId)
    .where('customer_user_id', '=', customerId)
    .where('currency', '=', currency)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** The customer's balance in each currency it has entries in, over the whole ledger. */
export async function balancesOf(db: Queryable<PaymentsTables>, businessId: number, customerId: number) {
  const rows = await db
    .selectFrom('credit_ledger')
    .select((eb) => ['currency', eb.fn.sum<number>('amount_minor').as('balance')])
    .where('business_id', '=', businessId)
    .where('customer_user_id', '=', customerId)
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency, minor: Number(row.balance) }));
}

/** The latest entries (the balance is balancesOf's, never a sum of this page). */
/** A page of a customer's credit ledger, newest first, by page number or after a cursor's row. */
export function ledgerOf(
  db: Queryable<PaymentsTables>,
  businessId: number,
  customerId: number,
  window: PageWindow,
) {
  return pageById<
    Pick<
      Selectable<PaymentsTables['credit_ledger']>,
      'id' | 'amount_minor' | 'currency' | 'reason' | 'payment_id' | 'created_at'
    >
  >(
    db
      .selectFrom('credit_ledger')
      .select(['id', 'amount_minor', 'currency', 'reason', 'payment_id', 'created_at'])
      .where('business_id', '=', businessId)
      .where('customer_user_id', '=', customerId),
    window,
    'desc',
  );
}
