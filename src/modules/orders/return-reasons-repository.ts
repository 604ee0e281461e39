import type { Queryable } from '../../platform/db/database.ts';
import { json } from './repository.ts';
import type { OrdersTables } from './tables.ts';

// A business's return reasons (returns.ts): the codes a return names, with their labels.

export function returnReasonsOf(db: Queryable<OrdersTables>, businessId: number, code?: string) {
  return db
    .selectFrom('return_reasons')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(code !== undefined, (q) => q.where('code', '=', code!))
    .orderBy('code')
    .execute();
}

export async function saveReturnReason(db: Queryable<OrdersTables>, reason: OrdersTables['return_reasons']) {
  await db
    .insertInto('return_reasons')
    .values({ ...reason, labels: json(reason.labels) as never })
    .onConflict((oc) =>
      oc.columns(['business_id', 'code']).doUpdateSet({
        labels: json(reason.labels) as never,
        photo_required: reason.photo_required,
        updated_at: reason.updated_at,
      }),
    )
    .execute();
}

export function deleteReturnReason(db: Queryable<OrdersTables>, businessId: number, code: string) {
  return db
    .deleteFrom('return_reasons')
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .returning('code')
    .executeTakeFirst();
}
