import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';

// Stale views: a dispatcher edits the plan as they last saw it (a board, a route's detail). Each
// route carries its plan version, which every change of its plan moves (its stops and their order,
// its lock, driver and vehicle: edits-repository.ts updateRoute, repository.ts deleteStopsOfOrders);
// an edit that names the version it saw is refused when the route moved on since, rather than
// overwriting a change its author never saw. Checked on the routes' locked rows, so nothing can
// move them between the check and the edit.

/** The optional preconditions of a plan edit, as its input takes them. */
export const expectedPlanVersion = z
  .int()
  .positive()
  .optional()
  .describe(
    "The route's `plan_version` as the caller last saw it: the edit is refused with CONCURRENT_UPDATE (nothing changed) when the route's plan changed since. Absent: no check",
  );
export const expectedToPlanVersion = z
  .int()
  .positive()
  .optional()
  .describe('As expected_plan_version, for the route `to_route_id` names');

/**
 * Refuses the edit (CONCURRENT_UPDATE, `details` naming the route, the version expected and the
 * current one) when a route's plan version is not the one its caller expects.
 */
export function refuseStale(
  rows: ReadonlyArray<{ id: number; plan_version: number }>,
  expected: ReadonlyArray<{ routeId: number; version: number | undefined }>,
): void {
  for (const { routeId, version } of expected) {
    if (version === undefined) continue;
    const row = rows.find((candidate) => candidate.id === routeId);
    if (row && row.plan_version !== version) {
      throw new AppError('CONCURRENT_UPDATE', {
        details: {
          reason: 'plan_changed',
          route_id: routeId,
          expected_plan_version: version,
          plan_version: row.plan_version,
        },
      });
    }
  }
}
