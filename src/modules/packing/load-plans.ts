import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { BackgroundCalls } from '../../platform/catalog/jobs.ts';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, pageWindow } from '../../platform/pagination.ts';
import type { DispatchService, RouteStopsChange, RouteStopsListener } from '../dispatch/index.ts';
import type { OrdersService } from '../orders/index.ts';
import { loadingSheetPdf } from './loading-sheet.ts';
import type { Solvers } from './packing-plans.ts';
import { loadPictureSvg } from './picture.ts';
import * as repo from './repository.ts';
import {
  type LoadItemInput,
  type loadPlanSchema,
  MAX_LOADING_SPACES,
  type SpaceView,
  TIME_LIMIT_MS,
} from './schemas.ts';
import type { LoadingInput, LoadingItem, LoadingOutput } from './solver/loading/index.ts';
import { loadingSpaceOf, STANDARD_SPACES, standardSpace, standardView } from './spaces.ts';
import { dissolved, loadedStops, staleChanges, staleSince } from './staleness.ts';
import type { PackingTables, PlannedStop, SpaceKind } from './tables.ts';

type SpaceRow = Selectable<PackingTables['loading_spaces']>;
type PlanRow = Selectable<PackingTables['load_plans']>;
type NamedAxle = { name: string; position_mm: number; max_load_kg: number };

export interface SpaceInput {
  name: string;
  kind: SpaceKind;
  length_mm: number;
  width_mm: number;
  height_mm: number;
  payload_kg?: number;
  cross_section?: number[][];
  axles?: NamedAxle[];
  reach_limit_mm?: number;
  max_stack_ratio?: number;
  load_at_door: boolean;
}

export interface LoadRequest {
  space: string;
  items?: LoadItemInput[];
  route_id?: number;
  support_percent: number;
  time_limit_ms: number;
}

function businessSpaceView(row: SpaceRow): SpaceView {
  return {
    code: null,
    id: row.id,
    name: row.name,
    kind: row.kind,
    length_mm: row.length_mm,
    width_mm: row.width_mm,
    height_mm: row.height_mm,
    payload_kg: row.payload_kg,
    door: null,
    cross_section: row.cross_section,
    axles: row.axles,
    reach_limit_mm: row.reach_limit_mm,
    max_stack_ratio: row.max_stack_ratio,
    load_at_door: row.load_at_door,
    source: null,
  };
}

/** Whether a box can pass the door in some orientation it may take. */
function passesDoor(item: LoadItemInput, door: { width_mm: number; height_mm: number }): boolean {
  const sides = [item.length_mm, item.width_mm, item.height_mm];
  const upright = item.this_side_up ? [2] : [0, 1, 2];
  return upright.some((up) => {
    const across = sides.filter((_, index) => index !== up);
    return sides[up]! <= door.height_mm && Math.min(...across) <= door.width_mm;
  });
}

const mm = (value: number) => Math.round(value);
const percent = (ratio: number) => Math.round(ratio * 10_000) / 100;

/** The operation a stale plan is planned again by, as a job (replan_load_plan). */
export const REPLAN_OPERATION = 'replan_load_plan';

/**
 * Load plans: which boxes go where in a container, an air ULD, a van or a truck, in which order
 * they are loaded, and whether the load keeps its weight, balance, stacking and unloading order
 * (docs/loading.md). The boxes are given, or are a built route's measured packages, unloaded in
 * the order of its deliveries; such a plan follows its route (dispatch tells it of every change of
 * the route's stops) and says when it no longer holds, and what changed.
 */
export class LoadPlans implements RouteStopsListener {
  /** Where a stale plan is queued to be planned again (the jobs module, connected by the composition root). */
  private jobs: BackgroundCalls | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly solvers: Solvers,
    private readonly dispatch: Pick<DispatchService, 'routes' | 'stopsOfRoutes'>,
    private readonly orders: Pick<OrdersService, 'queries'>,
  ) {}

  queueJobsOn(jobs: BackgroundCalls): void {
    this.jobs = jobs;
  }

  async spaces(ctx: OperationContext) {
    const own = await repo.spacesOf(ctx.db, businessOf(ctx));
    return {
      result: true as const,
      spaces: [...STANDARD_SPACES.map(standardView), ...own.map(businessSpaceView)],
    };
  }

  async createSpace(ctx: OperationContext, input: SpaceInput) {
    const businessId = businessOf(ctx);
    if ((await repo.spacesOf(ctx.db, businessId)).length >= MAX_LOADING_SPACES) {
      throw new AppError('LOADING_SPACES_FULL', { params: { limit: MAX_LOADING_SPACES } });
    }
    const row = await repo.insertSpace(ctx.db, {
      business_id: businessId,
      name: input.name,
      kind: input.kind,
      length_mm: input.length_mm,
      width_mm: input.width_mm,
      height_mm: input.height_mm,
      payload_kg: input.payload_kg ?? null,
      cross_section: (input.cross_section as Array<[number, number]> | undefined) ?? null,
      axles: input.axles ?? null,
      reach_limit_mm: input.reach_limit_mm ?? null,
      max_stack_ratio: input.max_stack_ratio ?? null,
      load_at_door: input.load_at_door,
      created_at: this.clock.now(),
    });
    return { result: true as const, space: businessSpaceView(row) };
  }

  async deleteSpace(ctx: OperationContext, spaceId: number) {
    if (!(await repo.deleteSpace(ctx.db, businessOf(ctx), spaceId))) {
      throw new AppError('LOADING_SPACE_NOT_FOUND', { params: { space: spaceId } });
    }
    return { result: true as const, deleted: 1 };
  }

  async create(ctx: OperationContext, request: LoadRequest) {
    const businessId = businessOf(ctx);
    const space = await this.space(ctx, request.space);
    const { items, unmeasured, basis } = request.route_id
      ? await this.routeItems(ctx, request.route_id)
      : { items: request.items ?? [], unmeasured: [], basis: null };
    const answer = await this.solve(space, items, unmeasured, request);
    const following = basis && (await this.against(ctx, request.route_id!, basis));
    const caller = callerOf(ctx);
    const now = this.clock.now();
    const row = await repo.insertLoadPlan(ctx.db, {
      business_id: businessId,
      route_id: request.route_id ?? null,
      space,
      request,
      answer,
      created_by: caller.userId,
      created_at: now,
      planned_at: now,
      planned_by: caller.userId,
      planned_token_id: caller.tokenId,
      basis,
      ...following,
    });
    return { result: true as const, plan: planView(await this.followUp(ctx, row)) };
  }

  /**
   * Plans the load again, in the space as it was planned: a route's plan from the route as it is
   * now (its deliveries still to make), a plan of items from the same items. The new answer
   * replaces the old, and the plan holds again. With `if_stale`, a plan that holds is left as it
   * is (a job queued when it went stale finds it planned again on request since).
   */
  async replan(ctx: OperationContext, planId: number, options: { if_stale?: boolean } = {}) {
    const businessId = businessOf(ctx);
    const row = await this.plan(ctx, planId);
    if (options.if_stale && row.changes.length === 0) {
      const kept =
        row.replan_job_id === null
          ? row
          : await repo.updateLoadPlan(ctx.db, businessId, planId, { replan_job_id: null });
      return { result: true as const, plan: planView(kept) };
    }
    const request = row.request as LoadRequest;
    if (request.route_id !== undefined && row.route_id === null) {
      throw new AppError('LOAD_PLAN_ROUTE_GONE', { params: { id: planId, route: request.route_id } });
    }
    const { items, unmeasured, basis } =
      row.route_id === null
        ? { items: request.items ?? [], unmeasured: [], basis: null }
        : await this.routeItems(ctx, row.route_id);
    const answer = await this.solve(row.space as SpaceView, items, unmeasured, request);
    const following = basis && (await this.against(ctx, row.route_id!, basis));
    // Held after its route (against), as a change of the route's stops holds them.
    await repo.loadPlanById(ctx.db, businessId, planId, true);
    const caller = callerOf(ctx);
    const saved = await repo.updateLoadPlan(ctx.db, businessId, planId, {
      answer,
      basis,
      changes: following?.changes ?? [],
      stale_since: following?.stale_since ?? null,
      replan_job_id: null,
      planned_at: this.clock.now(),
      planned_by: caller.userId,
      planned_token_id: caller.tokenId,
    });
    return { result: true as const, plan: planView(await this.followUp(ctx, saved)) };
  }

  /**
   * Dispatch tells, in the change's transaction, that these routes' stops changed: each plan made
   * from one of them lists what differs now from what it loaded (staleness.ts), or that the route
   * is gone, and is queued to be planned again where the business says so (followUp).
   */
  async routeStopsChanged(ctx: OperationContext, change: RouteStopsChange): Promise<void> {
    const plans = await repo.followingPlans(ctx.db, change.businessId, change.routeIds);
    if (plans.length === 0) return;
    const now = this.clock.now();
    const stops = change.dissolved
      ? new Map<number, never>()
      : await this.dispatch.stopsOfRoutes(ctx.db, change.businessId, change.routeIds);
    for (const plan of plans) {
      const current = stops.get(plan.route_id!);
      const changes = current
        ? staleChanges(plan.basis!, current, plan.changes, now)
        : dissolved(plan.changes, now);
      const same = JSON.stringify(changes) === JSON.stringify(plan.changes);
      const saved = same
        ? plan
        : await repo.updateLoadPlan(ctx.db, change.businessId, plan.id, {
            changes,
            stale_since: staleSince(changes),
          });
      await this.followUp(ctx, saved);
    }
  }

  // ----- settings -----

  async settingsOf(db: Queryable, businessId: number) {
    const saved = await repo.loadingSettingsOf(db, businessId);
    return { replan_automatically: saved?.replan_automatically ?? false };
  }

  async settings(ctx: OperationContext) {
    return { result: true as const, settings: await this.settingsOf(ctx.db, businessOf(ctx)) };
  }

  /** Changes the settings it names; the others stay. */
  async updateSettings(ctx: OperationContext, changes: { replan_automatically?: boolean }) {
    const businessId = businessOf(ctx);
    const settings = { ...(await this.settingsOf(ctx.db, businessId)), ...changes };
    await repo.saveLoadingSettings(ctx.db, {
      business_id: businessId,
      ...settings,
      updated_at: this.clock.now(),
    });
    return { result: true as const, settings };
  }

  /**
   * A stale plan is queued to be planned again when the business says so (loading_settings): in
   * this transaction, one job at a time (a failed one stays named until the plan is planned
   * again), run as whoever planned it last with the token they planned it with. A plan whose
   * route is gone is not: there is nothing to plan it from.
   */
  private async followUp(ctx: OperationContext, row: PlanRow): Promise<PlanRow> {
    const { planned_by: userId, planned_token_id: tokenId } = row;
    if (!this.jobs || row.changes.length === 0 || row.replan_job_id !== null) return row;
    if (userId === null || tokenId === null) return row;
    if (row.changes.some((change) => change.kind === 'route_dissolved')) return row;
    if (!(await this.settingsOf(ctx.db, row.business_id)).replan_automatically) return row;
    const jobId = await this.jobs.enqueueWithin(ctx.db, {
      operation: REPLAN_OPERATION,
      input: { plan_id: row.id, if_stale: true },
      business: row.business_id,
      userId,
      tokenId,
      lang: ctx.lang,
    });
    return repo.updateLoadPlan(ctx.db, row.business_id, row.id, { replan_job_id: jobId });
  }

  /**
   * How a plan made from `basis` stands against its route now. The route is held until this
   * transaction ends: a change of its stops either committed before and is seen here, or waits
   * and is told to the plan once it is saved (route-stops.ts in dispatch).
   */
  private async against(ctx: OperationContext, routeId: number, basis: PlannedStop[]) {
    const stops = (await this.dispatch.stopsOfRoutes(ctx.db, businessOf(ctx), [routeId], true)).get(routeId);
    const now = this.clock.now();
    const changes = stops ? staleChanges(basis, stops, [], now) : dissolved([], now);
    return { changes, stale_since: staleSince(changes) };
  }

  /** The solver's answer for these boxes in this space, as a plan answers it. */
  private async solve(
    space: SpaceView,
    items: LoadItemInput[],
    unmeasured: Array<{ order_id: number; tracking_number: string }>,
    request: LoadRequest,
  ) {
    const door = space.door;
    const loadable = items.flatMap((item, index) => (!door || passesDoor(item, door) ? [index] : []));
    const input: LoadingInput = {
      space: loadingSpaceOf(space),
      items: loadable.map((index): LoadingItem => {
        const item = items[index]!;
        return {
          id: String(index),
          length: item.length_mm,
          width: item.width_mm,
          height: item.height_mm,
          quantity: item.quantity,
          weightKg: item.weight_grams / 1000,
          ...(item.this_side_up && { mayBeVertical: [false, false, true] as [boolean, boolean, boolean] }),
          fragile: item.fragile,
          ...(item.max_load_on_top_grams !== undefined && {
            maxLoadOnTopKg: item.max_load_on_top_grams / 1000,
          }),
          stop: item.stop,
        };
      }),
      options: {
        supportShare: request.support_percent / 100,
        timeLimitMs: Math.min(request.time_limit_ms, TIME_LIMIT_MS.max),
        seed: 1,
      },
    };
    const solved = await this.solvers.run<LoadingOutput>('loading', input, input.options!.timeLimitMs!);
    const refOf = (index: number) => items[index]?.ref ?? null;
    const originalOf = (solverItem: number) => loadable[solverItem]!;
    const gravity = solved.centreOfGravity;
    const answer = {
      support_percent: request.support_percent,
      placements: solved.placements.map((placement) => ({
        step: placement.step,
        item_index: originalOf(placement.item),
        ref: refOf(originalOf(placement.item)),
        stop: items[originalOf(placement.item)]!.stop,
        x_mm: mm(placement.x),
        y_mm: mm(placement.y),
        z_mm: mm(placement.z),
        length_mm: mm(placement.length),
        width_mm: mm(placement.width),
        height_mm: mm(placement.height),
        orientation: placement.orientation,
      })),
      unplaced: [
        ...items.flatMap((item, index) =>
          loadable.includes(index)
            ? []
            : [
                {
                  item_index: index,
                  ref: item.ref ?? null,
                  quantity: item.quantity,
                  reason: 'door_too_small' as const,
                },
              ],
        ),
        ...solved.unplaced.map((unplaced) => ({
          item_index: originalOf(unplaced.item),
          ref: refOf(originalOf(unplaced.item)),
          quantity: unplaced.quantity,
          reason: unplaced.reason,
        })),
      ],
      unmeasured,
      volume_percent: percent(solved.volumeUtilization),
      weight_percent: solved.weightUtilization === null ? null : percent(solved.weightUtilization),
      total_weight_grams: Math.round(solved.totalWeightKg * 1000),
      centre_of_gravity: gravity && { x_mm: mm(gravity.x), y_mm: mm(gravity.y), z_mm: mm(gravity.z) },
      centre_of_gravity_offset: solved.centreOfGravityOffset && {
        x_mm: mm(solved.centreOfGravityOffset.x),
        y_mm: mm(solved.centreOfGravityOffset.y),
        z_mm: mm(solved.centreOfGravityOffset.z),
      },
      axle_loads:
        solved.axleLoadsKg?.map((kg, index) => {
          const axle = space.axles![index]!;
          const load = Math.round(kg * 10) / 10;
          return {
            name: axle.name,
            load_kg: load,
            max_load_kg: axle.max_load_kg,
            within_limit: load <= axle.max_load_kg,
          };
        }) ?? null,
      stops: solved.stops.map((stop) => ({
        stop: stop.stop,
        boxes: stop.boxes,
        boxes_to_move: stop.boxesToMove,
      })),
      search: { iterations: solved.iterations, elapsed_ms: Math.round(solved.elapsedMs) },
    };
    return answer;
  }

  async get(ctx: OperationContext, planId: number) {
    return { result: true as const, plan: planView(await this.plan(ctx, planId)) };
  }

  async list(ctx: OperationContext, query: { route_id?: number; page: number; per_page: number }) {
    const { rows, total } = await repo.loadPlansOf(
      ctx.db,
      businessOf(ctx),
      { routeId: query.route_id },
      pageWindow(query),
    );
    return { result: true as const, ...envelopeOf(query, total), plans: rows.map(planView) };
  }

  /** The plan as a picture (SVG): boxes coloured by the stop they are unloaded at. */
  async picture(ctx: OperationContext, planId: number): Promise<string> {
    return pictureOf(planView(await this.plan(ctx, planId)), Number.POSITIVE_INFINITY);
  }

  /** The plan as a printable loading sheet (PDF): the load, its stops, and its steps in pictures. */
  async sheet(ctx: OperationContext, planId: number): Promise<Buffer> {
    const plan = planView(await this.plan(ctx, planId));
    return loadingSheetPdf(
      {
        title: `Load plan ${plan.id}: ${plan.space.name}, ${plan.placements.length} boxes`,
        placements: plan.placements,
        stops: plan.stops,
        plannedAt: new Date(plan.planned_at),
      },
      (upTo) => pictureOf(plan, upTo),
    );
  }

  private async plan(ctx: OperationContext, planId: number) {
    const row = await repo.loadPlanById(ctx.db, businessOf(ctx), planId);
    if (!row) throw new AppError('LOAD_PLAN_NOT_FOUND', { params: { id: planId } });
    return row;
  }

  private async space(ctx: OperationContext, named: string): Promise<SpaceView> {
    const standard = standardSpace(named);
    if (standard) return standardView(standard);
    const id = /^\d{1,15}$/.test(named) ? Number(named) : undefined;
    const row = id === undefined ? undefined : await repo.spaceById(ctx.db, businessOf(ctx), id);
    if (!row) throw new AppError('LOADING_SPACE_NOT_FOUND', { params: { space: named } });
    return businessSpaceView(row);
  }

  /**
   * A route's packages as boxes: the measured packages of each delivery still to make, its stop
   * being the rank of the delivery among them (1 is unloaded first), and those deliveries (the
   * basis the plan follows its route by). Orders picked up on the way are not on board at
   * departure, deliveries done have left; packages without sizes are reported, not guessed.
   */
  private async routeItems(ctx: OperationContext, routeId: number) {
    const [route] = await this.dispatch.routes(ctx, { ids: [routeId] });
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    const basis = loadedStops(route.stops);
    const items: LoadItemInput[] = [];
    const unmeasured: Array<{ order_id: number; tracking_number: string }> = [];
    for (const stop of basis) {
      const order = await this.orders.queries.detail(ctx, stop.order_id);
      for (const pkg of order.packages) {
        if (!pkg.length_mm || !pkg.width_mm || !pkg.height_mm) {
          unmeasured.push({ order_id: order.id, tracking_number: pkg.tracking_number });
          continue;
        }
        items.push({
          ref: pkg.tracking_number,
          length_mm: pkg.length_mm,
          width_mm: pkg.width_mm,
          height_mm: pkg.height_mm,
          weight_grams: pkg.weight_grams ?? 0,
          quantity: 1,
          this_side_up: false,
          fragile: false,
          stop: stop.stop,
        });
      }
    }
    return { items, unmeasured, basis };
  }
}

/** What a load plan answered, as stored. */
type LoadAnswer = Omit<
  z.infer<typeof loadPlanSchema>,
  | 'id'
  | 'route_id'
  | 'space'
  | 'created_at'
  | 'planned_at'
  | 'stale'
  | 'stale_since'
  | 'changes'
  | 'replan_job_id'
>;

/**
 * A plan's picture, boxes coloured by the stop they are unloaded at (or by item on a one-stop
 * load), with the boxes of steps 1 to `upTo` drawn.
 */
function pictureOf(plan: ReturnType<typeof planView>, upTo: number): string {
  const byStop = new Set(plan.placements.map((p) => p.stop)).size > 1;
  const shown = Math.min(upTo, plan.placements.length);
  return loadPictureSvg(
    {
      name: plan.space.name,
      length: plan.space.length_mm,
      width: plan.space.width_mm,
      height: plan.space.height_mm,
      ...(plan.space.cross_section && { crossSection: plan.space.cross_section as Array<[number, number]> }),
    },
    plan.placements.map((p) => ({
      x: p.x_mm,
      y: p.y_mm,
      z: p.z_mm,
      length: p.length_mm,
      width: p.width_mm,
      height: p.height_mm,
      group: byStop ? `stop ${p.stop}` : (p.ref ?? `item ${p.item_index + 1}`),
      ...(byStop && { label: String(p.stop) }),
      later: p.step > upTo,
    })),
    shown === plan.placements.length
      ? `Load plan ${plan.id}: ${plan.space.name}, ${plan.placements.length} boxes, ${plan.volume_percent} % of the volume`
      : `Load plan ${plan.id}: steps 1 to ${shown} of ${plan.placements.length}`,
  );
}

const BEFORE_BY_HAND = { reach_limit_mm: null, max_stack_ratio: null, load_at_door: false };

function planView(row: PlanRow) {
  return {
    id: row.id,
    route_id: row.route_id,
    // Plans made before spaces were loaded by hand, and before stops were told, answer as then.
    space: { ...BEFORE_BY_HAND, ...(row.space as Partial<SpaceView>) } as SpaceView,
    ...({ stops: [], ...(row.answer as Partial<LoadAnswer>) } as LoadAnswer),
    created_at: row.created_at.toISOString(),
    planned_at: row.planned_at.toISOString(),
    stale: row.changes.length > 0,
    stale_since: row.stale_since?.toISOString() ?? null,
    changes: row.changes,
    replan_job_id: row.replan_job_id,
  };
}
