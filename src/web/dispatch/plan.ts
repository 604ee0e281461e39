import { type Api, ApiError, answer, CONFIRM, DRY_RUN, type paths, type Schemas } from '../shared/api.ts';

export type Violation = Schemas['Violation'];

/** What a plan edit answers: the routes it changed and the rules it broke that were not broken. */
interface EditAnswer {
  violations_confirmed: Violation[];
  routes?: Array<{ id: number; plan_version?: number }>;
}

/**
 * A route as the console drew it: its plan version is the edit's precondition, so that an edit
 * decided on a view the plan has left is refused (CONCURRENT_UPDATE) instead of overwriting.
 */
export interface SeenRoute {
  id: number;
  plan_version: number;
}

/**
 * One change to the plan a dispatcher makes: how it runs (as a dry run first, to show the rules it
 * would break) and how it is taken back, given what it answered. `undo` is absent where the API has
 * no inverse (a rebuild).
 */
export interface PlanEdit {
  run(options: { confirmViolations: boolean; dryRun: boolean }): Promise<EditAnswer | unknown>;
  undo?: (made: unknown) => Promise<unknown>;
}

/** What the console does with an edit's outcome. */
export interface EditOutcome {
  kind: 'made' | 'needsConfirmation' | 'refused';
  violations: Violation[];
  /** What the edit answered, when made: its undo starts from the routes as the edit left them. */
  made?: unknown;
  error?: ApiError;
}

const headers = (dryRun: boolean) => (dryRun ? DRY_RUN : {});

/** The plan version a route has after an edit, from the edit's answer (undefined: not checked). */
const versionAfter = (made: unknown, routeId: number) =>
  (made as Partial<EditAnswer> | undefined)?.routes?.find((route) => route.id === routeId)?.plan_version;

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
    return { kind: 'made', violations: (made as Partial<EditAnswer>).violations_confirmed ?? [], made };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'refused', violations: [], error };
    throw error;
  }
}

/** The edits of the console, each through the operation of the public API it names. */
export function planEdits(api: Api) {
  /** lock_route or unlock_route. */
  const setLock = (routeId: number, lock: boolean, version: number | undefined, dryRun: boolean) => {
    const call = {
      params: { path: { route_id: routeId }, header: headers(dryRun) },
      body: { expected_plan_version: version },
    };
    return lock
      ? answer(api.POST('/v1/client/routes/{route_id}/lock', call))
      : answer(api.POST('/v1/client/routes/{route_id}/unlock', call));
  };
  /** publish_board_route. */
  const publish = (routeId: number, fleetId: number, dryRun: boolean) =>
    answer(
      api.POST('/v1/client/fleets/{fleet_id}/board/routes', {
        params: { path: { fleet_id: fleetId }, header: headers(dryRun) },
        body: { route_id: routeId },
      }),
    );
  /** pull_back_board_route: to the driver the route was built for. */
  const pullBack = (routeId: number, fleetId: number, dryRun: boolean) =>
    answer(
      api.POST('/v1/client/fleets/{fleet_id}/board/routes/{route_id}/pull-back', {
        params: { path: { fleet_id: fleetId, route_id: routeId }, header: headers(dryRun) },
        body: {},
      }),
    );
  return {
    /** assign_order_to_route; undone by remove_route_stop. */
    assign(route: SeenRoute, orderId: number, position?: number): PlanEdit {
      return {
        run: ({ confirmViolations, dryRun }) =>
          answer(
            api.POST('/v1/client/routes/{route_id}/stops', {
              params: { path: { route_id: route.id }, header: headers(dryRun) },
              body: {
                order_id: orderId,
                confirm_violations: confirmViolations,
                expected_plan_version: route.plan_version,
                ...(position ? { position } : {}),
              },
            }),
          ),
        undo: (made) =>
          answer(
            api.DELETE('/v1/client/routes/{route_id}/stops/{order_id}', {
              params: {
                path: { route_id: route.id, order_id: orderId },
                query: { expected_plan_version: versionAfter(made, route.id) },
              },
            }),
          ),
      };
    },
    /** move_route_stop; undone by moving it back where it was. */
    move(
      from: { route: SeenRoute; position: number },
      orderId: number,
      to: { route: SeenRoute; position?: number },
    ): PlanEdit {
      const moveTo = (
        source: { id: number; version: number | undefined },
        target: { id: number; version: number | undefined },
        position: number | undefined,
        confirm: boolean,
        dryRun: boolean,
      ) =>
        answer(
          api.POST('/v1/client/routes/{route_id}/stops/{order_id}/move', {
            params: { path: { route_id: source.id, order_id: orderId }, header: headers(dryRun) },
            body: {
              expected_plan_version: source.version,
              ...(target.id !== source.id
                ? { to_route_id: target.id, expected_to_plan_version: target.version }
                : {}),
              ...(position ? { position } : {}),
              confirm_violations: confirm,
            },
          }),
        );
      const seen = (route: SeenRoute) => ({ id: route.id, version: route.plan_version });
      const after = (made: unknown, route: SeenRoute) => ({
        id: route.id,
        version: versionAfter(made, route.id),
      });
      return {
        run: ({ confirmViolations, dryRun }) =>
          moveTo(seen(from.route), seen(to.route), to.position, confirmViolations, dryRun),
        undo: (made) => moveTo(after(made, to.route), after(made, from.route), from.position, true, false),
      };
    },
    /** lock_route or unlock_route; undone by the other. */
    lock(route: SeenRoute, locked: boolean): PlanEdit {
      return {
        run: ({ dryRun }) => setLock(route.id, locked, route.plan_version, dryRun),
        undo: (made) => setLock(route.id, !locked, versionAfter(made, route.id), false),
      };
    },
    /** resequence_route with optimize; undone by the stops' order before it. */
    optimise(route: SeenRoute, before: Array<{ order_id: number; leg: Schemas['StopLeg'] }>): PlanEdit {
      return {
        run: ({ confirmViolations, dryRun }) =>
          answer(
            api.POST('/v1/client/routes/{route_id}/sequence', {
              params: { path: { route_id: route.id }, header: headers(dryRun) },
              body: {
                optimize: true,
                confirm_violations: confirmViolations,
                expected_plan_version: route.plan_version,
              },
            }),
          ),
        undo: (made) =>
          answer(
            api.POST('/v1/client/routes/{route_id}/sequence', {
              params: { path: { route_id: route.id } },
              body: {
                stops: before,
                confirm_violations: true,
                expected_plan_version: versionAfter(made, route.id),
              },
            }),
          ),
      };
    },
    /** change_route_driver; undone by giving the route back to its driver. */
    driver(route: SeenRoute, driverId: number, previous: number): PlanEdit {
      const set = (id: number, version: number | undefined, confirm: boolean, dryRun: boolean) =>
        answer(
          api.PUT('/v1/client/routes/{route_id}/driver', {
            params: { path: { route_id: route.id }, header: headers(dryRun) },
            body: { driver_id: id, confirm_violations: confirm, expected_plan_version: version },
          }),
        );
      return {
        run: ({ confirmViolations, dryRun }) => set(driverId, route.plan_version, confirmViolations, dryRun),
        undo: (made) => set(previous, versionAfter(made, route.id), true, false),
      };
    },
    /** change_route_vehicle (null: the driver's own); undone by the vehicle before. */
    vehicle(route: SeenRoute, vehicleId: number | null, previous: number | null): PlanEdit {
      const set = (id: number | null, version: number | undefined, confirm: boolean, dryRun: boolean) =>
        answer(
          api.PUT('/v1/client/routes/{route_id}/vehicle', {
            params: { path: { route_id: route.id }, header: headers(dryRun) },
            body: { vehicle_id: id, confirm_violations: confirm, expected_plan_version: version },
          }),
        );
      return {
        run: ({ confirmViolations, dryRun }) => set(vehicleId, route.plan_version, confirmViolations, dryRun),
        undo: (made) => set(previous, versionAfter(made, route.id), true, false),
      };
    },
    /** publish_board_route: the route waits on the fleet's board; undone by pulling it back. */
    publish(routeId: number, fleetId: number): PlanEdit {
      return {
        run: ({ dryRun }) => publish(routeId, fleetId, dryRun),
        undo: () => pullBack(routeId, fleetId, false),
      };
    },
    /** pull_back_board_route: back to the driver it was built for; undone by publishing it again. */
    pullBack(routeId: number, fleetId: number): PlanEdit {
      return {
        run: ({ dryRun }) => pullBack(routeId, fleetId, dryRun),
        undo: () => publish(routeId, fleetId, false),
      };
    },
  };
}

type BuildBody = NonNullable<
  paths['/v3/client/build-route']['post']['requestBody']
>['content']['application/json'];
type Built = Exclude<Awaited<ReturnType<typeof buildOnce>>, { job: unknown }>;

function buildOnce(api: Api, body: BuildBody, confirmed: boolean) {
  return answer(api.POST('/v3/client/build-route', { params: { header: confirmed ? CONFIRM : {} }, body }));
}

/**
 * Builds a day's routes (build_route); a big day is built as a job, waited for here while the live
 * board shows its routes as they land. Answers the build's result.
 */
export async function buildDay(api: Api, body: BuildBody, options: { confirmed: boolean }): Promise<Built> {
  let built = await buildOnce(api, body, options.confirmed);
  while ('job' in built) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { job } = await answer(api.GET('/v1/jobs/{id}', { params: { path: { id: built.job.id } } }));
    if (job.status === 'failed') throw new Error(job.error?.message ?? job.status);
    if (job.status === 'succeeded') built = job.result as Built;
  }
  return built;
}
