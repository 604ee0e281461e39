import type { Queryable } from '../db/database.ts';
import type { AppError } from '../errors.ts';
import type { Language } from '../i18n/index.ts';
import type { AnswerMeta, Caller, Door, JobBinding, Operation } from './operation.ts';

/** A call the executor let in and hands over to run as a job. */
export interface JobCall {
  operation: Operation;
  /** The input as the door gave it: the worker's run checks it again, as any call's. */
  input: unknown;
  caller: Caller;
  business: number;
  door: Door;
  lang: Language;
  budgetSeconds: number;
}

/** Where jobs are accepted (the jobs module): the job's row and its queue message, in one transaction. */
export interface JobDesk {
  enqueue(call: JobCall): Promise<{ resource: unknown; location: string }>;
}

/**
 * A call the service queues by itself, on someone's behalf (a load plan planned again when its
 * route changed): it runs as that person with that token, checked again when it runs, as any job.
 */
export interface QueuedCall {
  /** The operation's name in the catalog. */
  operation: string;
  input: unknown;
  business: number;
  userId: number;
  tokenId: number;
  lang: Language;
}

/** Where a module queues such calls (the jobs module): in the caller's transaction, so a job exists only if it commits. */
export interface BackgroundCalls {
  /** Answers the job's id. */
  enqueueWithin(db: Queryable, call: QueuedCall): Promise<string>;
}

/** How a run ended, as the executor knows it: its answer, or a refusal that keeps its writes. */
export type JobEnding = { result: unknown } | { refusal: AppError };

/** A job's run, as the worker hands it to the executor with the call it makes. */
export interface JobRun {
  /** The business the job was accepted in: a run that would act in another is refused. */
  business: number;
  progress(percent: number): void;
  /** First in the run's transaction: false when the job is done already (a run that committed before). */
  begin(trx: Queryable): Promise<boolean>;
  /** Last in the run's transaction: the job's outcome, committed with the operation's own writes. */
  finish(trx: Queryable, ending: JobEnding): Promise<void>;
}

/** Thrown out of a run whose job another run finished: nothing of it is kept. */
export class JobAlreadyDone extends Error {
  constructor() {
    super('The job is done already');
  }
}

/**
 * Whether a call runs as a job: the operation offers it, the door can answer "accepted", it is no
 * dry run (which answers at once), and the input or the caller asks for it.
 */
export function runsAsJob(
  operation: Operation,
  input: unknown,
  invocation: { async?: 'allowed' | 'preferred'; dryRun?: boolean; job?: JobRun },
): boolean {
  if (!operation.job || !invocation.async || invocation.dryRun || invocation.job) return false;
  return invocation.async === 'preferred' || operation.job.when(input);
}

/**
 * Hands a let-in call to the job desk when it runs as a job: the answer is the job resource, and
 * the door learns where it lives (AnswerMeta.accepted). None: the call runs at once.
 */
export async function acceptAsJob(
  desk: JobDesk | undefined,
  operation: Operation,
  rawInput: unknown,
  admitted: { caller: Caller | null; business: number | null; input: unknown },
  invocation: Parameters<typeof runsAsJob>[2] & { door: Door; lang: Language; answer?: AnswerMeta },
): Promise<{ resource: unknown } | undefined> {
  const { caller, business, input } = admitted;
  if (!desk || !caller || business === null || !runsAsJob(operation, input, invocation)) return undefined;
  const accepted = await desk.enqueue({
    operation,
    input: rawInput ?? {},
    caller,
    business,
    door: invocation.door,
    lang: invocation.lang,
    budgetSeconds: operation.job!.budgetSeconds(input),
  });
  if (invocation.answer) invocation.answer.accepted = { location: accepted.location };
  return accepted;
}

/** Imports of this many rows or more run as jobs where the door can answer with one (docs/jobs.md). */
export const IMPORT_JOB_ROWS = 1000;
/** The longest one import run may take: checking and writing its most rows on a loaded machine. */
export const IMPORT_BUDGET_SECONDS = 300;

/** The job binding of an import, given how many rows its input holds. */
export function importJob<Input>(rows: (input: Input) => number): JobBinding<Input> {
  return { when: (input) => rows(input) >= IMPORT_JOB_ROWS, budgetSeconds: () => IMPORT_BUDGET_SECONDS };
}

/** The lines of a CSV text, an upper bound of its rows that costs no parsing. */
export function csvLines(csv: string): number {
  let lines = 1;
  for (let at = csv.indexOf('\n'); at !== -1; at = csv.indexOf('\n', at + 1)) lines++;
  return lines;
}
