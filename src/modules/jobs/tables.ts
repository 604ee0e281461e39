export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A refusal as the service words it anywhere: its code, its message in the caller's language, its details. */
export interface JobError {
  code: string;
  message: string;
  details?: unknown;
}

export interface JobsTables {
  /** A call accepted to run in the background (docs/jobs.md), with its progress and outcome. */
  jobs: {
    business_id: number;
    /** Also the id of its queue message. */
    id: string;
    operation: string;
    status: JobStatus;
    progress: number;
    /** The call as it came, run again as its caller. */
    input: unknown;
    user_id: number;
    token_id: number;
    door: string;
    lang: string;
    /** What the call answers when it runs at once. */
    result: unknown;
    error: JobError | null;
    attempts: number;
    created_at: Date;
    started_at: Date | null;
    finished_at: Date | null;
  };
}
