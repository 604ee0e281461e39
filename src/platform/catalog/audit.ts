import type { Generated } from 'kysely';
import type { Queryable } from '../db/database.ts';
import type { MonthlyHistory } from '../db/partitions.ts';
import type { Door } from './operation.ts';

export interface AuditTables {
  operation_audit: {
    id: Generated<number>;
    at: Date;
    operation: string;
    door: string;
    actor_user_id: number | null;
    business_id: number | null;
    request_id: string | null;
  };
}

/**
 * The audit is partitioned by month of `at` (docs/history.md). Platform-level entries have no
 * business, so it is not distributed by business: it stays whole on the coordinating database.
 */
export const AUDIT_HISTORY: MonthlyHistory = { table: 'operation_audit', timeColumn: 'at' };

export interface AuditEntry {
  at: Date;
  operation: string;
  door: Door;
  actorUserId: number | null;
  businessId: number | null;
  requestId: string;
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('operation_audit')
    .values({
      at: entry.at,
      operation: entry.operation,
      door: entry.door,
      actor_user_id: entry.actorUserId,
      business_id: entry.businessId,
      request_id: entry.requestId,
    })
    .execute();
}
