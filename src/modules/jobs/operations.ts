import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { actingBusinessParam } from '../../platform/schemas.ts';
import type { JobsService } from './service.ts';
import { JOB_STATUSES } from './tables.ts';
import { jobSchema } from './view.ts';

const WHOSE =
  "The caller's own jobs; a client admin sees every job of the business. Another business's job is unknown (JOB_NOT_FOUND).";

export function jobsOperations(jobs: JobsService): Operation[] {
  return [
    defineOperation({
      name: 'get_job',
      summary: 'A job: an operation call running in the background, its progress and its outcome',
      description: `Poll the Location a 202 answer gave (docs/jobs.md). Once succeeded, \`result\` is what the call answers when it runs at once; once failed, \`error\` is its refusal. ${WHOSE}`,
      tag: 'Jobs',
      kind: 'query',
      risk: 'low',
      access: { kinds: 'any', business: 'acting' },
      errors: ['JOB_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/jobs/:id' },
      graphql: 'job',
      input: z.object({ id: z.uuid().describe('The job id'), business_id: actingBusinessParam }),
      output: z.object({ result: z.literal(true), job: jobSchema }),
      handler: (ctx, input) => jobs.job(ctx, input.id),
    }),
    defineOperation({
      name: 'list_jobs',
      summary: 'Jobs, newest first',
      description: `Filter by status or operation. ${WHOSE}`,
      tag: 'Jobs',
      kind: 'query',
      risk: 'low',
      access: { kinds: 'any', business: 'acting' },
      rest: { method: 'GET', path: '/v1/jobs' },
      graphql: 'jobs',
      input: z.object({
        status: z.enum(JOB_STATUSES).optional(),
        operation: z.string().max(100).optional(),
        business_id: actingBusinessParam,
        ...pageParams,
      }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, jobs: z.array(jobSchema) }),
      handler: (ctx, input) => jobs.jobs(ctx, input),
    }),
  ];
}
