import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { minorDigits, toMajor } from '../../platform/money.ts';
import * as repo from './repository.ts';
import type { LockerSites } from './sites.ts';
import type { SizeClass } from './tables.ts';

export interface QuotaInput {
  site_id: number;
  tenant_business_id: number;
  size_class: SizeClass;
  compartments: number;
  price: number;
  currency: string;
  period: 'day' | 'week' | 'month';
  starts_on: string;
  ends_on?: string;
}

/**
 * Locker resale: an operator offers compartments of its sites to another business, a quota per
 * size class at a price per period. The tenant books through the same flows, up to its quota;
 * its bookings and their ledger rows are its own, and the operator's other tenants never see them.
 */
export class LockerResale {
  constructor(
    private readonly clock: Clock,
    private readonly sites: LockerSites,
    private readonly businessExists: (db: Queryable, id: number) => Promise<boolean>,
  ) {}

  /** Sets the tenant's quota at a site for a size class (a second call changes it). */
  async offer(ctx: OperationContext, input: QuotaInput) {
    const site = await this.sites.ownSite(ctx, input.site_id);
    if (
      input.tenant_business_id === site.business_id ||
      !(await this.businessExists(ctx.db, input.tenant_business_id))
    ) {
      throw new AppError('BUSINESS_NOT_FOUND', { params: { business: input.tenant_business_id } });
    }
    const row = await repo.upsertQuota(ctx.db, {
      business_id: site.business_id,
      site_id: site.id,
      tenant_business_id: input.tenant_business_id,
      size_class: input.size_class,
      compartments: input.compartments,
      price_minor: Math.round(input.price * 10 ** minorDigits(input.currency)),
      currency: input.currency,
      period: input.period,
      starts_on: input.starts_on,
      ends_on: input.ends_on ?? null,
      created_at: this.clock.now(),
    });
    return { result: true as const, quota: await this.view(ctx.db, row) };
  }

  /** Quotas the business sells, and those it holds, each with how many compartments it uses now. */
  async list(ctx: OperationContext) {
    const rows = await repo.quotasOf(ctx.db, businessOf(ctx));
    return { result: true as const, quotas: await Promise.all(rows.map((row) => this.view(ctx.db, row))) };
  }

  /** Ends an offer: the tenant books no more there; what it holds stays until collected. */
  async withdraw(ctx: OperationContext, id: number) {
    const deleted = await repo.deleteQuota(ctx.db, businessOf(ctx), id);
    if (Number(deleted.numDeletedRows) === 0)
      throw new AppError('LOCKER_QUOTA_NOT_FOUND', { params: { id } });
    return { result: true as const, deleted: 1 };
  }

  private async view(db: Queryable, row: repo.QuotaRow) {
    const { n } = await repo.tenantHolding(db, row.tenant_business_id, row.site_id, row.size_class);
    return {
      id: row.id,
      site_id: row.site_id,
      operator_business_id: row.business_id,
      tenant_business_id: row.tenant_business_id,
      size_class: row.size_class,
      compartments: row.compartments,
      in_use: Number(n),
      price: toMajor(Number(row.price_minor), row.currency),
      currency: row.currency,
      period: row.period,
      starts_on: row.starts_on,
      ends_on: row.ends_on,
    };
  }
}
