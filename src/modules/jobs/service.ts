import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import * as repo from './repository.ts';
import type { JobStatus } from './tables.ts';
import { jobView } from './view.ts';

/**
 * Reading jobs back: a caller sees the jobs it started; the business's admins see every job of the
 * business. Another's job, or another business's, is as unknown as a made-up id.
 */
export class JobsService {
  async job(ctx: OperationContext, id: string) {
    const job = await repo.findJob(ctx.db, businessOf(ctx), id);
    if (!job || (!this.seesAll(ctx) && job.user_id !== callerOf(ctx).userId))
      throw new AppError('JOB_NOT_FOUND');
    return { result: true as const, job: jobView(job) };
  }

  async jobs(ctx: OperationContext, query: PageQuery & { status?: JobStatus; operation?: string }) {
    const userId = this.seesAll(ctx) ? undefined : callerOf(ctx).userId;
    const { rows, total } = await repo.listJobs(
      ctx.db,
      businessOf(ctx),
      { userId, status: query.status, operation: query.operation },
      pageWindow(query),
    );
    return { result: true as const, ...envelopeOf(query, total), jobs: rows.map(jobView) };
  }

  private seesAll(ctx: OperationContext): boolean {
    return callerOf(ctx).kind === 'client_admin';
  }
}
