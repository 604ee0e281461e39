import { TRACKING_HISTORY } from './modules/tracking/index.ts';
import { AUDIT_HISTORY } from './platform/catalog/audit.ts';
import type { Db } from './platform/db/database.ts';
import {
  type CreatedPartition,
  ensureMonthPartitions,
  type MonthlyHistory,
} from './platform/db/partitions.ts';

/** The tables partitioned by month (docs/history.md): the tracking history and the operation audit. */
export const HISTORIES: readonly MonthlyHistory[] = [TRACKING_HISTORY, AUDIT_HISTORY];

/** Once a day is plenty: the maintenance keeps three months ready ahead. */
export const HISTORY_MAINTENANCE_MS = 86_400_000;

/**
 * Creates the partitions of the current month and the months ahead of every history, moving rows
 * out of the default partitions when their month comes. One table failing (a lock not had in
 * time) does not keep the other from its partitions; the failure is told and tried again next run.
 */
export async function maintainHistories(
  db: Db,
  now: Date,
  report: (history: MonthlyHistory, outcome: { created: CreatedPartition[] } | { error: unknown }) => void,
): Promise<void> {
  await Promise.all(
    HISTORIES.map((history) =>
      ensureMonthPartitions(db, history, now).then(
        (created) => report(history, { created }),
        (error: unknown) => report(history, { error }),
      ),
    ),
  );
}
