import type { Selectable } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { toMajor } from '../../platform/money.ts';
import { envelopeOf, pageWindow } from '../../platform/pagination.ts';
import type { OrdersService } from '../orders/index.ts';
import { cartonOf, type PackagingCatalog, toMinorUnits } from './packaging.ts';
import * as repo from './repository.ts';
import { type ItemInput, TIME_LIMIT_MS } from './schemas.ts';
import type { CartonSolverInput, CartonSolverOutput, CartonType } from './solver/cartons/index.ts';
import type { PackingTables } from './tables.ts';

/** The solver threads, as this module uses them (platform/workers.ts). */
export interface Solvers {
  run<T>(kind: 'cartons' | 'loading', input: unknown, budgetMs: number): Promise<T>;
}

type Dimensions = { length_mm: number; width_mm: number; height_mm: number };

export interface PackingRequest {
  items: ItemInput[];
  custom_cartons?: Array<{
    name?: string;
    inner: Dimensions;
    outer?: Dimensions;
    tare_grams: number;
    max_gross_grams: number;
    cost: number;
  }>;
  packaging_ids?: number[];
  target_utilization_percent: number;
  time_limit_ms: number;
}

/** What a plan answers, stored as answered. */
type PlanAnswer = ReturnType<typeof answerOf>;
type PlanRow = Selectable<PackingTables['packing_plans']>;

const dims = (d: Dimensions) => ({ length: d.length_mm, width: d.width_mm, height: d.height_mm });
const wire = (d: { length: number; width: number; height: number }) => ({
  length_mm: d.length,
  width_mm: d.width,
  height_mm: d.height,
});

/** The plan's catalog cartons with their names and currencies, for the answer. */
interface CatalogEntry {
  carton: CartonType;
  name: string;
  currency: string;
}

function answerOf(request: PackingRequest, catalog: CatalogEntry[], solved: CartonSolverOutput) {
  const refOf = (index: number) => request.items[index]?.ref ?? null;
  // Custom sizes carry no currency: they cost what the catalog's currency says, or nothing.
  const customCurrency = catalog[0]?.currency ?? null;
  const costs = new Map<string, number>();
  const packages = solved.packages.map((pkg) => {
    const fromCatalog = pkg.carton.source === 'catalog' ? catalog[pkg.carton.index] : undefined;
    const custom = pkg.carton.source === 'custom' ? request.custom_cartons?.[pkg.carton.index] : undefined;
    const currency = fromCatalog?.currency ?? customCurrency;
    const cost = currency ? toMajor(pkg.costMinor, currency) : 0;
    if (currency) costs.set(currency, (costs.get(currency) ?? 0) + pkg.costMinor);
    return {
      packaging_id: fromCatalog ? fromCatalog.carton.id! : null,
      custom_index: custom ? pkg.carton.index : null,
      name: fromCatalog?.name ?? custom?.name ?? `Custom ${pkg.carton.index + 1}`,
      inner: wire(pkg.inner),
      outer: wire(pkg.outer),
      fill_percent: Math.round(pkg.fillRatio * 10_000) / 100,
      gross_weight_grams: pkg.grossGrams,
      cost,
      currency: currency,
      items: pkg.items.map((placed) => ({
        item_index: placed.itemId,
        ref: refOf(placed.itemId),
        x_mm: placed.x,
        y_mm: placed.y,
        z_mm: placed.z,
        ...wire(placed.placed),
        orientation: placed.orientation,
      })),
    };
  });
  return {
    target_utilization_percent: request.target_utilization_percent,
    packages,
    unfit: solved.unfit.map((unfit) => ({
      item_index: unfit.itemId,
      ref: refOf(unfit.itemId),
      quantity: unfit.quantity,
      reason: unfit.reason,
    })),
    totals: {
      outer_volume_mm3: solved.totals.outerVolumeMm3,
      package_count: solved.totals.packageCount,
      cost: [...costs].map(([currency, minor]) => ({ currency, amount: toMajor(minor, currency) })),
    },
    search: {
      iterations: solved.stats.iterations,
      elapsed_ms: Math.round(solved.stats.elapsedMs),
      timed_out: solved.stats.timedOut,
    },
  };
}

function planView(row: PlanRow) {
  return {
    id: row.id,
    order_id: row.order_id,
    ...(row.answer as PlanAnswer),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    applied_at: row.applied_at?.toISOString() ?? null,
  };
}

/**
 * Packing plans: which cartons of the catalog (and of sizes given for the plan) take a set of
 * items, solved on a solver thread and kept, so a plan can be read again, re-run against the
 * catalog as it is now, and applied to an order (its packages become the plan's cartons).
 */
export class PackingPlans {
  constructor(
    private readonly clock: Clock,
    private readonly packaging: PackagingCatalog,
    private readonly solvers: Solvers,
    private readonly orders: Pick<OrdersService, 'intake' | 'queries'>,
  ) {}

  async create(ctx: OperationContext, input: PackingRequest & { order_id?: number }) {
    const businessId = businessOf(ctx);
    const { order_id: orderId, ...request } = input;
    if (orderId !== undefined) await this.orders.queries.detail(ctx, orderId);
    const answer = await this.solve(ctx, request);
    const now = this.clock.now();
    const row = await repo.insertPackingPlan(ctx.db, {
      business_id: businessId,
      order_id: orderId ?? null,
      request,
      answer,
      created_by: callerOf(ctx).userId ?? null,
      created_at: now,
      updated_at: now,
    });
    return { result: true as const, plan: planView(row) };
  }

  async get(ctx: OperationContext, planId: number) {
    return { result: true as const, plan: planView(await this.plan(ctx, planId)) };
  }

  async list(ctx: OperationContext, query: { order_id?: number; page: number; per_page: number }) {
    const { rows, total } = await repo.packingPlansOf(
      ctx.db,
      businessOf(ctx),
      { orderId: query.order_id },
      pageWindow(query),
    );
    return { result: true as const, ...envelopeOf(query, total), plans: rows.map(planView) };
  }

  /** Solves the plan's request again, against the catalog as it is now; an applied plan is no longer. */
  async rerun(ctx: OperationContext, planId: number) {
    const row = await this.plan(ctx, planId, true);
    const answer = await this.solve(ctx, row.request as PackingRequest);
    const saved = await repo.savePackingAnswer(ctx.db, businessOf(ctx), planId, answer, this.clock.now());
    return { result: true as const, plan: planView(saved) };
  }

  /** The plan's packages become the order's (docs/packing.md: which numbers stay, which are new). */
  async apply(ctx: OperationContext, planId: number, orderId: number) {
    const businessId = businessOf(ctx);
    const row = await this.plan(ctx, planId, true);
    const answer = row.answer as PlanAnswer;
    const unfit = answer.unfit.reduce((sum, item) => sum + item.quantity, 0);
    if (unfit > 0) throw new AppError('PACKING_PLAN_INCOMPLETE', { params: { count: unfit } });
    const packages = await this.orders.intake.repack(
      ctx,
      orderId,
      answer.packages.map((pkg) => ({
        weight_grams: pkg.gross_weight_grams,
        ...pkg.outer,
        description: pkg.name,
      })),
    );
    const applied = await repo.markApplied(ctx.db, businessId, planId, orderId, this.clock.now());
    return {
      result: true as const,
      plan: planView(applied),
      packages: packages.map((pkg) => ({
        tracking_number: pkg.tracking_number,
        weight_grams: pkg.weight_grams,
        length_mm: pkg.length_mm,
        width_mm: pkg.width_mm,
        height_mm: pkg.height_mm,
        description: pkg.description,
      })),
    };
  }

  private async plan(ctx: OperationContext, planId: number, lock = false) {
    const row = await repo.packingPlanById(ctx.db, businessOf(ctx), planId, lock);
    if (!row) throw new AppError('PACKING_PLAN_NOT_FOUND', { params: { id: planId } });
    return row;
  }

  private async solve(ctx: OperationContext, request: PackingRequest): Promise<PlanAnswer> {
    const rows = await this.packaging.cartonsFor(ctx, request.packaging_ids);
    const catalog = rows.map((row) => ({ carton: cartonOf(row), name: row.name, currency: row.currency }));
    const currency = catalog[0]?.currency;
    const input: CartonSolverInput = {
      catalog: catalog.map((entry) => entry.carton),
      customCartons: (request.custom_cartons ?? []).map((custom) => ({
        inner: dims(custom.inner),
        outer: dims(custom.outer ?? custom.inner),
        tareGrams: custom.tare_grams,
        maxGrossGrams: custom.max_gross_grams,
        costMinor: currency ? toMinorUnits(custom.cost, currency) : 0,
        active: true,
      })),
      items: request.items.map((item, index) => ({
        id: index,
        dimensions: { length: item.length_mm, width: item.width_mm, height: item.height_mm },
        weightGrams: item.weight_grams,
        quantity: item.quantity,
        mayRotate: item.may_rotate,
        thisSideUp: item.this_side_up,
        noStack: item.no_stack,
      })),
      targetUtilizationPercent: request.target_utilization_percent,
      timeLimitMs: Math.min(request.time_limit_ms, TIME_LIMIT_MS.max),
      seed: 1,
    };
    const solved = await this.solvers.run<CartonSolverOutput>('cartons', input, input.timeLimitMs!);
    return answerOf(request, catalog, solved);
  }
}
