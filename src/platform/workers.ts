import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode, type MessageParams } from './errors.ts';
import { besideBuild } from './project.ts';

/**
 * CPU-heavy pure work (the packing and loading solvers) on worker threads, so a 1.5-second search
 * never holds the event loop: a bounded pool of threads started on first use, each running one
 * task at a time, and a bounded queue in front of them. A full queue is refused at once
 * (SOLVER_BUSY, 429 with Retry-After) rather than making callers wait behind minutes of work.
 *
 * A task is `{ kind, input }`; the worker entry (src/solver-worker.ts) maps kinds to functions.
 * Inputs and answers cross threads by structured clone: plain data only.
 */

export interface WorkerPoolOptions {
  /** Threads at most; default: the cores but one (at least one). */
  threads?: number;
  /** Tasks waiting for a thread at most, beyond those running; default 4 per thread. */
  queueLimit?: number;
  /** The refusal when the queue is full (429 with Retry-After); default SOLVER_BUSY. */
  busy?: ErrorCode;
}

/**
 * A worker's answer: the result, or an error. An error with a code is a refusal of the input
 * (an unreadable image) and reaches the caller as that AppError; one without is a fault.
 */
export type WorkerAnswer =
  | { result: unknown }
  | { error: string; code?: ErrorCode; params?: MessageParams; details?: Record<string, unknown> };

interface Task {
  kind: string;
  input: unknown;
  /** A task still running this long after it started is stopped with its thread. */
  deadlineMs: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

/** How long a caller refused for a full queue is told to wait, in seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Where a worker entry is: from the sources (tests, development) through a small bootstrap that
 * loads TypeScript; from the built service (`npm start`), the entry built beside main.mjs.
 */
export function workerEntry(name: string): { url: URL; workerData?: { entry: string } } {
  const built = besideBuild(`${name}.mjs`);
  if (built) return { url: built };
  return {
    url: new URL('./worker-boot.mjs', import.meta.url),
    workerData: { entry: new URL(`../${name}.ts`, import.meta.url).href },
  };
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private readonly threads: number;
  private readonly queueLimit: number;
  private readonly busy: ErrorCode;
  private closed = false;

  constructor(
    private readonly entry: { url: URL; workerData?: unknown },
    options: WorkerPoolOptions = {},
  ) {
    this.threads = Math.max(1, options.threads ?? availableParallelism() - 1);
    this.queueLimit = options.queueLimit ?? 4 * this.threads;
    this.busy = options.busy ?? 'SOLVER_BUSY';
  }

  /**
   * Runs `kind` on `input` in a thread and answers its result. `budgetMs` is how long the work
   * means to take; a task still running well past it (a fault, not a search) is stopped.
   */
  run<T>(kind: string, input: unknown, budgetMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    const busy = this.slots.filter((slot) => slot.task).length;
    if (busy >= this.threads && this.waiting.length >= this.queueLimit) {
      return Promise.reject(
        new AppError(this.busy, {
          params: { seconds: RETRY_AFTER_SECONDS },
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        kind,
        input,
        deadlineMs: budgetMs + 30_000,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * Starts every thread now instead of at its first task: a thread takes a while to load its
   * code, which a caller that knows work is coming (the demo seed) lets it do ahead.
   */
  warm(): void {
    while (!this.closed && this.spawn());
  }

  /** Threads started and not stopped. */
  get started(): number {
    return this.slots.length;
  }

  /** Stops every thread; tasks waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new Error('the worker pool is closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.task?.reject(new Error('the worker pool is closed'));
        return slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot = this.slots.find((candidate) => !candidate.task) ?? this.spawn();
      if (!slot) return;
      const task = this.waiting.shift()!;
      slot.task = task;
      slot.timer = setTimeout(
        () => this.fail(slot, new Error(`${task.kind} ran past its time`)),
        task.deadlineMs,
      );
      slot.worker.postMessage({ kind: task.kind, input: task.input });
    }
  }

  private spawn(): Slot | undefined {
    if (this.slots.length >= this.threads) return undefined;
    const worker = new Worker(this.entry.url, { workerData: this.entry.workerData });
    const slot: Slot = { worker, task: null, timer: null };
    worker.on('message', (message: WorkerAnswer) => {
      const task = slot.task;
      if (!task) return;
      this.release(slot);
      if (!('error' in message)) task.resolve(message.result);
      else if (message.code)
        task.reject(new AppError(message.code, { params: message.params, details: message.details }));
      else task.reject(new Error(message.error));
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(slot, error));
    worker.on('exit', () => this.fail(slot, new Error('a worker thread stopped')));
    // An idle pool never keeps the process alive.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
  }

  /** The slot's thread is gone or stuck: its task fails, the thread is replaced on the next task. */
  private fail(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const task = slot.task;
    this.release(slot);
    void slot.worker.terminate();
    task?.reject(error);
    if (!this.closed) this.dispatch();
  }
}
