import type { Selectable } from 'kysely';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { minorDigits, toMajor } from '../../platform/money.ts';
import * as repo from './repository.ts';
import { MAX_PACKAGING_TYPES } from './schemas.ts';
import type { CartonType } from './solver/cartons/index.ts';
import type { PackingTables } from './tables.ts';

type PackagingRow = Selectable<PackingTables['packaging_types']>;
type Dimensions = { length_mm: number; width_mm: number; height_mm: number };

export interface PackagingInput {
  name: string;
  inner: Dimensions;
  outer: Dimensions;
  tare_grams: number;
  max_gross_grams: number;
  cost: number;
  currency: string;
  active: boolean;
}

/** A cost as typed (any decimals) in minor units, rounded: platform/money's toMinor refuses extra decimals. */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** minorDigits(currency));
}

export function packagingView(row: PackagingRow) {
  return {
    id: row.id,
    name: row.name,
    inner: { length_mm: row.inner_length_mm, width_mm: row.inner_width_mm, height_mm: row.inner_height_mm },
    outer: { length_mm: row.outer_length_mm, width_mm: row.outer_width_mm, height_mm: row.outer_height_mm },
    tare_grams: row.tare_grams,
    max_gross_grams: row.max_gross_grams,
    cost: toMajor(Number(row.cost_minor), row.currency),
    currency: row.currency,
    active: row.active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A catalog carton as the solver sees it. */
export function cartonOf(row: PackagingRow): CartonType {
  return {
    id: row.id,
    inner: { length: row.inner_length_mm, width: row.inner_width_mm, height: row.inner_height_mm },
    outer: { length: row.outer_length_mm, width: row.outer_width_mm, height: row.outer_height_mm },
    tareGrams: row.tare_grams,
    maxGrossGrams: row.max_gross_grams,
    costMinor: Number(row.cost_minor),
    active: row.active,
  };
}

function columnsOf(input: PackagingInput) {
  return {
    name: input.name,
    inner_length_mm: input.inner.length_mm,
    inner_width_mm: input.inner.width_mm,
    inner_height_mm: input.inner.height_mm,
    outer_length_mm: input.outer.length_mm,
    outer_width_mm: input.outer.width_mm,
    outer_height_mm: input.outer.height_mm,
    tare_grams: input.tare_grams,
    max_gross_grams: input.max_gross_grams,
    cost_minor: toMinorUnits(input.cost, input.currency),
    currency: input.currency,
    active: input.active,
  };
}

/**
 * The business's packaging catalog: the carton types its packing plans choose from. A type is
 * deactivated rather than deleted when old plans should still name it; deleting it leaves the
 * plans that used it as they were answered (they keep its sizes, not a link).
 */
export class PackagingCatalog {
  constructor(private readonly clock: Clock) {}

  async list(ctx: OperationContext, filter: { active?: boolean }) {
    const rows = await repo.packagingOf(ctx.db, businessOf(ctx), filter);
    return { result: true as const, packaging: rows.map(packagingView) };
  }

  async create(ctx: OperationContext, input: PackagingInput) {
    const businessId = businessOf(ctx);
    const { n } = await repo.countPackaging(ctx.db, businessId);
    if (Number(n) >= MAX_PACKAGING_TYPES) {
      throw new AppError('PACKAGING_CATALOG_FULL', { params: { limit: MAX_PACKAGING_TYPES } });
    }
    const now = this.clock.now();
    const row = await repo.insertPackaging(ctx.db, {
      business_id: businessId,
      ...columnsOf(input),
      created_at: now,
      updated_at: now,
    });
    return { result: true as const, packaging: packagingView(row) };
  }

  /** Replaces a carton type's description as a whole (so sizes and weights are checked together). */
  async replace(ctx: OperationContext, id: number, input: PackagingInput) {
    const row = await repo.updatePackaging(ctx.db, businessOf(ctx), id, {
      ...columnsOf(input),
      updated_at: this.clock.now(),
    });
    if (!row) throw new AppError('PACKAGING_NOT_FOUND', { params: { id } });
    return { result: true as const, packaging: packagingView(row) };
  }

  async delete(ctx: OperationContext, id: number) {
    if (!(await repo.deletePackaging(ctx.db, businessOf(ctx), id))) {
      throw new AppError('PACKAGING_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, deleted: 1 };
  }

  /** The cartons a plan chooses from: the named ones (active or not), else every active one. */
  async cartonsFor(ctx: OperationContext, ids: number[] | undefined) {
    const businessId = businessOf(ctx);
    if (!ids) return repo.packagingOf(ctx.db, businessId, { active: true });
    const unique = [...new Set(ids)];
    const rows = await repo.packagingOf(ctx.db, businessId, { ids: unique });
    const missing = unique.find((id) => !rows.some((row) => row.id === id));
    if (missing !== undefined) throw new AppError('PACKAGING_NOT_FOUND', { params: { id: missing } });
    return rows.map((row) => ({ ...row, active: true }));
  }
}
