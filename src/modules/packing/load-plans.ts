import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, pageWindow } from '../../platform/pagination.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { OrdersService } from '../orders/index.ts';
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
import type { Axle, LoadingInput, LoadingItem, LoadingOutput } from './solver/loading/index.ts';
import { STANDARD_SPACES, type StandardSpace, standardSpace } from './spaces.ts';
import type { PackingTables, SpaceKind } from './tables.ts';

type SpaceRow = Selectable<PackingTables['loading_spaces']>;
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
}

export interface LoadRequest {
  space: string;
  items?: LoadItemInput[];
  route_id?: number;
  support_percent: number;
  time_limit_ms: number;
}

function standardView(space: StandardSpace): SpaceView {
  return {
    code: space.code,
    id: null,
    name: space.name,
    kind: space.kind,
    length_mm: space.lengthMm,
    width_mm: space.widthMm,
    height_mm: space.heightMm,
    payload_kg: space.payloadKg,
    door: space.door ? { width_mm: space.door.widthMm, height_mm: space.door.heightMm } : null,
    cross_section: space.crossSection ?? null,
    axles: null,
    source: space.source,
  };
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

/**
 * Load plans: which boxes go where in a container, an air ULD, a van or a truck, in which order
 * they are loaded, and whether the load keeps its weight, balance, stacking and unloading order
 * (docs/loading.md). The boxes are given, or are a built route's measured packages, unloaded in
 * the order of its deliveries.
 */
export class LoadPlans {
  constructor(
    private readonly clock: Clock,
    private readonly solvers: Solvers,
    private readonly dispatch: Pick<DispatchService, 'routes'>,
    private readonly orders: Pick<OrdersService, 'queries'>,
  ) {}

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
    const { items, unmeasured } = request.route_id
      ? await this.routeItems(ctx, request.route_id)
      : { items: request.items ?? [], unmeasured: [] };
    const door = space.door;
    const loadable = items.flatMap((item, index) => (!door || passesDoor(item, door) ? [index] : []));
    const input: LoadingInput = {
      space: {
        length: space.length_mm,
        width: space.width_mm,
        height: space.height_mm,
        ...(space.payload_kg !== null && { payloadKg: space.payload_kg }),
        ...(space.cross_section && { crossSection: space.cross_section as Array<[number, number]> }),
        ...(space.axles && {
          axles: space.axles.map((axle) => ({
            positionMm: axle.position_mm,
            maxLoadKg: axle.max_load_kg,
          })) as [Axle, Axle],
        }),
      },
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
      search: { iterations: solved.iterations, elapsed_ms: Math.round(solved.elapsedMs) },
    };
    const row = await repo.insertLoadPlan(ctx.db, {
      business_id: businessId,
      route_id: request.route_id ?? null,
      space,
      request,
      answer,
      created_by: callerOf(ctx).userId,
      created_at: this.clock.now(),
    });
    return { result: true as const, plan: planView(row) };
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
    const plan = planView(await this.plan(ctx, planId));
    const byStop = new Set(plan.placements.map((p) => p.stop)).size > 1;
    return loadPictureSvg(
      {
        name: plan.space.name,
        length: plan.space.length_mm,
        width: plan.space.width_mm,
        height: plan.space.height_mm,
        ...(plan.space.cross_section && {
          crossSection: plan.space.cross_section as Array<[number, number]>,
        }),
      },
      plan.placements.map((p) => ({
        x: p.x_mm,
        y: p.y_mm,
        z: p.z_mm,
        length: p.length_mm,
        width: p.width_mm,
        height: p.height_mm,
        group: byStop ? `stop ${p.stop}` : (p.ref ?? `item ${p.item_index + 1}`),
      })),
      `Load plan ${plan.id}: ${plan.space.name}, ${plan.placements.length} boxes, ${plan.volume_percent} % of the volume`,
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
   * A route's packages as boxes: each delivered order's measured packages, its stop being the
   * rank of its delivery on the route (1 is unloaded first). Orders picked up on the way are not
   * on board at departure; packages without sizes are reported, not guessed.
   */
  private async routeItems(ctx: OperationContext, routeId: number) {
    const [route] = await this.dispatch.routes(ctx, { ids: [routeId] });
    if (!route) throw new AppError('ROUTE_NOT_FOUND', { params: { route: routeId } });
    const deliveries = route.stops.filter((stop) => stop.leg !== 'pickup');
    const items: LoadItemInput[] = [];
    const unmeasured: Array<{ order_id: number; tracking_number: string }> = [];
    for (const [rank, stop] of deliveries.entries()) {
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
          stop: rank + 1,
        });
      }
    }
    return { items, unmeasured };
  }
}

/** What a load plan answered, as stored. */
type LoadAnswer = Omit<z.infer<typeof loadPlanSchema>, 'id' | 'route_id' | 'space' | 'created_at'>;

function planView(row: Selectable<PackingTables['load_plans']>) {
  return {
    id: row.id,
    route_id: row.route_id,
    space: row.space as SpaceView,
    ...(row.answer as LoadAnswer),
    created_at: row.created_at.toISOString(),
  };
}
