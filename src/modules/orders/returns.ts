import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/index.ts';
import * as repo from './return-reasons-repository.ts';

/** A return reason named when an order is returned, and the photos that came with it. */
export interface ReturnGiven {
  reason?: { code: string; note?: string };
  photoUrls?: readonly string[];
  photoProofIds?: readonly number[];
}

/**
 * Return reasons: the business's list (code, label per language, whether a photo is needed), and
 * the check an order's return passes against it. A business without a list returns orders freely.
 */
export class OrderReturns {
  constructor(private readonly clock: Clock) {}

  async list(ctx: OperationContext) {
    const rows = await repo.returnReasonsOf(ctx.db, businessOf(ctx));
    return { result: true as const, reasons: rows.map((row) => viewOf(row, ctx.lang)) };
  }

  async save(
    ctx: OperationContext,
    input: { code: string; labels: Record<string, string>; photo_required: boolean },
  ) {
    const businessId = businessOf(ctx);
    await repo.saveReturnReason(ctx.db, { business_id: businessId, ...input, updated_at: this.clock.now() });
    const [row] = await repo.returnReasonsOf(ctx.db, businessId, input.code);
    return { result: true as const, reason: viewOf(row!, ctx.lang) };
  }

  async remove(ctx: OperationContext, code: string) {
    if (!(await repo.deleteReturnReason(ctx.db, businessOf(ctx), code))) {
      throw new AppError('RETURN_REASON_NOT_FOUND', { params: { code } });
    }
    return { result: true as const, deleted: code };
  }

  /** Refuses a return that names no reason, an unknown one, or lacks the photo its reason needs. */
  async check(db: Queryable, businessId: number, given: ReturnGiven): Promise<void> {
    const reasons = await repo.returnReasonsOf(db, businessId);
    if (reasons.length === 0 && !given.reason) return;
    if (!given.reason) {
      throw new AppError('RETURN_REASON_REQUIRED', {
        params: { codes: reasons.map((r) => r.code).join(', ') },
      });
    }
    const reason = reasons.find((candidate) => candidate.code === given.reason!.code);
    if (!reason) throw new AppError('RETURN_REASON_NOT_FOUND', { params: { code: given.reason.code } });
    if (reason.photo_required && !given.photoUrls?.length && !given.photoProofIds?.length) {
      throw new AppError('RETURN_PHOTO_REQUIRED', { params: { code: reason.code } });
    }
  }
}

function viewOf(row: Awaited<ReturnType<typeof repo.returnReasonsOf>>[number], lang: Language) {
  const label = row.labels[lang] ?? row.labels.en ?? Object.values(row.labels)[0] ?? row.code;
  return { code: row.code, label, labels: row.labels, photo_required: row.photo_required };
}
