import type { Selectable } from 'kysely';
import { pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { AssignmentStatus, ContractorsTables } from './tables.ts';

type Rule = ContractorsTables['contractor_rules'];

export async function insertRule(
  db: Queryable<ContractorsTables>,
  values: Omit<Rule, 'id'>,
): Promise<number> {
  return (await db.insertInto('contractor_rules').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

export function rulesOf(
  db: Queryable<ContractorsTables>,
  businessId: number,
  filter: { companyId?: number; ids?: number[] } = {},
) {
  return db
    .selectFrom('contractor_rules')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(filter.companyId !== undefined, (q) => q.where('contractor_company_id', '=', filter.companyId!))
    .$if(filter.ids !== undefined, (q) => q.where('id', 'in', filter.ids!))
    .orderBy('id')
    .execute();
}

export async function deleteRule(
  db: Queryable<ContractorsTables>,
  businessId: number,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('contractor_rules')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

type Assignment = ContractorsTables['broker_order_assignments'];

/** The active assignments of a business: which order is held by which contractor. */
export function activeAssignments(db: Queryable<ContractorsTables>, businessId: number) {
  return db
    .selectFrom('broker_order_assignments')
    .select(['id', 'order_id', 'broker_user_id'])
    .where('business_id', '=', businessId)
    .where('status', '=', 'active')
    .execute();
}

export function activeAssignmentsOf(
  db: Queryable<ContractorsTables>,
  businessId: number,
  orderIds: number[],
) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('broker_order_assignments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('status', '=', 'active')
    .where('order_id', 'in', orderIds)
    .execute();
}

export async function insertAssignment(
  db: Queryable<ContractorsTables>,
  values: Omit<Assignment, 'id'>,
): Promise<number> {
  const row = await db
    .insertInto('broker_order_assignments')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function endAssignment(
  db: Queryable<ContractorsTables>,
  id: number,
  end: {
    status: Exclude<AssignmentStatus, 'active'>;
    ended_by: number;
    ended_at: Date;
    end_reason: string | null;
  },
): Promise<void> {
  await db.updateTable('broker_order_assignments').set(end).where('id', '=', id).execute();
}

export interface AssignmentFilter {
  brokerId?: number;
  status?: AssignmentStatus;
  orderId?: number;
}

function assignmentsWhere(db: Queryable<ContractorsTables>, businessId: number, filter: AssignmentFilter) {
  return db
    .selectFrom('broker_order_assignments as a')
    .where('a.business_id', '=', businessId)
    .$if(filter.brokerId !== undefined, (q) => q.where('a.broker_user_id', '=', filter.brokerId!))
    .$if(filter.status !== undefined, (q) => q.where('a.status', '=', filter.status!))
    .$if(filter.orderId !== undefined, (q) => q.where('a.order_id', '=', filter.orderId!));
}

/** A page of the assignments of a filter, newest first, by page number or after a cursor's row. */
export function assignmentsPage(
  db: Queryable<ContractorsTables>,
  businessId: number,
  filter: AssignmentFilter,
  window: PageWindow,
) {
  return pageById<Selectable<ContractorsTables['broker_order_assignments']>>(
    assignmentsWhere(db, businessId, filter).selectAll('a'),
    window,
    'desc',
    'a.id',
  );
}
