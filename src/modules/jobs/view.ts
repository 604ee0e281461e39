import { z } from 'zod';
import type { JobRow } from './repository.ts';
import { JOB_STATUSES } from './tables.ts';

export const jobSchema = z
  .object({
    id: z.string().describe('The job id (a UUID)'),
    operation: z.string().describe('The operation the job runs (build_route, ...)'),
    status: z.enum(JOB_STATUSES).meta({ title: 'JobStatus' }),
    progress: z.int().min(0).max(100).describe('How far the run is, in percent; 100 once succeeded'),
    result: z
      .unknown()
      .describe("Once succeeded: what the operation answers when called at once (its own answer's shape)"),
    error: z
      .object({ code: z.string(), message: z.string(), details: z.unknown().optional() })
      .nullable()
      .describe('Once failed: the refusal the call would have answered (error code, message, details)'),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({ title: 'Job' });

export function jobView(row: JobRow): z.input<typeof jobSchema> {
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    progress: row.progress,
    result: row.result ?? null,
    error: row.error,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
