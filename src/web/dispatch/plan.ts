import { type Api, ApiError, answer, DRY_RUN, type Schemas } from '../shared/api.ts';

export type Violation = Schemas['Violation'];

/** What a plan edit answers: the routes it changed and the rules it broke that were not broken. */
interface EditAnswer {
  violations_confirmed: Violation[];
}

/**
 * One change to the plan a dispatcher makes: how it runs (as a dry run first, to show the rules it
 * would break) and how it is taken back. `undo` is absent where the API has no inverse (a rebuild).
 */
export interface PlanEdit {
  run(options: { confirmViolations: boolean; dryRun: boolean }): Promise<EditAnswer | unknown>;
  undo?: () => Promise<unknown>;
}

/** What the console does with an edit's outcome. */
export interface EditOutcome {
  kind: 'made' | 'needsConfirmation' | 'refused';
  violations: Violation[];
  error?: ApiError;
}

const headers = (dryRun: boolean) => (dryRun ? DRY_RUN : {});

/**
 * Tries an edit: a dry run with the violations confirmed tells which rules it would break; with
 * none it is made at once, else the console asks first (`confirm`). Refusals come back, never thrown.
 */
export async function attempt(edit: PlanEdit, confirmed: boolean): Promise<EditOutcome> {
  try {
    if (!confirmed) {
      const preview = await edit.run({ confirmViolations: true, dryRun: true });
      const violations = (preview as Partial<EditAnswer>).violations_confirmed ?? [];
      if (violations.length > 0) return { kind: 'needsConfirmation', violations };
    }
    const made = await edit.run({ confirmViolations: confirmed, dryRun: false });
    return { kind: 'made', violations: (made as Partial<EditAnswer>).violations_confirmed ?? [] };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'refused', violations: [], error };
    throw error;
  }
}

/** The edits of the console, each through the operation of the public API it names. */
export function planEdits(api: Api) {
  return {
    /** assign_order_to_route; undone by remove_route_stop. */
    assign(routeId: number, orderId: number, position?: number): PlanEdit {
      return {
        run: ({ confirmViolations, dryRun }) =>
          answer(
            api.POST('/v1/client/routes/{route_id}/stops', {
              params: { path: { route_id: routeId }, header: headers(dryRun) },
              body: {
                order_id: orderId,
                confirm_violations: confirmViolations,
                ...(position ? { position } : {}),
              },
            }),
          ),
        undo: () =>
          answer(
            api.DELETE('/v1/client/routes/{route_id}/stops/{order_id}', {
              params: { path: { route_id: routeId, order_id: orderId } },
            }),
          ),
      };
    },
    /** move_route_stop; undone by moving it back where it was. */
    move(
      from: { routeId: number; position: number },
      orderId: number,
      to: { routeId: number; position?: number },
    ): PlanEdit {
      const moveTo = (
        routeId: number,
        target: number,
        position: number | undefined,
        confirm: boolean,
        dryRun: boolean,
      ) =>
        answer(
          api.POST('/v1/client/routes/{route_id}/stops/{order_id}/move', {
            params: { path: { route_id: routeId, order_id: orderId }, header: headers(dryRun) },
            body: {
              ...(target !== routeId ? { to_route_id: target } : {}),
              ...(position ? { position } : {}),
              confirm_violations: confirm,
            },
          }),
        );
      return {
        run: ({ confirmViolations, dryRun }) =>
          moveTo(from.routeId, to.routeId, to.position, confirmViolations, dryRun),
        undo: () => moveTo(to.routeId, from.routeId, from.position, true, false),
      };
    },
    /** lock_route or unlock_route; undone by the other. */
    lock(routeId: number, locked: boolean): PlanEdit {
      const set = (lock: boolean, dryRun: boolean) =>
        lock
          ? answer(
              api.POST('/v1/client/routes/{route_id}/lock', {
                params: { path: { route_id: routeId }, header: headers(dryRun) },
              }),
            )
          : answer(
              api.POST('/v1/client/routes/{route_id}/unlock', {
                params: { path: { route_id: routeId }, header: headers(dryRun) },
              }),
            );
      return { run: ({ dryRun }) => set(locked, dryRun), undo: () => set(!locked, false) };
    },
    /** resequence_route with optimize; undone by the stops' order before it. */
    optimise(routeId: number, before: Array<{ order_id: number; leg: Schemas['StopLeg'] }>): PlanEdit {
      return {
        run: ({ confirmViolations, dryRun }) =>
          answer(
            api.POST('/v1/client/routes/{route_id}/sequence', {
              params: { path: { route_id: routeId }, header: headers(dryRun) },
              body: { optimize: true, confirm_violations: confirmViolations },
            }),
          ),
        undo: () =>
          answer(
            api.POST('/v1/client/routes/{route_id}/sequence', {
              params: { path: { route_id: routeId } },
              body: { stops: before, confirm_violations: true },
            }),
          ),
      };
    },
    /** change_route_driver; undone by giving the route back to its driver. */
    driver(routeId: number, driverId: number, previous: number): PlanEdit {
      const set = (id: number, confirm: boolean, dryRun: boolean) =>
        answer(
          api.PUT('/v1/client/routes/{route_id}/driver', {
            params: { path: { route_id: routeId }, header: headers(dryRun) },
            body: { driver_id: id, confirm_violations: confirm },
          }),
        );
      return {
        run: ({ confirmViolations, dryRun }) => set(driverId, confirmViolations, dryRun),
        undo: () => set(previous, true, false),
      };
    },
    /** change_route_vehicle (null: the driver's own); undone by the vehicle before. */
    vehicle(routeId: number, vehicleId: number | null, previous: number | null): PlanEdit {
      const set = (id: number | null, confirm: boolean, dryRun: boolean) =>
        answer(
          api.PUT('/v1/client/routes/{route_id}/vehicle', {
            params: { path: { route_id: routeId }, header: headers(dryRun) },
            body: { vehicle_id: id, confirm_violations: confirm },
          }),
        );
      return {
        run: ({ confirmViolations, dryRun }) => set(vehicleId, confirmViolations, dryRun),
        undo: () => set(previous, true, false),
      };
    },
  };
}
